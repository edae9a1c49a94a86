"""A full story page: the article wrapped in a desk-specific layout of clutter."""
from dataclasses import dataclass
from html import escape

from . import clutter
from .article_html import article_blocks, headline
from .page_shell import page


@dataclass(frozen=True)
class Layout:
    """Class names and placement choices that differ between desks."""
    wrapper: str
    main_tag: str
    main: str
    article_tag: str
    article: str
    body: str
    header: str = "site-header"
    nav: str = "main-nav"
    crumbs: str = "breadcrumb"
    share: str = "share-bar"
    sidebar: str = "sidebar"
    ad: str = "ad-box"
    related: str = "related"
    newsletter: str = "newsletter-signup"
    comments: str = "comments"
    cookies: str = "cookie-banner"
    footer: str = "site-footer"
    share_on_top: bool = True
    sidebar_first: bool = False
    cookies_first: bool = False
    # A clutter box placed inside the article body after this many paragraphs, or None.
    inline_box: str | None = None
    inline_after: int = 2


LAYOUTS = {
    "science": Layout(wrapper="page", main_tag="main", main="content", article_tag="article",
                      article="story", body="story-body", sidebar="rail"),
    "city": Layout(wrapper="wrapper cols", main_tag="div", main="col-main", article_tag="div",
                   article="post", body="post-content", header="top-bar", nav="menu", crumbs="trail",
                   share="social-links", sidebar="col-side", ad="promo", related="more-on-this",
                   share_on_top=False, inline_box="related"),
    "sports": Layout(wrapper="sp-layout", main_tag="section", main="sp-main", article_tag="div",
                     article="sp-article", body="sp-text", header="sp-masthead", sidebar="sp-aside",
                     ad="sp-sponsor", comments="sp-talk", cookies="consent", sidebar_first=True,
                     cookies_first=True, inline_box="newsletter", inline_after=3),
    "business": Layout(wrapper="grid", main_tag="div", main="grid__cell grid__cell--main",
                       article_tag="article", article="entry", body="entry-content", nav="nav-primary",
                       share="entry-share", sidebar="grid__cell widget-area", ad="widget widget-ad",
                       related="widget-related", newsletter="widget-subscribe", footer="colophon",
                       share_on_top=False, inline_box="share"),
}


def render_story_page(story, stories, base):
    """Return the HTML (str) of one story's page; `stories` supplies the linked ones."""
    layout = LAYOUTS[story["desk"]]
    url = f"{base}/stories/{story['slug']}.html"
    same_desk = [s for s in stories if s["desk"] == story["desk"] and s is not story]
    elsewhere = [s for s in stories if s["desk"] != story["desk"]]
    boxes = {
        "related": lambda: clutter.related(layout, base, same_desk),
        "newsletter": lambda: clutter.newsletter(layout, base),
        "share": lambda: clutter.share_bar(layout, url),
    }
    inline = boxes[layout.inline_box]() if layout.inline_box else ""
    after = "".join(boxes[name]() for name in ("related", "newsletter") if name != layout.inline_box)
    main = (
        f'<{layout.main_tag} class="{layout.main}">'
        f"{_article(layout, story, base, url, inline)}{after}{clutter.comments(layout, url)}"
        f"</{layout.main_tag}>"
    )
    side = clutter.sidebar(layout, base, elsewhere)
    cookies = clutter.cookie_banner(layout, base)
    body = (
        (cookies if layout.cookies_first else "")
        + clutter.site_header(layout, base)
        + f'<div class="{layout.wrapper}">{clutter.breadcrumb(layout, base, story)}'
        + (side + main if layout.sidebar_first else main + side)
        + "</div>"
        + clutter.site_footer(layout, base)
        + ("" if layout.cookies_first else cookies)
    )
    title = f"{story['title']} | The Marrowgate Courier"
    return page(title, base, body, description=story["teaser"], canonical=url)


def _article(layout, story, base, url, inline):
    blocks = article_blocks(story, base)
    if inline:
        blocks.insert(_after_paragraph(story["body"], layout.inline_after), inline)
    share = clutter.share_bar(layout, url) if layout.inline_box != "share" else ""
    top, bottom = (share, "") if layout.share_on_top else ("", share)
    return (
        f'<{layout.article_tag} class="{layout.article}">{headline(story)}{top}'
        f'<div class="{layout.body}">{"".join(blocks)}</div>{bottom}'
        f'<p class="tags">Topics: {", ".join(escape(t) for t in story["tags"])}</p>'
        f"</{layout.article_tag}>"
    )


def _after_paragraph(body, count):
    """The block index just past the count-th paragraph (or the end of a shorter body)."""
    seen = 0
    for index, block in enumerate(body):
        seen += isinstance(block, str)
        if seen == count:
            return index + 1
    return len(body)
