#!/usr/bin/env python3
"""Writes the lesson's pages (lesson.html, leccion.html) from one template and one set of
strings per language (web/lesson/, docs/embed.md's "Adding a chapter"):

  page.html      the page around the chapters, with {{name}} for each language's strings
  figures.html   every figure once: its <attention-lab> element with all its attributes but
                 its title
  <lang>.json    a language's strings for page.html, and the name of the page it becomes
  <lang>.html    a language's chapters: the text, with each figure as
                 <attention-lab id="…" title="…"></attention-lab> (its title in that language)

Each figure of a chapter file gets its attributes from figures.html, so a figure is written
once for both languages. A chapter file's figure with any attribute but id and title, an id
that figures.html does not hold, a figure of figures.html that a language leaves out, or a
string page.html names that a language lacks: each stops the build with a sentence naming the
file, the line and the problem.

    python3 scripts/lesson_pages.py web/lesson build/web
"""
import json
import os
import re
import sys
from html.parser import HTMLParser

LANGUAGES = ("en", "es")
FIGURE = "attention-lab"
OWN = ("id", "title")  # the attributes a chapter file writes; figures.html holds the rest


class LessonError(Exception):
    pass


class Figures(HTMLParser):
    """The <attention-lab> start tags of a file: (line, offset in the line, tag text, attrs)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.found = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag == FIGURE:
            line, column = self.getpos()
            self.found.append((line, column, self.get_starttag_text(), attrs))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def figure_attributes(directory):
    """figures.html as {id: [(name, value), …]} in the order written, title excluded."""
    path = os.path.join(directory, "figures.html")
    figures = {}
    for line, _, _, attrs in Figures(read(path)).found:
        names = dict(attrs)
        where = f"{path}, line {line}"
        if not names.get("id"):
            raise LessonError(f"{where}: a figure without an id")
        if names["id"] in figures:
            raise LessonError(f"{where}: a second figure with id {names['id']}")
        if "title" in names:
            raise LessonError(f"{where}: figure {names['id']} has a title: titles are each language's, in its chapters")
        figures[names["id"]] = [(n, v) for n, v in attrs if n != "id"]
    return figures


def attribute(name, value):
    return f'{name}="' + (value or "").replace("&", "&amp;").replace('"', "&quot;") + '"'


def start_tag(figure_id, title, attrs):
    parts = [attribute("id", figure_id)] + [attribute(n, v) for n, v in attrs] + [attribute("title", title)]
    return f"<{FIGURE} " + " ".join(parts) + ">"


def chapters(directory, lang, figures):
    """The language's chapter file with every figure's start tag written out whole."""
    path = os.path.join(directory, f"{lang}.html")
    text = read(path)
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    used = set()
    out, at = [], 0
    for line, column, tag_text, attrs in Figures(text).found:
        names = dict(attrs)
        where = f"{path}, line {line}"
        extra = [n for n, _ in attrs if n not in OWN]
        if extra:
            raise LessonError(f"{where}: figure {names.get('id', '?')} sets {', '.join(extra)}: "
                              "a figure's attributes are written once, in figures.html; a chapter gives only id and title")
        figure_id = names.get("id")
        if figure_id not in figures:
            raise LessonError(f"{where}: figures.html has no figure with id {figure_id}")
        if not names.get("title"):
            raise LessonError(f"{where}: figure {figure_id} has no title")
        if figure_id in used:
            raise LessonError(f"{where}: figure {figure_id} appears twice")
        used.add(figure_id)
        start = offsets[line - 1] + column
        out += [text[at:start], start_tag(figure_id, names["title"], figures[figure_id])]
        at = start + len(tag_text)
    missing = [f for f in figures if f not in used]
    if missing:
        raise LessonError(f"{path}: the chapters leave out {', '.join(missing)} of figures.html")
    return "".join(out) + text[at:]


def page(directory, lang, figures):
    strings_path = os.path.join(directory, f"{lang}.json")
    with open(strings_path, encoding="utf-8") as f:
        strings = json.load(f)
    if not isinstance(strings, dict) or not isinstance(strings.get("file"), str):
        raise LessonError(f"{strings_path}: an object with \"file\", the page's name, and page.html's strings")
    strings["chapters"] = chapters(directory, lang, figures)

    def fill(match):
        name = match.group(1)
        if name not in strings:
            raise LessonError(f"{strings_path}: no string \"{name}\", which page.html uses")
        return strings[name]

    return strings["file"], re.sub(r"\{\{(\w+)\}\}", fill, read(os.path.join(directory, "page.html")))


def main(argv):
    if len(argv) != 3:
        print("usage: lesson_pages.py SOURCE_DIR OUT_DIR", file=sys.stderr)
        return 2
    directory, out = argv[1], argv[2]
    try:
        figures = figure_attributes(directory)
        pages = [page(directory, lang, figures) for lang in LANGUAGES]
    except (LessonError, OSError, json.JSONDecodeError) as e:
        print(f"lesson_pages: {e}", file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    for name, text in pages:
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
