"""The tag tables every part of the extractor reads HTML by: which elements are inline, which
break paragraphs, which are never seen, which are headings or form controls."""
from __future__ import annotations

# Text inside these runs on with the text around it: "<p>Hello <a>world</a>!</p>" is one block.
INLINE_TAGS = frozenset("""
    a abbr acronym b bdi bdo big cite code data del dfn em font i ins kbd label mark q rp rt ruby s samp
    small span strike strong sub sup time tt u var wbr nobr
""".split())

# Elements that start a new paragraph in the text rendering.
BLOCK_TAGS = frozenset(
    "p div h1 h2 h3 h4 h5 h6 li blockquote pre tr br figcaption ul ol dl dt dd table thead tbody tfoot "
    "caption section article header footer figure hr aside main nav address details summary form "
    "fieldset center".split()
)
# Table cells: a word break in the text rendering, not a new paragraph.
CELL_TAGS = frozenset(("td", "th"))

# Code, styles and drawings: markup whose content is never prose. The comparison methods
# strip these and what their own designs add; the product strips all of INVISIBLE_TAGS.
CODE_TAGS = frozenset(("script", "style", "noscript", "template", "svg"))
# Elements whose content a reader never sees as text on the page.
INVISIBLE_TAGS = CODE_TAGS | {"head", "title", "iframe", "object", "embed", "math", "canvas", "select", "option",
                              "button", "input", "textarea"}

# Ruby annotations: readings printed above the words they gloss (Japanese furigana), not part of the sentence;
# the HTML keeps them, the text leaves them out.
ANNOTATION_TAGS = frozenset(("rt", "rp"))

HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
FORM_TAGS = ("form", "button", "input", "select", "textarea", "label", "fieldset", "dialog")
