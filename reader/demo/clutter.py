"""Everything on a story page that is not the story: navigation, ads, comments...

Real news pages bury the article among these, and the reader's extraction has to
find the article anyway; each piece takes the class names of a desk's layout so the
markup differs from desk to desk.
"""
import zlib
from html import escape

from .catalog import DESKS, desk_title

INFO_PAGES = ["about", "contact", "advertise", "careers", "privacy", "terms", "accessibility",
              "corrections", "newsletters", "archive", "puzzles", "weather", "podcasts", "events"]
NAV_PAGES = INFO_PAGES[7:]

# Short, generic reader comments; each page shows a few, picked by its slug.
COMMENTS = [
    ("Ruth from Northgate", "Thanks for explaining this so clearly. I had seen the headlines but not the detail."),
    ("PeterK", "Would be good to hear from the people most affected in a follow-up piece."),
    ("marlowe_77", "I have my doubts about the numbers quoted here. Where do they come from?"),
    ("Deb S.", "Finally some good news this week."),
    ("CanalStreetCyclist", "Interesting, but I suspect the real story will be in what happens next year."),
    ("Tomasz", "Shared this with my book club, we argued about it for an hour."),
    ("harbourlad", "My grandad would have had a lot to say about this one."),
    ("J. Okonkwo", "A fair and balanced article. More of this, please."),
    ("Annie B", "The photo alone was worth the click."),
    ("quietreader", "Can someone explain the second paragraph to me? I got a bit lost."),
    ("LeoM", "This is the third article on the topic this month. Is there a live page?"),
    ("Sunita", "Good to see local reporting that goes beyond the press release."),
]


def site_header(layout, base):
    desks = "".join(f'<li><a href="{base}/#{slug}">{escape(title)}</a></li>' for slug, title in DESKS)
    extra = "".join(f'<li><a href="{base}/info/{name}.html">{name.title()}</a></li>'
                    for name in NAV_PAGES)
    return (
        f'<header class="{layout.header}"><a class="logo" href="{base}/">The Marrowgate Courier</a>'
        f'<nav class="{layout.nav}" aria-label="Sections"><ul><li><a href="{base}/">Home</a></li>'
        f'{desks}{extra}</ul></nav>'
        f'<form class="search" action="{base}/" method="get"><input name="q" placeholder="Search">'
        f'<button>Go</button></form></header>'
    )


def breadcrumb(layout, base, story):
    title = desk_title(story["desk"])
    return (
        f'<nav class="{layout.crumbs}" aria-label="Breadcrumb"><a href="{base}/">Home</a> › '
        f'<a href="{base}/#{story["desk"]}">{escape(title)}</a> › <span>{escape(story["tags"][0].title())}</span></nav>'
    )


def share_bar(layout, url):
    networks = ["Email", "Copy link", "Print", "Save for later"]
    links = " · ".join(f'<a class="share-{n.split()[0].lower()}" href="{escape(url)}#share">{n}</a>'
                       for n in networks)
    return f'<div class="{layout.share}">Share this story: {links}</div>'


def sidebar(layout, base, others):
    most_read = "".join(
        f'<li><a href="{base}/stories/{s["slug"]}.html">{escape(s["title"])}</a></li>' for s in others[:5]
    )
    return (
        f'<aside class="{layout.sidebar}"><section class="most-read"><h3>Most read</h3><ol>{most_read}</ol></section>'
        f'<div class="{layout.ad}"><span class="ad-label">Advertisement</span>'
        f'<a href="{base}/info/advertise.html">Spring sale at Brightmans: up to 40% off garden furniture. '
        f'Shop now while stocks last.</a></div></aside>'
    )


def related(layout, base, stories):
    items = "".join(
        f'<li><a href="{base}/stories/{s["slug"]}.html">{escape(s["title"])}</a></li>' for s in stories[:4]
    )
    return f'<section class="{layout.related}"><h3>Related stories</h3><ul>{items}</ul></section>'


def newsletter(layout, base):
    return (
        f'<form class="{layout.newsletter}" action="{base}/info/newsletters.html" method="get">'
        f"<h3>Get the morning briefing</h3><p>The day's top stories in your inbox, every weekday at 7am.</p>"
        f'<input type="email" name="email" placeholder="Your email address"><button>Sign up</button>'
        f'<small>You can unsubscribe at any time. See our <a href="{base}/info/privacy.html">privacy notice</a>.</small>'
        f"</form>"
    )


def comments(layout, url):
    seed = zlib.crc32(url.rsplit("/", 1)[-1].encode())
    count = 2 + seed % 4
    picked = [COMMENTS[(seed // 7 + i * 5) % len(COMMENTS)] for i in range(count)]
    items = "".join(
        f'<li class="comment"><span class="commenter">{escape(name)}</span> '
        f'<span class="ago">{3 + i * 4} minutes ago</span><p>{escape(text)}</p>'
        f'<a href="{escape(url)}#reply">Reply</a> <a href="{escape(url)}#report">Report</a></li>'
        for i, (name, text) in enumerate(picked)
    )
    return f'<section class="{layout.comments}" id="comments"><h3>{count} comments</h3><ol>{items}</ol></section>'


def cookie_banner(layout, base):
    return (
        f'<div class="{layout.cookies}" role="dialog">We use cookies to remember your settings and to '
        f'measure how the site is used. <a href="{base}/info/privacy.html">Read more</a> '
        f"<button>Accept all</button> <button>Only necessary</button></div>"
    )


def site_footer(layout, base):
    links = "".join(f'<li><a href="{base}/info/{name}.html">{name.title()}</a></li>' for name in INFO_PAGES)
    desks = "".join(f'<li><a href="{base}/feeds/{slug}.xml">{escape(title)} feed</a></li>' for slug, title in DESKS)
    return (
        f'<footer class="{layout.footer}"><ul>{links}</ul><ul>{desks}<li><a href="{base}/opml">All feeds (OPML)</a></li></ul>'
        f"<p>© The Marrowgate Courier. A demonstration site: every story, person and company is invented.</p></footer>"
    )
