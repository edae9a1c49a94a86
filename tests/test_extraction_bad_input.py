"""Any bytes in: an Article or a clear ExtractionError, never a hang or another exception."""
import gzip

import pytest

from extraction import METHODS, Article, ExtractionError, extract

PARA = "<p>Residents packed the hall to hear the plan for the new harbour wall and its cost.</p>"


def outcome(data, method="clump"):
    try:
        return extract(data, method=method)
    except ExtractionError as exc:
        assert str(exc)  # the error says what went wrong
        return exc


BAD_INPUTS = {
    "empty": b"",
    "whitespace": b" \n\t ",
    "binary": bytes(range(256)) * 40,
    "gzip bytes": gzip.compress(b"<p>hello</p>" * 100),
    "truncated": (f"<html><body><div class='story'>{PARA * 20}".encode())[:-37],
    "not html": b"just a line of plain text, no markup at all",
    "json": b'{"a": [1, 2, 3], "b": "text"}',
    "broken utf-8": ("<p>caf\u00e9 " * 50).encode("utf-8")[:-1] + b"\xff\xfe<p>more",
    "nul bytes": b"<p>a\x00b</p>" * 10,
    "unclosed tags": b"<div><p><b><i>" * 500 + b"text",
    "only tags": b"<html><head></head><body><div></div></body></html>",
    # JSON nested deeper than Python's parser goes raised RecursionError while the
    # author or date was looked for in it.
    "deep json-ld": (b"<html><head><script type='application/ld+json'>" + b"[" * 100_000 + b"]" * 100_000
                     + b"</script></head><body>" + PARA.encode() * 5 + b"</body></html>"),
    # Past the parser's depth cap the page is flattened by a pass over its tags: unterminated ones
    # must not make that pass quadratic.
    "deep, then unterminated tags": b"<div>" * 3000 + PARA.encode() * 5 + b"<a" * 100_000 + b"<" + b"a" * 200_000,
    # Methods that read tags by pattern scanned from every "<" to the next ">".
    "a run of '<'": PARA.encode() * 5 + b"<" * 200_000,
    "xml declaration": b"<?xml version='1.0' encoding='utf-8'?><html><body>" + PARA.encode() * 5 + b"</body></html>",
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
@pytest.mark.parametrize("method", sorted(METHODS))
def test_bad_input_gives_article_or_clear_error(name, method):
    result = outcome(BAD_INPUTS[name], method)
    assert isinstance(result, (Article, ExtractionError))


def test_truncated_page_keeps_its_text():
    result = outcome(BAD_INPUTS["truncated"])
    assert isinstance(result, Article) and result.text.count("Residents") >= 19


@pytest.mark.timeout(120)
def test_deep_nesting():
    data = b"<div>" * 10_000 + PARA.encode() * 5 + b"</div>" * 10_000
    assert outcome(data).text.count("Residents") == 5


@pytest.mark.timeout(120)
def test_twenty_megabyte_page():
    story = "<article>" + PARA * 40 + "</article>"
    filler = "<ul>" + "<li><a href='/x'>link text here</a></li>" * 50 + "</ul>"
    data = ("<html><body>" + story + filler * (20_000_000 // len(filler)) + "</body></html>").encode()
    assert len(data) >= 20_000_000
    article = extract(data)
    assert article.text.count("Residents") == 40
