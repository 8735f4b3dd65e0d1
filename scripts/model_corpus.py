#!/usr/bin/env python3
"""Builds the tiny language model's corpus (docs/model.md) from the project's own text.

The sources (docs/*.md, README.md and the lesson's prose in English and Spanish) change as
the project does, so the corpus is a snapshot: this script writes it once into data/model/,
and the snapshot is what the training reads and what the repository keeps. Run it again
only to retrain on newer text:

    python3 scripts/model_corpus.py

Markdown keeps its prose (fenced code blocks are dropped); the lesson pages keep the text of
their <main> (scripts, styles and tags dropped, entities decoded). Every paragraph becomes one
line. Every tenth paragraph is held out (corpus-heldout.txt): the model never trains on it,
and the previous-token score and the held-out loss are measured on it. sources.json records
each source file with the SHA-256 of the text it was read from.
"""
import glob
import hashlib
import html
import html.parser
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "data", "model")
HOLD_OUT_EVERY = 10
SPANISH = {"web/lesson/es.html"}  # every other source is in English


class _MainText(html.parser.HTMLParser):
    """The text inside <main> (all of a fragment that has none), one paragraph per block element;
    no scripts or styles."""

    BREAK = "\0"  # between blocks; the source's own line breaks are spaces
    BLOCKS = {"p", "h1", "h2", "h3", "h4", "li", "figcaption", "div", "section", "td", "th", "pre", "table"}

    def __init__(self, fragment):
        super().__init__(convert_charrefs=True)
        self.depth_main = 1 if fragment else 0
        self.skip = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag == "main":
            self.depth_main += 1
        if tag in ("script", "style"):
            self.skip += 1
        if tag in self.BLOCKS or tag == "br":
            self.parts.append(self.BREAK)

    def handle_endtag(self, tag):
        if tag == "main":
            self.depth_main -= 1
        if tag in ("script", "style"):
            self.skip -= 1
        if tag in self.BLOCKS:
            self.parts.append(self.BREAK)

    def handle_data(self, data):
        if self.depth_main > 0 and not self.skip:
            self.parts.append(data)


def html_paragraphs(text):
    # The lesson's sources (web/lesson/en.html, es.html) are fragments that
    # scripts/lesson_pages.py puts inside a page's <main>.
    parser = _MainText(fragment="<main" not in text)
    parser.feed(text)
    return paragraphs("".join(parser.parts).split(_MainText.BREAK))


def markdown_paragraphs(text):
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            lines.append("")
            continue
        if not fenced:
            lines.append(line)
    # A blank line ends a paragraph; so do headings, list items and table rows.
    blocks, current = [], []
    for line in lines:
        starts_block = re.match(r"\s*(#|[-*] |\d+\. |\|)", line)
        if not line.strip() or starts_block:
            if current:
                blocks.append(" ".join(current))
            current = []
        if line.strip():
            current.append(line.strip())
    if current:
        blocks.append(" ".join(current))
    return paragraphs(blocks)


def paragraphs(blocks):
    out = []
    for block in blocks:
        block = re.sub(r"\s+", " ", block).strip()
        if len(block) >= 20:  # drops stray labels, table borders and the like
            out.append(block)
    return out


def main():
    sources = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [os.path.join(ROOT, "README.md")]
    sources += [os.path.join(ROOT, "web", "lesson", "en.html"), os.path.join(ROOT, "web", "lesson", "es.html")]
    # The probe text measures the model on sentences it never read: a paragraph quoting one
    # (docs/model.md and docs/embed.md use them as examples) stays out of both files.
    with open(os.path.join(OUT, "probes.json"), encoding="utf-8") as f:
        probes = json.load(f)
    quoted = probes["sentences"] + [s for sentences in probes["held_out_sentences"].values() for s in sentences]
    train, held_out, record = [], [], []
    written = 0  # characters of corpus-train.txt so far, each paragraph's line break included
    for path in sources:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        blocks = html_paragraphs(text) if path.endswith(".html") else markdown_paragraphs(text)
        blocks = [b for b in blocks if not any(s in b for s in quoted)]
        name = os.path.relpath(path, ROOT)
        begin = written
        for block in blocks:
            if (len(train) + len(held_out)) % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1:
                held_out.append(block)
            else:
                train.append(block)
                written += len(block) + 1
        # Which characters of corpus-train.txt the source became (its paragraphs and their line
        # breaks), so that the training can draw the text it types twice from each language evenly.
        record.append({"path": name, "sha256": hashlib.sha256(text.encode()).hexdigest(), "paragraphs": len(blocks),
                       "language": "es" if name in SPANISH else "en",
                       "train_characters": [begin, written]})
    os.makedirs(OUT, exist_ok=True)
    for name, blocks in (("corpus-train.txt", train), ("corpus-heldout.txt", held_out)):
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write("\n".join(blocks) + "\n")
    with open(os.path.join(OUT, "sources.json"), "w", encoding="utf-8") as f:
        json.dump({"hold_out_every": HOLD_OUT_EVERY, "sources": record}, f, indent=1)
        f.write("\n")
    print(f"{sum(map(len, train))} characters to train on, {sum(map(len, held_out))} held out, "
          f"from {len(sources)} files")


if __name__ == "__main__":
    main()
