"""python -m extraction [--method M] [--format text|json|html] [--pages N] [--allow NETWORKS] FILE|-|URL"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
import zlib

from .article import ExtractionError
from .fetch import FetchError, FetchPolicy, fetch, parse_networks
from .methods import METHODS
from .multipage import extract_pages
from .pipeline import extract


def read_source(source: str, policy: FetchPolicy) -> tuple[bytes, str | None, str | None]:
    """(page bytes, page URL, HTTP charset) from a file, stdin or a URL."""
    if source.startswith(("http://", "https://")):
        try:
            response = fetch(source, policy)
        except FetchError as exc:
            raise ExtractionError(f"cannot fetch {source}: {exc}") from exc
        return response.content, response.url, response.charset
    try:
        data = sys.stdin.buffer.read() if source == "-" else open(source, "rb").read()
    except OSError as exc:
        raise ExtractionError(f"cannot read {source}: {exc.strerror or exc}") from exc
    return (_gunzip(data, source, policy.max_bytes) if data[:2] == b"\x1f\x8b" else data), None, None


def _gunzip(data: bytes, source: str, max_bytes: int) -> bytes:
    """Read at most one byte past the fetch limit: a few KB of gzip can unpack to gigabytes."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            page = stream.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error) as exc:  # zlib.error: a damaged block inside a sound header
        raise ExtractionError(f"{source}: broken gzip data: {exc}") from exc
    if len(page) > max_bytes:
        raise ExtractionError(f"{source}: over {max_bytes} bytes once unzipped, the limit for a page")
    return page


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
    parser.add_argument("--allow", default="", metavar="NETWORKS",
                        help="comma-separated networks that may be fetched although private (e.g. 127.0.0.1/32)")
    args = parser.parse_args(argv)
    if args.pages < 0:
        parser.error("--pages must be 0 or more")
    try:
        policy = FetchPolicy(allowed_networks=parse_networks(args.allow))
    except ValueError as exc:
        parser.error(f"--allow: {exc}")
    try:
        data, url, charset = read_source(args.source, policy)
        url = url or args.url
        if args.pages and not url:
            raise ExtractionError("--pages needs the page's URL (give a URL or --url)")
        if args.pages:
            article = extract_pages(data, url, method=args.method, max_pages=args.pages, charset=charset,
                                    policy=policy)
        else:
            article = extract(data, url=url, method=args.method, charset=charset)
    except ExtractionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(render(article, args.format) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
