"""Boilerplate and content cues: what a class, id, role or tag name says about an element.

The word lists are generic web vocabulary (navigation, sharing, advertising, comments),
not tuned to particular sites. Names are split into words at dashes,
underscores and spaces, so ``ad`` matches ``ad-slot`` but not ``header`` or ``shadow``.
"""
from __future__ import annotations

import re
from functools import lru_cache

# Furniture for sure: these never wrap a story.
STRONG_TAGS = frozenset(("nav", "aside", "footer", "menu", "dialog"))
_STRONG_WORDS = frozenset("""
    modal popup overlay cookie cookies consent gdpr
    comment comments disqus respond replies discussion
    kommentar kommentare comentario comentarios commentaire commentaires commento commenti komentarze reacties
    newsletter subscribe subscription signup sign-up login register
    breadcrumb breadcrumbs pagination pager skiplink
    share sharing sharebar socials
    related recommended recommendations popular trending mostread most-read readmore
    mostviewed most-viewed mostpopular most-popular mostshared mostcommented
    visually-hidden sr-only screen-reader-text
    caption credit credits photo-credit image-credit copyright dateline timestamp date pubdate published updated
""".split())
# Usually furniture, but also seen on page-wide wrappers ("page-ad-margins",
# "has-sidebar"), so callers weigh them against how much of the page they hold.
WEAK_TAGS = frozenset(("form",))
_WEAK_WORDS = frozenset("""
    ad ads adv advert advertisement advertising adslot adunit banner sponsor sponsored promo promoted
    outbrain taboola dfp gpt
    nav navbar navigation menu skip
    footer masthead sidebar widget rail aside toolbar lightbox gallery slideshow carousel legend legends
    settings controls
    social facebook twitter whatsapp pinterest linkedin email
    tags tagcloud tag-list topics keywords paywall
    byline author-bio bio about-author meta postmeta entry-meta post-meta
    authorbox author-box author-info authorinfo about-the-author author-details
""".split())

# Words that name a story container; they overrule a furniture word in the same name.
_STORY_WORDS = frozenset("""
    article articlebody article-body story storybody story-body entry-content post-body postbody
    maincontent main-content richtext prose
""".split())

# Words that name a story's lead (standfirst): the summary printed above its body, often
# in a box of its own beside the body's container.
_LEAD_WORDS = frozenset("""
    lead standfirst perex dek deck intro summary excerpt subtitle subheadline description
    chapo teaser
""".split())

# A box that names one of these describes it, not the story, whatever else its name says:
# an author's bio ("author-description"), an image's caption ("img_description",
# "article-image"), the page's meta text.
_DESCRIBED_WORDS = frozenset("""
    author bio img image images photo picture media figure video meta
""".split())

# Generic nouns that name a box by what it holds; glued to a furniture word they make
# one word ("relatedposts", "commentlist", "sharebuttons", camelCase lower-cased), which
# the split at separators does not take apart.
_BOX_NOUNS = ("posts", "articles", "stories", "links", "list", "box", "buttons", "area", "section",
              "container", "wrapper", "block", "items", "widget", "bar")

# A furniture word glued to a box noun, as a whole word of a name.
_COMPOUND = re.compile(r"(?<![^\s_\-:./()])(%s)(?:%s)(?![^\s_\-:./()])"
                       % ("|".join(map(re.escape, _STRONG_WORDS | _WEAK_WORDS)), "|".join(_BOX_NOUNS)))

# Ids with more words than this are slugs of headings, not component names.
SLUG_WORDS = 3
_SPLIT = re.compile(r"[\s_\-:./()]+")


def _words(class_name: str | None, element_id: str | None, role: str | None) -> frozenset[str]:
    """Lower-case words of an element's class, id and role.

    An id of many words is a slug made from a heading ("sharing-with-a-single-developer"),
    which says what the section is about, not what kind of box it is, so it is skipped.
    """
    if element_id and len(_SPLIT.split(element_id)) > SLUG_WORDS:
        element_id = None
    raw = " ".join(filter(None, (class_name, element_id, role)))
    raw = raw.lower()
    words = {w for w in _SPLIT.split(raw) if w}
    # Also keep whole class tokens, so "article-body" matches as one word, and the
    # furniture word at the front of a compound: "related" of "relatedposts".
    words.update(raw.split())
    words.update(_COMPOUND.findall(raw))
    return frozenset(words)


NOT_FURNITURE, WEAK, STRONG = 0, 1, 2
_CUE_ATTRIBUTES = frozenset(("aria-hidden", "class", "id", "role"))


def furniture_strength(el) -> int:
    """How surely the tag or name marks page furniture rather than story."""
    tag = el.tag
    if tag in STRONG_TAGS:
        return STRONG
    # Most story elements carry none of the four attributes read below (a plain <p>, an
    # <a href>); listing the names is cheaper than asking for each of the four.
    if tag not in WEAK_TAGS and _CUE_ATTRIBUTES.isdisjoint(el.keys()):
        return NOT_FURNITURE
    get = el.get
    if get("aria-hidden") == "true":
        return STRONG
    if tag == "blockquote":
        # Embedded posts ("twitter-tweet", "instagram-media") are quoted story material.
        return NOT_FURNITURE
    strength = _name_strength(get("class"), get("id"), get("role"), tag in WEAK_TAGS)
    if strength == _WEAK_UNLESS_QUOTE:
        # A "social-media-embed" or "article-widget" box around a quoted post holds
        # story material.
        return WEAK if next(el.iterdescendants("blockquote"), None) is None else NOT_FURNITURE
    return strength


# A weak name, unless the element holds a quoted post.
_WEAK_UNLESS_QUOTE = -1


@lru_cache(maxsize=8192)
def _name_strength(class_name: str | None, element_id: str | None, role: str | None, weak_tag: bool) -> int:
    """What the names say. Pages repeat the same names many times, hence the cache."""
    words = _words(class_name, element_id, role)
    if not words.isdisjoint(_STRONG_WORDS):
        # "article-overlay", "body_overlay": a story container with a state class.
        return WEAK if not words.isdisjoint(_STORY_WORDS) else STRONG
    if weak_tag or not words.isdisjoint(_WEAK_WORDS):
        return _WEAK_UNLESS_QUOTE
    return NOT_FURNITURE


def lead_named(el) -> bool:
    """Whether the class or id names the story's lead paragraph."""
    words = _words(el.get("class"), el.get("id"), None)
    return not _LEAD_WORDS.isdisjoint(words) and _DESCRIBED_WORDS.isdisjoint(words)


def describes_other(el) -> bool:
    """Whether the class or id names a box that describes something beside the story:
    an author, a picture, the page."""
    return not _DESCRIBED_WORDS.isdisjoint(_words(el.get("class"), el.get("id"), None))
