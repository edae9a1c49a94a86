"""ttr and ttr-kmeans: lines of source with much text per tag are content."""
import numpy as np

from extraction import extract
from extraction.document import parse
from extraction.methods.ttr import kmeans_content, lines, ratios, smooth

TEXT = ("The bakery on the corner has sold bread every morning since 1921, and its owners say the "
        "recipe for the rye loaf has never changed in all that time.")


def page(body_lines):
    return "<html><body>\n" + "\n".join(body_lines) + "\n</body></html>"


NAV = [f'<div class="nav"><a href="/{i}">Go {i}</a></div>' for i in range(12)]


def test_ratio_is_text_characters_per_tag():
    assert list(ratios(["<p>abcd</p>", "plain"], ["abcd", "plain"])) == [2.0, 5.0]


def test_smoothing_spreads_a_spike_to_its_neighbours():
    smoothed = smooth(np.array([0, 0, 0, 9.0, 0, 0, 0]))
    assert smoothed[3] < 9 and smoothed[2] > 0 and abs(smoothed.sum() - 9) < 1.0


def test_minified_pages_are_broken_before_block_tags():
    one_line = "<html><body>" + "".join(f"<p>{TEXT}</p>" for _ in range(5)) + "</body></html>"
    assert len(lines(parse(one_line))) >= 5


def test_std_threshold_keeps_text_lines_and_drops_navigation():
    html = page(NAV + [f"<p>{TEXT}</p>"] * 4 + NAV)
    text = extract(html, method="ttr").text
    assert "The bakery on the corner" in text and "Go 3" not in text


def test_kmeans_keeps_all_but_the_lowest_cluster():
    values = np.array([1.0, 1.2, 0.9, 20, 21, 50, 52])
    assert list(kmeans_content(values)) == [False, False, False, True, True, True, True]
    html = page(NAV + [f"<p>{TEXT}</p>"] * 4 + NAV)
    assert "The bakery" in extract(html, method="ttr-kmeans").text


def test_known_failure_a_link_rich_paragraph_of_the_article_is_dropped():
    linked = " ".join(f'<a href="/w{i}">{w}</a>' for i, w in enumerate(TEXT.split()))
    html = page(NAV + [f"<p>{TEXT}</p>"] * 4 + NAV + [f"<p>{linked.replace('bakery', 'mill')}</p>"] + NAV)
    text = extract(html, method="ttr").text
    assert "The bakery" in text and "mill" not in text
