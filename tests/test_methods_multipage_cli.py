"""python -m extraction --pages N: the CLI follows next-page links through the safe fetcher."""
import json

from extraction.__main__ import main

from test_methods_multipage import PARAGRAPHS, page, server  # noqa: F401 - the loopback server fixture


def test_pages_follows_next_links_through_the_safe_fetcher(server, tmp_path, capsys):  # noqa: F811
    first = tmp_path / "page1.html"
    first.write_text(page(1))
    assert main(["--format", "json", "--pages", "2", "--url", f"{server.root}/story/page/1", str(first)]) == 0
    article = json.loads(capsys.readouterr().out)
    # The CLI's policy is the default one, which refuses loopback: the fetch of page 2 was tried and refused.
    assert PARAGRAPHS[1] in article["text"] and "refused" in article["extras"]["pagination_error"]
    assert "/story/page/2" in article["extras"]["pagination_error"]


def test_pages_without_a_url_is_a_clear_error(tmp_path, capsys):
    first = tmp_path / "page1.html"
    first.write_text(page(1))
    assert main(["--pages", "2", str(first)]) == 1
    assert "needs the page's URL" in capsys.readouterr().err
