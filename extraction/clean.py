"""Clean a chosen article subtree: drop furniture, keep the story's own structure.

Shared by every method. Works in place on the element it is given and keeps headings,
lists, quotes, code, tables and figures with captions unless they look like furniture.
"""
from __future__ import annotations

import re

from lxml import etree

from .blocks import PARAGRAPH_CHARS, string_value, text_blocks
from .cues import furniture_strength
from .tags import CELL_TAGS, FORM_TAGS, HEADING_TAGS, INLINE_TAGS, INVISIBLE_TAGS

# Lines of links that stay: a document's section headings, a table's cells.
_KEPT_LINE_TAGS = frozenset((*HEADING_TAGS, *CELL_TAGS))
# Lines that are no labels, however short: a table's cells, a line of code.
_LINE_TAGS_WITHOUT_LABELS = frozenset((*CELL_TAGS, "pre"))
# This many linked lines side by side make a list of links, not part of the story.
LINK_RUN = 3
_WORDS = re.compile(r"\w+")
# A form holding at least this share of the article's text wraps the page, not a comment box.
PAGE_FORM_SHARE = 0.5


# Form tags that are not also invisible tags.
_VISIBLE_FORM_TAGS = tuple(tag for tag in FORM_TAGS if tag not in INVISIBLE_TAGS)


def clean_article(node, title: str = "", blocks: dict | None = None) -> None:
    """``blocks``: the subtree's text blocks (``blocks.text_blocks``), when the method has them
    from a page already rid of invisible and hidden elements. They are read again when
    form elements are still there to go, since those take text with them."""
    if blocks is None or next(node.iterdescendants(*_VISIBLE_FORM_TAGS), None) is not None:
        _unwrap_page_forms(node)
        _drop_form_headings(node)
        etree.strip_elements(node, *INVISIBLE_TAGS, *FORM_TAGS, with_tail=False)
        drop_hidden(node)
        blocks = text_blocks(node)
    labels = _labels(blocks)
    blocks = _drop_furniture(node, blocks)
    _drop_linked_tail(node, blocks)
    _drop_link_lists(blocks)
    _drop_linked_item_lists(node, blocks)
    _drop_orphaned_labels(node, labels)
    if title:
        _drop_title_heading(node, title)


# How a sentence ends; a label ("Related articles", "Read more:") does not end so.
_SENTENCE_END = tuple(".!?…。！？\"'”»)")


def _labels(blocks: dict) -> list:
    """Labels (see ``_is_label``), each with the element that follows it, what it may
    introduce, and whether that element holds text."""
    return [(el, after, bool(string_value(after).strip())) for el, block in blocks.items()
            if block.chars < PARAGRAPH_CHARS and (after := el.getnext()) is not None and _is_label(el, block)]


def _drop_orphaned_labels(node, labels: list) -> None:
    """A label whose following element cleaning removed, and that now ends its box, went
    with what it introduced ("Weitere Informationen", "Veja também:" before a list of
    links; a teaser's linked headline before its summary): a heading left with nothing
    under it is no part of the story. A label is a short heading, or a short unlinked
    line that does not end like a sentence: a story's last short sentence stays."""
    for el, after, had_text in labels:
        if el is not node and not (el.tail and el.tail.strip()) and _reaches(el, node) and _is_leaf_block(el) \
                and _introduced_gone(el, after, had_text, node):
            _remove(el)


def _introduced_gone(el, after, had_text: bool, node) -> bool:
    """Whether what ``el`` introduced is gone and ``el`` ends its box: ``after`` was removed,
    or nothing with text follows it: cleaning took the text ``after`` had (a share bar's
    links, a rail's teasers, in a box no name marked), or it never had any and is no
    picture (a share bar that scripts fill). A heading over a picture stays, and so do a
    table's cells and a line of code, whatever follows them."""
    if el.getnext() is None:
        return not _reaches(after, node)
    return el.tag not in _LINE_TAGS_WITHOUT_LABELS and (had_text or next(after.iter("img", "picture"), None) is None) \
        and not any(string_value(sibling).strip() for sibling in el.itersiblings())


def _is_label(el, block) -> bool:
    return el.tag in HEADING_TAGS or not (block.link_chars or string_value(el).rstrip().endswith(_SENTENCE_END))


def _unwrap_page_forms(node) -> None:
    """A form that holds paragraphs of text and most of the article's is a page wrapped in
    one (ASP.NET wraps whole pages in a form): its controls go, its text stays. A comment
    form's notices on privacy are paragraphs too, but a small part of the article."""
    forms = list(node.iter("form"))
    if not forms:
        return
    whole = len(" ".join(string_value(node).split()))
    for form in forms:
        chars = len(" ".join(string_value(form).split()))
        if chars >= 2 * PARAGRAPH_CHARS and chars >= PAGE_FORM_SHARE * whole:
            form.tag = "div"


def _drop_form_headings(node) -> None:
    """A heading right before a form is the form's title ("Leave a reply", "Sign up for our
    newsletter"), and goes with it: without class names nothing else marks it."""
    for form in list(node.iter("form")):
        heading = form.getprevious()
        if heading is not None and heading.tag in HEADING_TAGS and not (heading.tail and heading.tail.strip()):
            _remove(heading)


def _remove(el) -> None:
    """Remove an element but keep the text that follows it."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail and el.tail.strip():
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


# One pass over the attributes that can hide an element; the style test runs in Python
# because XPath string functions over every element cost more than the whole scan.
_HIDING_ATTRIBUTES = etree.XPath("descendant::*/@style | descendant::*/@hidden")
_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def drop_hidden(node) -> None:
    """Remove what a browser would not show."""
    for el in _hidden(node):
        _remove(el)


def unhide(node) -> None:
    """Show what is hidden: for a page whose whole text waits for a script to reveal it
    (``display:none`` until loaded, a ``hidden`` box, content only in ``<noscript>``)."""
    for el in _hidden(node):
        el.attrib.pop("hidden", None)
        el.attrib.pop("style", None)
    etree.strip_tags(node, "noscript")


def _hidden(node) -> list:
    return [value.getparent() for value in _HIDING_ATTRIBUTES(node)
            if value.attrname == "hidden" or _HIDING_STYLE.search(value)]


def _drop_furniture(node, blocks: dict) -> dict:
    """Remove furniture-named descendants, except those that wrap the article's largest
    clump of prose: that is the story, whatever its wrappers are called ("paywall",
    "has-sidebar"). A gallery's captions may outweigh the story, but they are not its
    paragraphs.

    Returns the blocks that remain.
    """
    in_order = [el for el in node.iterdescendants(etree.Element) if furniture_strength(el) and not _in_sentence(el)]
    if not in_order:
        return blocks
    marked = set(in_order)
    largest = _largest_clump(blocks)
    removed = marked - set(_ancestors_within(largest, node))
    if not removed or not _prose_outside(blocks, removed, node):
        # Nothing but furniture-named text: the names are wrong (a story in a
        # "gallery" box), and a page shown with its furniture beats no page.
        return blocks
    removed -= _story_runs(marked, blocks, largest)
    # In page order: a removed element's text moves onto the element before it, which may
    # go next, and a set's order (memory addresses) would make the output differ run to run.
    for el in in_order:
        if el in removed and el.getparent() is not None:
            _remove(el)
    # A block that was removed, or sits in a removed element, no longer reaches ``node``.
    return {el: block for el, block in blocks.items() if _reaches(el, node)}


def _story_runs(marked: set, blocks: dict, largest) -> set:
    """The largest clump's biggest block, and the named inline elements that hold half of its
    text. A story written as bare text between ``<br>`` tags is its box's own text, often
    inside one ``<span>`` or ``<font>``: then that box, or that element, is the story, as the
    wrappers of its paragraphs would be, whatever its name says ("paywall", "meta_field")."""
    members = [(block.chars - block.link_chars, el) for el, block in blocks.items() if el.getparent() is largest]
    if not members:
        return set()
    story = max(members, key=lambda m: m[0])[1]
    half = blocks[story].chars / 2
    return {story} | {el for el in story.iterdescendants(*INLINE_TAGS)
                      if el in marked and len(string_value(el).encode()) >= half}


def _in_sentence(el) -> bool:
    """Whether ``el`` is a word or two inside a sentence that goes on after it: a
    dateline ("<span class='dateline'>KOBE</span> – A total of..."), a date in a
    sentence. Removing it would break the sentence; a box of furniture is no such."""
    return el.tag in INLINE_TAGS and bool(el.tail and el.tail.strip())


def _prose_outside(blocks: dict, removed: set, node) -> bool:
    """Whether a block of prose (more unlinked than linked text) lies outside ``removed``."""
    for el, block in blocks.items():
        if block.link_chars * 2 < block.chars and not any(a in removed for a in _ancestors_within(el, node)):
            return True
    return False


def _reaches(el, node) -> bool:
    """Whether ``node`` is ``el`` or one of its ancestors."""
    while el is not None:
        if el is node:
            return True
        el = el.getparent()
    return False


def _largest_clump(blocks: dict):
    """The element whose child blocks hold the most prose."""
    pooled: dict = {}
    for el, block in blocks.items():
        parent = el.getparent()
        if parent is not None and block.link_chars * 2 <= block.chars:
            pooled[parent] = pooled.get(parent, 0) + block.chars - block.link_chars
    return max(pooled, key=pooled.__getitem__, default=None)


def _ancestors_within(el, node):
    """``el`` and its ancestors below ``node``."""
    while el is not None and el is not node:
        yield el
        el = el.getparent()


def _drop_link_lists(blocks: dict) -> None:
    """Runs of blocks that are mostly link text: related-story lists, tag clouds, share
    bars. A lone linked line among paragraphs ("Learn more about X") is the story's."""
    linked_by_parent: dict = {}
    blocks_by_parent: dict = {}
    for el, block in blocks.items():
        parent = el.getparent()
        if parent is None:
            continue
        blocks_by_parent[parent] = blocks_by_parent.get(parent, 0) + 1
        if block.link_chars * 2 > block.chars and el.tag not in HEADING_TAGS and _is_leaf_block(el):
            linked_by_parent.setdefault(parent, []).append(el)
    for parent, linked in linked_by_parent.items():
        if len(linked) >= LINK_RUN and len(linked) * 2 >= blocks_by_parent[parent]:
            for el in linked:
                _remove(el)
            # A list emptied of its link items goes too.
            if parent.tag in ("ul", "ol") and not string_value(parent).strip():
                _remove(parent)


def _drop_linked_tail(node, blocks: dict) -> None:
    """Lines of links with no words of their own, anywhere; lines mostly of links whose
    own words are a label ("Read also: <a>headline</a>"), anywhere; and lines mostly of
    links after the story's last paragraph: teaser headlines, "back to the list", the
    share and print links that close a story container. A linked line among the
    paragraphs with words of its own stays ("Learn more about <a>the budget</a>"), and
    so do headings and table cells (a document's sections, a table of links)."""
    # ``blocks`` lists the blocks with words of their own in page order, then the all-link
    # ones; only the first kind is placed against the last paragraph.
    order = list(blocks)
    last = -1
    for k, el in enumerate(order):
        block = blocks[el]
        if block.chars >= PARAGRAPH_CHARS and block.link_chars * 2 < block.chars and el.tag not in HEADING_TAGS:
            last = k
    if last < 0:
        return
    for k, el in enumerate(order):
        block = blocks[el]
        if (block.link_chars == block.chars or (block.link_chars * 2 > block.chars and (k > last or _labelled(el)))) \
                and el is not node and el.tag not in _KEPT_LINE_TAGS and _is_leaf_block(el) and _stands_alone(el):
            _remove(el)


_UNLINKED = etree.XPath("descendant-or-self::text()[not(ancestor::a)]")


def _labelled(el) -> bool:
    """Its own words are a label for the link that follows: "Read also: <a>...</a>"."""
    return "".join(_UNLINKED(el)).strip().endswith(":")


def _stands_alone(el) -> bool:
    """No text of the same line before or after it: not an unknown tag inside a sentence."""
    if el.tail and el.tail.strip():
        return False
    prev = el.getprevious()
    before = prev.tail if prev is not None else el.getparent().text
    return not (before and before.strip())


def _drop_linked_item_lists(node, blocks: dict) -> None:
    """Lists of three or more items that are each mostly link text: teaser streams
    ("What to read next": a linked headline and its source per item) whose links sit in
    headings or nested boxes, where the runs above, one parent's lines, do not see them."""
    for found in list(node.iter("ul", "ol")):
        items = [child for child in found if child.tag == "li"]
        if len(items) >= LINK_RUN and all(_mostly_links(item, blocks) for item in items):
            _remove(found)


def _mostly_links(el, blocks: dict) -> bool:
    chars = links = 0
    for inner in el.iter():
        block = blocks.get(inner)
        if block is not None:
            chars += block.chars
            links += block.link_chars
    return links * 2 > chars


def _is_leaf_block(el) -> bool:
    """No blocks nested inside: removing it cannot take paragraphs along."""
    return all(not isinstance(child.tag, str) or child.tag in INLINE_TAGS for child in el)


def _drop_title_heading(node, title: str) -> None:
    wanted = _WORDS.findall(title.lower())
    for el in node.iter(*HEADING_TAGS[:2]):
        words = _WORDS.findall(string_value(el).lower())
        if words and (words == wanted or (len(words) >= 3 and _is_sub(words, wanted))):
            _remove(el)
            return


def _is_sub(words: list[str], title: list[str]) -> bool:
    """The heading is the title minus a site-name suffix or prefix."""
    n = len(words)
    return any(title[i:i + n] == words for i in range(len(title) - n + 1))
