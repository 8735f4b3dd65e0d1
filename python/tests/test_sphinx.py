"""attention_lab.sphinx, built by Debian's Sphinx as a course's book would be: HTML with the
element and embed.js once a page at the right relative path, the lab's files copied beside;
LaTeX and text with each figure's title and link instead of nothing; a bad option named."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import attention_lab

sphinx = pytest.importorskip("sphinx", reason="Sphinx is not installed: run scripts/setup.sh")
SITE = Path(attention_lab.__file__).parent / "site"
pytestmark = pytest.mark.skipif(not (SITE / "embed.js").is_file(),
                                reason="the package has no site: run scripts/build.sh web")
PACKAGE = str(Path(attention_lab.__file__).resolve().parents[1])

FIGURE = """
.. attention-lab::
   :preset: causal-3x2
   :step: softmax
   :figure: softmax,arithmetic
   :title: Causal masking, row by row
"""


def project(tmp_path, extra_conf="", page=FIGURE):
    source = tmp_path / "source"
    (source / "part").mkdir(parents=True)
    (source / "conf.py").write_text('project = "Course"\nextensions = ["attention_lab.sphinx"]\n' + extra_conf)
    (source / "index.rst").write_text("Course\n======\n\n.. toctree::\n\n   part/lesson\n\nText.\n" + FIGURE + FIGURE)
    (source / "part" / "lesson.rst").write_text("Lesson\n======\n\nA figure.\n" + page)
    return source


def build(source, builder, out):
    return subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", builder, str(source), str(out)],
                          capture_output=True, text=True, env={"PYTHONPATH": PACKAGE, "PATH": "/usr/bin:/bin"})


def test_html_has_the_element_embed_js_once_and_the_lab(tmp_path):
    out = tmp_path / "html"
    result = build(project(tmp_path), "html", out)
    assert result.returncode == 0, result.stderr
    index = (out / "index.html").read_text()
    lesson = (out / "part" / "lesson.html").read_text()
    assert len(re.findall(r'<script src="_static/attention-lab/embed\.js">', index)) == 1
    assert len(re.findall(r'<script src="\.\./_static/attention-lab/embed\.js">', lesson)) == 1
    assert index.count('<attention-lab preset="causal-3x2" step="softmax" figure="softmax,arithmetic" '
                       'title="Causal masking, row by row"></attention-lab>') == 2
    for name in ("embed.js", "index.html", "attention-lab.wasm"):
        assert (out / "_static" / "attention-lab" / name).read_bytes() == (SITE / name).read_bytes()


def test_latex_and_text_get_the_title_and_the_link(tmp_path):
    source = project(tmp_path, 'attention_lab_url = "https://example.org/lab/"\n')
    link = "https://example.org/lab/index.html#preset=causal-3x2&step=softmax&figure=softmax,arithmetic"
    assert build(source, "latex", tmp_path / "latex").returncode == 0
    tex = (tmp_path / "latex" / "course.tex").read_text()
    assert r"\sphinxstyleemphasis{Causal masking, row by row}" in tex
    assert r"\sphinxurl{" + link.replace("#", r"\#").replace("&", r"\&") + "}" in tex
    assert build(source, "text", tmp_path / "text").returncode == 0
    # The text builder wraps lines at 70 columns, inside the link too.
    assert "*Causalmasking,rowbyrow*:" + link in "".join((tmp_path / "text" / "index.txt").read_text().split())
    assert not (tmp_path / "latex" / "_static").exists()


def test_without_a_hosted_lab_paper_says_where_the_figure_is(tmp_path):
    assert build(project(tmp_path), "text", tmp_path / "text").returncode == 0
    text = " ".join((tmp_path / "text" / "index.txt").read_text().split())
    assert "*Causal masking, row by row* (an interactive figure: see the HTML edition)" in text


def test_a_bad_height_is_named(tmp_path):
    page = textwrap.dedent("""
        .. attention-lab::
           :height: tall
        """)
    result = build(project(tmp_path, page=page), "html", tmp_path / "html")
    assert 'attention-lab: option "height" must be a number of CSS pixels, not \'tall\'' in result.stderr
