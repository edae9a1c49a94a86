"""extract(): the public entry point."""
import pytest

from extraction import METHODS, Article, ExtractionError, extract

PARA = "The mayor said the new library would open next year after a long public debate about its cost. "
PAGE = f"""<html lang="en"><head><title>Library | Town</title>
<meta property="og:image" content="/lead.jpg"><meta name="author" content="Sam Reporter"></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Library | Town</h1><p>{PARA}<a href="/budget">budget</a></p><p>{PARA}</p>
<figure><img src="img/plan.png" alt="plan"><figcaption>The plan</figcaption></figure>
<p onclick="steal()">{PARA}</p><script>track()</script></article></body></html>"""


def test_extract_returns_an_article_with_metadata():
    article = extract(PAGE, url="https://town.example/news/library")
    assert isinstance(article, Article)
    assert article.text.count("The mayor said") == 3
    assert "\n\n" in article.text and "Home" not in article.text
    assert article.author == "Sam Reporter" and article.language == "en" and article.method == "clump"
    assert article.lead_image == "https://town.example/lead.jpg"


def test_html_is_sanitized_with_absolute_links_and_figures():
    html = extract(PAGE, url="https://town.example/news/library").html
    assert 'href="https://town.example/budget"' in html
    assert 'src="https://town.example/news/img/plan.png"' in html
    assert "<figcaption>" in html
    assert "onclick" not in html and "<script" not in html and "track()" not in html


def test_bytes_and_str_give_the_same_article():
    assert extract(PAGE.encode("utf-8")).text == extract(PAGE).text


def test_unknown_method_is_a_clear_error():
    with pytest.raises(ExtractionError, match="unknown method"):
        extract(PAGE, method="nope")


def test_clump_is_registered():
    assert "clump" in METHODS


def test_base_element_sets_where_links_point():
    page = PAGE.replace("<head>", "<head><base href='https://cdn.example/base/'>")
    html = extract(page, url="https://town.example/news/library").html
    assert 'src="https://cdn.example/base/img/plan.png"' in html
    assert 'href="https://cdn.example/budget"' in html


def test_a_heading_goes_only_when_it_repeats_the_title_the_page_declares():
    # Without og:title the h1 is the article's title; it stays in the text unless
    # <title> says the same, since then it is only the title again.
    def page(title, heading):
        return (f"<html><head><title>{title}</title></head><body><article><h1>{heading}</h1>"
                f"<p>{PARA}</p><p>{PARA}</p></article></body></html>")

    kept = extract(page("Base URL test", "Lorem"))
    assert kept.title == "Lorem" and kept.text.startswith("Lorem\n\n")
    dropped = extract(page("Lorem ipsum dolor | Site", "Lorem ipsum dolor"))
    assert dropped.title == "Lorem ipsum dolor" and dropped.text.startswith("The mayor")
