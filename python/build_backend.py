"""A PEP 517 build backend for attention_lab, on the standard library alone: a wheel is a
zip of the package and its metadata (the binary distribution format's spec), and this
package is pure Python with data files, so nothing more is needed and nothing is downloaded.

    python3 build_backend.py DIR    writes the wheel into DIR (scripts/package.sh)
"""

import base64
import hashlib
import io
import os
import sys
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "attention_lab"
NAME = "attention_lab"
# Fixed dates keep the same sources' archives identical.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _version():
    path = PACKAGE / "site" / "VERSION"
    if not path.is_file():
        sys.exit("attention_lab: attention_lab/site is missing: run scripts/build.sh web first, which copies the "
                 "built page into the package")
    return path.read_text(encoding="ascii").strip()


def _metadata():
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    return (f"Metadata-Version: 2.1\nName: attention-lab\nVersion: {_version()}\n"
            "Summary: softmax(QKᵀ/√d_k)V step by step in notebooks, from NumPy arrays or a PyTorch attention "
            "layer, offline\n"
            "License: MIT\nRequires-Python: >=3.9\nRequires-Dist: numpy\nProvides-Extra: torch\n"
            "Requires-Dist: torch; extra == \"torch\"\n"
            f"Description-Content-Type: text/markdown\n\n{readme}")


def _files():
    """The package's files, sorted: sources, boot.js, and the site copied in by the build."""
    return sorted(p for p in PACKAGE.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}\n"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    dist_info = f"{NAME}-{version}.dist-info"
    entries = [(p.relative_to(HERE).as_posix(), p.read_bytes()) for p in _files()]
    entries += [(f"{dist_info}/METADATA", _metadata().encode("utf-8")),
                (f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: attention_lab build_backend\n"
                                        b"Root-Is-Purelib: true\nTag: py3-none-any\n")]
    record = "".join(_record_line(n, d) for n, d in entries) + f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode("utf-8")))
    name = f"{NAME}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for entry, data in entries:
            info = zipfile.ZipInfo(entry, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data)
    return name


def build_sdist(sdist_directory, config_settings=None):
    version = _version()
    root = f"{NAME}-{version}"
    name = f"{root}.tar.gz"
    sources = [HERE / "pyproject.toml", HERE / "build_backend.py", HERE / "README.md"] + _files()
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        def add(entry, data):
            info = tarfile.TarInfo(f"{root}/{entry}")
            info.size, info.mode = len(data), 0o644
            sdist.addfile(info, io.BytesIO(data))
        for path in sources:
            add(path.relative_to(HERE).as_posix(), path.read_bytes())
        add("PKG-INFO", _metadata().encode("utf-8"))
    return name


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 build_backend.py WHEEL_DIRECTORY")
    os.makedirs(sys.argv[1], exist_ok=True)
    print(Path(sys.argv[1]) / build_wheel(sys.argv[1]))
