"""whitespace: tags become spaces; dense runs of text survive as paragraphs; thresholds adapt."""
import math

from extraction import extract
from extraction.methods.whitespace import otsu

PARAGRAPH = ("Scientists at the observatory reported a bright new comet on Monday, visible to the naked "
             "eye before sunrise for the next two weeks if the weather stays clear.")


def nav(n):
    return "".join(f'<li class="menu-item"><a href="/section/{i}">S{i}</a></li>' for i in range(n))


def test_keeps_prose_and_drops_markup_heavy_navigation():
    html = f"<html><body><ul>{nav(15)}</ul><div><p>{PARAGRAPH}</p><p>{PARAGRAPH.upper()}</p></div></body></html>"
    text = extract(html, method="whitespace").text
    assert "Scientists at the observatory" in text and "SCIENTISTS" in text and "S3" not in text


def test_inline_links_do_not_split_a_paragraph():
    linked = PARAGRAPH.replace("observatory", '<a href="https://example.org/a/very/long/path/to/the/observatory">observatory</a>')
    html = f"<html><body><ul>{nav(15)}</ul><p>{linked}</p><p>{PARAGRAPH}</p></body></html>"
    assert "Scientists at the observatory reported a bright" in extract(html, method="whitespace").text


def test_otsu_splits_two_groups_and_leaves_one_group_whole():
    cut = otsu([1, 1, 2, 2, 10, 11, 12])
    assert 2 < cut < 10
    assert otsu([5, 5, 5]) == -math.inf


def test_known_failure_boilerplate_written_as_prose_is_kept():
    legal = ("This website uses cookies to improve your experience, and by continuing to browse it you "
             "agree to our use of cookies as described in the privacy policy of the publisher.")
    html = (f'<html><body><ul>{nav(15)}</ul><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p><ul>{nav(15)}</ul>'
            f'<div class="footer cookie-banner"><p>{legal}</p></div></body></html>')
    text = extract(html, method="whitespace").text
    assert "Scientists" in text and "uses cookies" in text
