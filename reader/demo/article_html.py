"""The article itself as semantic HTML: headline, byline, time and body blocks."""
from html import escape


def article_blocks(story, base):
    """The body as a list of HTML fragments, one per block, so a page can slot boxes between them."""
    return [_block(block, story, base, n) for n, block in enumerate(story["body"])]


def headline(story):
    when = story["published"]
    return (
        f'<h1>{escape(story["title"])}</h1>\n'
        f'<p class="standfirst">{escape(story["teaser"])}</p>\n'
        f'<p class="byline">By <span class="author">{escape(story["author"])}</span>'
        f' · <time datetime="{when.isoformat()}">{when.strftime("%d %B %Y, %H:%M")} UTC</time></p>'
    )


def _block(block, story, base, n):
    if isinstance(block, str):
        return f"<p>{escape(block)}</p>"
    (kind,) = set(block) & {"h2", "ul", "quote", "figure", "table"}
    return _RENDERERS[kind](block, story, base, n)


def _heading(block, story, base, n):
    return f"<h2>{escape(block['h2'])}</h2>"


def _bullets(block, story, base, n):
    items = "".join(f"<li>{escape(item)}</li>" for item in block["ul"])
    return f"<ul>{items}</ul>"


def _quote(block, story, base, n):
    cite = f"<footer>— {escape(block['cite'])}</footer>" if block.get("cite") else ""
    return f"<blockquote><p>{escape(block['quote'])}</p>{cite}</blockquote>"


def _figure(block, story, base, n):
    src = f"{base}/media/{story['slug']}-{n}.svg"
    return (
        f'<figure><img src="{src}" alt="{escape(block["figure"])}" width="640" height="360">'
        f"<figcaption>{escape(block['caption'])}</figcaption></figure>"
    )


def _table(block, story, base, n):
    table = block["table"]
    head = "".join(f"<th>{escape(cell)}</th>" for cell in table["head"])
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
        for row in table["rows"]
    )
    return (
        f"<table><caption>{escape(table['caption'])}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    )


_RENDERERS = {"h2": _heading, "ul": _bullets, "quote": _quote, "figure": _figure, "table": _table}


def block_text(block):
    """The visible text of one body block, for tests and word counts."""
    if isinstance(block, str):
        return block
    if "table" in block:
        table = block["table"]
        return " ".join([table["caption"], *table["head"], *(c for r in table["rows"] for c in r)])
    parts = [v for k, v in block.items() if isinstance(v, str)]
    return " ".join(parts + list(block.get("ul", [])))
