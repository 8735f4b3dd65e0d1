"""The lesson's two pages from one source (scripts/lesson_pages.py, web/lesson/): every figure
of both pages carries exactly the attributes figures.html gives it, with its own language's
title; and a chapter file that writes a figure's attributes itself, names a figure that does
not exist or leaves one out stops the build with a sentence naming the file and the line."""
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCE = os.path.join(ROOT, "web", "lesson")
SCRIPT = os.path.join(ROOT, "scripts", "lesson_pages.py")


class Tags(HTMLParser):
    """Every start tag of a page as (tag, {attribute: value})."""

    def __init__(self, path):
        super().__init__()
        self.tags = []
        with open(path, encoding="utf-8") as f:
            self.feed(f.read())

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def figures(path):
    return [attrs for tag, attrs in Tags(path).tags if tag == "attention-lab"]


def generate(source, out):
    return subprocess.run([sys.executable, SCRIPT, source, str(out)], capture_output=True, text=True)


def test_both_pages_carry_each_figure_as_written_once(tmp_path):
    result = generate(SOURCE, tmp_path)
    assert result.returncode == 0, result.stderr
    written = {f["id"]: f for f in figures(os.path.join(SOURCE, "figures.html"))}
    assert len(written) >= 20
    pages = {name: figures(tmp_path / name) for name in ("lesson.html", "leccion.html")}
    for name, page in pages.items():
        assert [f["id"] for f in page] == list(written), f"{name}: every figure, in figures.html's order"
        for figure in page:
            title = figure.pop("title")
            assert title.strip(), f"{name}: {figure['id']} has a title"
            assert figure == written[figure["id"]], f"{name}: {figure['id']} as figures.html writes it"
    english = {f["id"]: f for f in figures(tmp_path / "lesson.html")}
    spanish = {f["id"]: f for f in figures(tmp_path / "leccion.html")}
    assert sum(english[i]["title"] != spanish[i]["title"] for i in english) == len(english), "every title translated"
    langs = [attrs.get("lang") for tag, attrs in Tags(tmp_path / "leccion.html").tags if tag == "html"]
    assert langs == ["es"]


def broken_copy(tmp_path, name, change):
    source = tmp_path / "lesson"
    shutil.copytree(SOURCE, source)
    path = source / name
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    return source


def line_of(text, pattern):
    return text[: re.search(pattern, text).start()].count("\n") + 1


@pytest.mark.parametrize(
    "name, change, says",
    [
        ("es.html", lambda t: t.replace('<attention-lab id="fig-softmax"', '<attention-lab id="fig-softmax" preset="random"', 1),
         r"es\.html, line {line}: figure fig-softmax sets preset"),
        ("en.html", lambda t: t.replace('<attention-lab id="fig-softmax"', '<attention-lab id="fig-softmaxx"', 1),
         r"en\.html, line {line}: figures\.html has no figure with id fig-softmaxx"),
        ("es.html", lambda t: re.sub(r'<attention-lab id="fig-output"[^>]*></attention-lab>', "", t, count=1),
         r"es\.html: the chapters leave out fig-output"),
        ("en.json", lambda t: t.replace('"open_lab"', '"open_the_lab"'),
         r'en\.json: no string "open_lab", which page\.html uses'),
    ],
)
def test_a_broken_source_stops_with_a_sentence(tmp_path, name, change, says):
    source = broken_copy(tmp_path, name, change)
    text = (source / name).read_text(encoding="utf-8")
    line = line_of(text, r"<attention-lab id=\"fig-softmax") if "{line}" in says else 0
    result = generate(source, tmp_path / "out")
    assert result.returncode == 1
    assert re.search(says.format(line=line), result.stderr), result.stderr
    assert not (tmp_path / "out" / "lesson.html").exists(), "nothing written"
