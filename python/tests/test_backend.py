"""The build backend's wheel (what pip installs and scripts/package.sh ships): the package, its
site and metadata, every file's hash in RECORD as the wheel format requires."""

import base64
import hashlib
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

PYTHON = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PYTHON))
import build_backend  # noqa: E402

pytestmark = pytest.mark.skipif(not (PYTHON / "attention_lab" / "site" / "VERSION").is_file(),
                                reason="the package has no site: run scripts/build.sh web")


def project_version():
    cmake = (PYTHON.parent / "CMakeLists.txt").read_text()
    return re.search(r"^project\(attention_lab VERSION ([\d.]+)", cmake, re.M).group(1)


def test_the_wheel_holds_the_package_its_site_and_a_true_record(tmp_path):
    name = build_backend.build_wheel(str(tmp_path))
    assert name == f"attention_lab-{project_version()}-py3-none-any.whl"
    with zipfile.ZipFile(tmp_path / name) as wheel:
        files = set(wheel.namelist())
        for needed in ("attention_lab/__init__.py", "attention_lab/boot.js", "attention_lab/site/index.html",
                       "attention_lab/site/attention-lab.wasm", "attention_lab/site/THIRD_PARTY_NOTICES.md"):
            assert needed in files
        assert not any("__pycache__" in f for f in files)
        dist_info = f"attention_lab-{project_version()}.dist-info"
        metadata = wheel.read(f"{dist_info}/METADATA").decode()
        assert f"Version: {project_version()}\n" in metadata and "Requires-Dist: numpy\n" in metadata
        record = wheel.read(f"{dist_info}/RECORD").decode().splitlines()
        assert {line.split(",")[0] for line in record} == files
        for line in record:
            path, digest, size = line.split(",")
            if path.endswith("RECORD"):
                continue
            data = wheel.read(path)
            assert size == str(len(data))
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def test_the_same_sources_make_the_same_wheel(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    name = build_backend.build_wheel(str(tmp_path / "a"))
    build_backend.build_wheel(str(tmp_path / "b"))
    assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_the_sdist_builds_again(tmp_path):
    name = build_backend.build_sdist(str(tmp_path))
    with tarfile.open(tmp_path / name) as sdist:
        sdist.extractall(tmp_path / "unpacked")
    root = tmp_path / "unpacked" / name.removesuffix(".tar.gz")
    assert (root / "PKG-INFO").is_file()
    built = subprocess.run([sys.executable, "build_backend.py", str(tmp_path / "wheel")], cwd=root, check=True,
                           capture_output=True, text=True).stdout.strip()
    with zipfile.ZipFile(built) as wheel:
        assert "attention_lab/site/attention-lab.wasm" in wheel.namelist()
