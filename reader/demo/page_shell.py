"""The HTML document around every page: head, feed discovery links and a little CSS."""
from html import escape

from .catalog import DESKS
from .feed_documents import feed_mime, feed_url

STYLE = """
body{font-family:Georgia,serif;margin:0;color:#222;background:#fafaf7}
header,footer{background:#1d2b3a;color:#eee;padding:.6em 1em}header a,footer a{color:#eee}
nav ul,footer ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.8em}
main,.col-main,.sp-main,.grid__cell--main,.home{max-width:44em;margin:1em auto;padding:0 1em}
aside,.col-side,.sp-aside,.widget-area{max-width:44em;margin:1em auto;padding:0 1em;font-size:.9em}
[role=dialog]{position:fixed;bottom:0;left:0;right:0;background:#333;color:#fff;padding:.6em}
figure img{background:#ccd;max-width:100%;height:auto}table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2em .5em}
"""


def page(title, base, body, description="", canonical=""):
    """Return a complete HTML document (str) with `body` inside <body>."""
    alternates = "".join(
        f'<link rel="alternate" type="{feed_mime(slug)}" title="{escape(name)}" href="{feed_url(base, slug)}">'
        for slug, name in DESKS
    )
    meta = f'<meta name="description" content="{escape(description)}">' if description else ""
    canon = f'<link rel="canonical" href="{escape(canonical)}">' if canonical else ""
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>{meta}{canon}{alternates}<style>{STYLE}</style></head>"
        f"<body>{body}</body></html>"
    )
