"""python -m extraction [--method M] [--format text|json|html] [--pages N] FILE|-|URL"""
from __future__ import annotations

import argparse
import gzip
import json
import sys

from .article import ExtractionError
from .methods import METHODS
from .multipage import extract_pages
from .pipeline import extract


def read_source(source: str) -> tuple[bytes, str | None, str | None]:
    """(page bytes, page URL, HTTP charset) from a file, stdin or a URL."""
    if source.startswith(("http://", "https://")):
        from .fetch import FetchError, fetch

        try:
            response = fetch(source)
        except FetchError as exc:
            raise ExtractionError(f"cannot fetch {source}: {exc}") from exc
        return response.content, response.url, response.charset
    try:
        data = sys.stdin.buffer.read() if source == "-" else open(source, "rb").read()
    except OSError as exc:
        raise ExtractionError(f"cannot read {source}: {exc.strerror or exc}") from exc
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ExtractionError(f"{source}: broken gzip data: {exc}") from exc
    return data, None, None


def render(article, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(article.to_dict(), ensure_ascii=False, indent=2)
    if fmt == "html":
        return article.html
    heading = f"{article.title}\n\n" if article.title else ""
    return heading + article.text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m extraction", description="Extract the article from a web page.")
    parser.add_argument("source", help="an HTML file (may be gzipped), - for stdin, or an http(s) URL")
    parser.add_argument("--method", default="clump", choices=sorted(METHODS))
    parser.add_argument("--format", default="text", choices=("text", "json", "html"))
    parser.add_argument("--url", help="the page's address, to make links absolute (files and stdin)")
    parser.add_argument("--pages", type=int, default=0, metavar="N",
                        help="follow up to N next-page links and join the pages (needs the page's URL)")
    args = parser.parse_args(argv)
    if args.pages < 0:
        parser.error("--pages must be 0 or more")
    try:
        data, url, charset = read_source(args.source)
        url = url or args.url
        if args.pages and not url:
            raise ExtractionError("--pages needs the page's URL (give a URL or --url)")
        if args.pages:
            article = extract_pages(data, url, method=args.method, max_pages=args.pages, charset=charset)
        else:
            article = extract(data, url=url, method=args.method, charset=charset)
    except ExtractionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(render(article, args.format) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
