"""Boilerplate and content cues: what a class, id, role or tag name says about an element.

The word lists are generic web vocabulary (navigation, sharing, advertising, comments),
not tuned to particular sites. Names are split into words at case changes, dashes,
underscores and spaces, so ``ad`` matches ``ad-slot`` but not ``header`` or ``shadow``.
"""
from __future__ import annotations

import re

BOILERPLATE_TAGS = frozenset(("nav", "aside", "footer", "menu", "form", "dialog"))

_BOILERPLATE_WORDS = frozenset("""
    ad ads adv advert advertisement advertising adslot adunit banner sponsor sponsored promo promoted
    outbrain taboola dfp gpt
    nav navbar navigation menu breadcrumb breadcrumbs pagination pager skip skiplink
    footer masthead sidebar widget rail aside
    share sharing social sharebar socials facebook twitter whatsapp pinterest linkedin email
    comment comments disqus respond reply replies discussion
    related recommended recommendation recommendations more popular trending mostread most-read readmore
    newsletter subscribe subscription signup sign-up login register paywall
    cookie cookies consent gdpr modal popup overlay lightbox toolbar
    tags tagcloud tag-list topics keywords
    visually-hidden sr-only screen-reader-text
    byline author-bio bio about-author
""".split())

_CONTENT_WORDS = frozenset("""
    article articlebody article-body story storybody story-body body entry entry-content post post-body
    postbody content main maincontent main-content text richtext prose
""".split())

_SPLIT = re.compile(r"[\s_\-:./]+|(?<=[a-z])(?=[A-Z])")


def name_words(el) -> set[str]:
    """Lower-case words of an element's class, id and role."""
    raw = " ".join(filter(None, (el.get("class"), el.get("id"), el.get("role"))))
    if not raw:
        return set()
    words = {w.lower() for w in _SPLIT.split(raw) if w}
    # Also keep whole class tokens, so "article-body" matches as one word.
    words.update(t.lower() for t in raw.split())
    return words


def is_boilerplate_name(el) -> bool:
    return bool(name_words(el) & _BOILERPLATE_WORDS)


def is_content_name(el) -> bool:
    return bool(name_words(el) & _CONTENT_WORDS) or el.get("itemprop") == "articleBody"


def is_boilerplate(el) -> bool:
    """Tag or name marks this element as page furniture rather than story."""
    return el.tag in BOILERPLATE_TAGS or is_boilerplate_name(el) or el.get("aria-hidden") == "true"
