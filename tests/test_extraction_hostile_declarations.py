"""Pages whose declarations lie: non-text codecs named as charsets, garbled XML
declarations, unparseable base and image URLs. A browser shows these pages; so do we."""
import pytest

from extraction import extract

STORY = "<p>" + "The council approved the new footbridge after a long debate about what it would cost. " * 4 + "</p>"
NON_TEXT_CODECS = ["zlib", "hex", "base64", "rot13", "uu", "bz2", "quopri", "undefined", "idna"]


@pytest.mark.parametrize("codec", NON_TEXT_CODECS)
@pytest.mark.parametrize("accent", ["", "é"])
def test_a_non_text_codec_in_meta_is_not_a_charset(codec, accent):
    page = f"<html><head><meta charset='{codec}'></head><body>{STORY}{accent}</body></html>"
    article = extract(page.encode("latin-1"))
    assert "footbridge" in article.text


@pytest.mark.parametrize("codec", NON_TEXT_CODECS)
def test_a_non_text_codec_from_http_is_not_a_charset(codec):
    page = f"<html><body>{STORY}<p>Caf\xe9 owners welcomed it.</p></body></html>".encode("latin-1")
    article = extract(page, charset=codec)
    # Which legacy charset detection picks for so short a text is its guess; the page
    # is read all the same.
    assert "footbridge" in article.text and "owners welcomed" in article.text


@pytest.mark.parametrize("declaration", [
    "<?xml version='1.0' encoding='utf-8'>",  # no closing "?"
    '<?xml version="1.0" encoding="<%=page.charset%>"?>',  # a template tag left in
    '<?xml version="1.0" encoding="utf-8" ?">',
])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_garbled_xml_declaration_does_not_stop_the_parse(declaration, as_bytes):
    page = f"{declaration}<html><body>{STORY}<p>Caf\xe9 owners welcomed it.</p></body></html>"
    article = extract(page.encode("latin-1") if as_bytes else page)
    assert "footbridge" in article.text and "owners welcomed" in article.text


def test_an_unparseable_base_href_is_ignored():
    page = f"<html><head><base href='http://[x/'></head><body>{STORY}<p>Read the <a href='/more'>council's full report</a> on the bridge and its cost.</p></body></html>"
    article = extract(page, url="https://example.org/news/bridge")
    assert "footbridge" in article.text
    assert 'href="https://example.org/more"' in article.html


def test_an_unparseable_lead_image_is_dropped():
    page = f"<html><head><meta property='og:image' content='http://[x/'></head><body>{STORY}</body></html>"
    for url in (None, "https://example.org/news/bridge"):
        article = extract(page, url=url)
        assert article.lead_image is None and "footbridge" in article.text


@pytest.mark.parametrize("codec", ["utf-16", "utf-16le", "utf-32", "cp037"])
def test_a_meta_tag_naming_a_charset_that_is_not_ascii_compatible_is_a_mislabel(codec):
    # A <meta> readable as ASCII puts the page in an ASCII-compatible charset.
    page = (f"<html><head><meta http-equiv='Content-Type' content='text/html; charset={codec}'></head>"
            f"<body>{STORY}<p>Caf&eacute; owners welcomed it.</p></body></html>")
    article = extract(page.encode("ascii"))
    assert "footbridge" in article.text and "Caf\u00e9 owners" in article.text


@pytest.mark.parametrize("codec", ["unicode_escape", "raw_unicode_escape"])
def test_a_meta_tag_naming_a_python_escape_codec_is_a_mislabel(codec):
    # Python decodes with these, but no page is written in one: they read "C:\\new" and "\\u0041" as other text.
    page = (f"<html><head><meta charset='{codec}'></head><body>{STORY}<p>Save it to C:\\new\\u0041 before the vote "
            f"on the footbridge.</p></body></html>")
    assert "C:\\new\\u0041" in extract(page.encode("ascii")).text


@pytest.mark.parametrize("codec", ["utf-16", "utf-32", "cp037", "unicode_escape"])
def test_a_server_charset_the_pages_ascii_markup_contradicts_is_a_mislabel(codec):
    # The page's first tag reads in ASCII, so it is not in the server's charset: it was read as that codec's garble
    # (the extraction demo showed UTF-16 "text" made of CJK characters).
    page = f"<html><head><title>Bridge</title></head><body>{STORY}<p>Caf\u00e9 owners welcomed it.</p></body></html>"
    article = extract(page.encode("utf-8"), charset=codec)
    assert "footbridge" in article.text and "Caf\u00e9 owners" in article.text


def test_a_utf16_page_without_a_mark_still_follows_the_servers_charset():
    page = f"<html><head><title>Bridge</title></head><body>{STORY}</body></html>"
    assert "footbridge" in extract(page.encode("utf-16-le"), charset="utf-16-le").text
