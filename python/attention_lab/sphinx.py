"""Attention Lab figures in Sphinx and Jupyter Book pages (docs/HOSTING.md, "Sphinx"):

    extensions = ["attention_lab.sphinx"]          # conf.py
    # Jupyter Book's _config.yml:  sphinx: {extra_extensions: [attention_lab.sphinx]}

    .. attention-lab::
       :preset: causal-3x2
       :step: softmax
       :title: Causal masking, row by row

Every option is an attribute of the <attention-lab> element (docs/embed.md: the lab's state
keys, height, theme, lang, ui, figure, title). HTML pages get the element, and embed.js once
each, addressed relative to the page; the lab's files (this package's site folder) are copied
to _static/attention-lab/. Builders that cannot run a figure (LaTeX, EPUB, text, man…) get its
title and its link instead: to `attention_lab_url` (conf.py, the address of a hosted copy,
e.g. "https://USER.github.io/REPO/attention-lab/") when set, else to the copy beside the HTML.
"""

import importlib.resources
import re
import shutil
import urllib.parse

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

SITE_FOLDER = "attention-lab"  # under _static/
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


class _AnyOption(dict):
    """The directive's options: any attribute name the element takes (the lab's state keys are
    its own to check, as for the element's attributes); names that cannot be one are not options."""

    def __bool__(self):
        return True  # docutils reads a directive's options only when its spec is truthy

    def __missing__(self, name):
        if not _NAME.match(name):
            raise KeyError(name)
        return directives.unchanged_required


class attention_lab(nodes.General, nodes.Element):
    """One figure: its attributes in node["attributes"], in the order written."""


def _fragment(attributes):
    # As embed.js writes a figure's link (commas kept, for lists of values).
    quote = lambda text: urllib.parse.quote(str(text), safe="-_.!~*'(),")
    return "&".join(quote(k) + "=" + quote(v) for k, v in attributes.items()
                    if k not in ("height", "title"))


class AttentionLabDirective(SphinxDirective):
    has_content = False
    option_spec = _AnyOption()

    def run(self):
        node = attention_lab()
        node["attributes"] = dict(self.options)
        if "height" in self.options and not re.fullmatch(r"\d+", self.options["height"]):
            raise self.error('attention-lab: option "height" must be a number of CSS pixels, not %r'
                             % self.options["height"])
        self.env.metadata[self.env.docname]["attention_lab"] = True
        return [node]


def _visit_html(self, node):
    attributes = "".join(' %s="%s"' % (k, self.encode(v)) for k, v in node["attributes"].items())
    self.body.append("<attention-lab%s></attention-lab>\n" % attributes)
    raise nodes.SkipNode


def _page_link(app, docname, node):
    base = app.config.attention_lab_url
    if base:
        return base.rstrip("/") + "/index.html#" + _fragment(node["attributes"])
    return None


def _replace_for_paper(app, doctree, docname):
    """LaTeX, EPUB, text…: the figure's title and link, where HTML has the live figure."""
    live = app.builder.format == "html" and not app.builder.name.startswith("epub")
    for node in list(doctree.findall(attention_lab)):
        if live:
            continue
        title = node["attributes"].get("title", "Attention Lab figure")
        paragraph = nodes.paragraph()
        paragraph += nodes.emphasis(text=title)
        link = _page_link(app, docname, node)
        if link:
            paragraph += nodes.Text(": ")
            paragraph += nodes.reference(link, link, refuri=link)
        else:
            paragraph += nodes.Text(" (an interactive figure: see the HTML edition)")
        node.replace_self(paragraph)


def _add_script(app, pagename, templatename, context, doctree):
    if doctree is not None and any(True for _ in doctree.findall(attention_lab)):
        app.add_js_file(SITE_FOLDER + "/embed.js")


def _copy_site(app, exception):
    if exception or app.builder.format != "html" or app.builder.name.startswith("epub"):
        return
    if not any(meta.get("attention_lab") for meta in app.env.metadata.values()):
        return
    site = importlib.resources.files("attention_lab") / "site"
    if not (site / "embed.js").is_file():
        raise RuntimeError("attention_lab: %s has no embed.js: build the site first "
                           "(scripts/build.sh web) or install the package from a release" % site)
    shutil.copytree(str(site), str(app.builder.outdir) + "/_static/" + SITE_FOLDER, dirs_exist_ok=True)


def setup(app):
    app.add_config_value("attention_lab_url", "", "env")
    app.add_node(attention_lab, html=(_visit_html, None))
    app.add_directive("attention-lab", AttentionLabDirective)
    app.connect("doctree-resolved", _replace_for_paper)
    app.connect("html-page-context", _add_script)
    app.connect("build-finished", _copy_site)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
