"""Decoding bytes: BOM, then the HTTP charset, then <meta charset>, then detection."""
import codecs

import pytest

from extraction import ExtractionError
from extraction.document import decode, parse

TEXT = "Größe café — ünïcödé"


def test_bom_wins_over_everything():
    data = codecs.BOM_UTF8 + f"<meta charset='latin-1'><p>{TEXT}</p>".encode("utf-8")
    assert TEXT in decode(data, charset="windows-1251")


def test_utf16_bom():
    assert TEXT in decode(codecs.BOM_UTF16_LE + f"<p>{TEXT}</p>".encode("utf-16-le"))


def test_http_charset_beats_meta():
    data = f"<meta charset='utf-8'><p>{TEXT}</p>".encode("latin-1", errors="replace")
    assert "Größe" in decode(data, charset="iso-8859-1")


def test_meta_charset_for_legacy_bytes():
    data = "<meta charset='windows-1251'><p>Привет мир</p>".encode("windows-1251")
    assert "Привет мир" in decode(data)


def test_valid_utf8_beats_a_stale_meta_charset():
    data = "<meta charset='gb2312'><p>谷歌人工智能</p>".encode("utf-8")
    assert "谷歌人工智能" in decode(data)


def test_undeclared_legacy_bytes_are_detected():
    text = "Le cœur a ses raisons que la raison ne connaît point. " * 20
    assert "connaît" in decode(f"<p>{text}</p>".encode("windows-1252"))


@pytest.mark.parametrize(("data", "text"), [
    ("<meta charset='windows-1251'><p>Привет мир</p>".encode("windows-1251"), "Привет мир"),
    ("<meta charset='gb2312'><p>谷歌人工智能</p>".encode("utf-8"), "谷歌人工智能"),
    (("<p>" + "Le cœur a ses raisons que la raison ne connaît point. " * 20 + "</p>").encode("windows-1252"), "connaît"),
])
def test_parse_reads_bytes_as_decode_does(data, text):
    # Non-ASCII bytes go to lxml as UTF-8 first; bytes that are not UTF-8 come back.
    assert text in parse(data).text_content()


def test_unknown_charset_names_are_ignored():
    assert TEXT in decode(f"<p>{TEXT}</p>".encode("utf-8"), charset="no-such-charset")


@pytest.mark.parametrize("data", [b"", b"   \n ", "".encode()])
def test_empty_input_is_an_error(data):
    with pytest.raises(ExtractionError, match="empty"):
        parse(data)


def test_binary_input_is_an_error():
    with pytest.raises(ExtractionError, match="binary"):
        parse(bytes(range(256)) * 50)
