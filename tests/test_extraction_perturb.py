"""The markup perturbations of the evaluation: each rewrites what it names, keeps the text, and runs from the
command with competitors keyed by perturbation in the cache."""
import gzip
import json

import lxml.html
import pytest

from extraction.evaluation.evaluate import main
from extraction.evaluation.metric import score_page
from extraction.evaluation.perturb import TRANSFORMS, perturb
from extraction.render import html_to_text

PAGE = ("<html><head><meta charset='iso-8859-1'><title>Ferry</title></head><body>Top line"
        "<header class='site-header' id='top' role='banner'><nav aria-label='main'><a href='/'>Home</a></nav></header>"
        "<main><article class='story' itemprop='articleBody' itemscope>"
        "<p>The harbour board met on <time datetime='2024-01-02'>Tuesday</time>.</p>loose text"
        "<p>It voted for a later <b>winter</b> crossing.</p>"
        "<figure><img src='a.jpg'><figcaption>The ferry at dawn</figcaption></figure>"
        "</article><aside class='related'>More stories</aside></main>"
        "<footer class='site-footer'>Caf\xe9 corner</footer></body></html>").encode("latin-1")


def tree(name):
    return lxml.html.document_fromstring(perturb(PAGE, name))


def test_no_names_drops_every_name_and_keeps_other_attributes():
    doc = tree("no-names")
    for attribute in ("class", "id", "role", "itemprop", "itemscope", "aria-label"):
        assert not doc.xpath(f"//*[@{attribute}]"), attribute
    assert doc.xpath("//time/@datetime") == ["2024-01-02"] and doc.xpath("//img/@src") == ["a.jpg"]
    assert doc.xpath("//article") and doc.xpath("//nav")


def test_no_html5_leaves_no_semantic_tag_and_keeps_inline_ones_inline():
    doc = tree("no-html5")
    for tag in ("article", "main", "aside", "nav", "header", "footer", "figure", "figcaption", "time"):
        assert not doc.xpath(f"//{tag}"), tag
    assert doc.xpath("//span[@datetime]")[0].text == "Tuesday"
    assert doc.xpath("//div[@class='story']") and doc.xpath("//div[@class='related']")


def test_br_paragraphs_leaves_bare_text_runs_separated_by_two_breaks():
    doc = tree("br-paragraphs")
    assert not doc.xpath("//p")
    story = doc.xpath("//article")[0]
    assert [el.tag for el in story if el.tag == "br"] == ["br"] * 4
    assert "loose text\nIt voted" in story.text_content()


def test_tables_lays_the_body_out_in_one_table_with_header_and_footer_rows():
    doc = tree("tables")
    body = doc.find("body")
    assert [el.tag for el in body] == ["table"] and not (body.text or "").strip()
    rows = body[0].findall("tr")
    assert len(rows) == 3
    assert rows[0][0].text == "Top line" and rows[0][0][0].tag == "header"
    assert [cell[0].tag for cell in rows[1]] == ["main"] and rows[2][0][0].tag == "footer"


def test_old_is_every_transform_at_once():
    doc = tree("old")
    assert not doc.xpath("//p | //article | //*[@class] | //*[@id]")
    assert doc.find("body")[0].tag == "table"


@pytest.mark.parametrize("name", list(TRANSFORMS))
def test_every_transform_keeps_the_text_and_writes_utf8(name):
    original = html_to_text(lxml.html.tostring(lxml.html.document_fromstring(PAGE.decode("latin-1")), encoding="unicode"))
    rewritten = perturb(PAGE, name)
    assert b"iso-8859-1" not in rewritten and "Café".encode() in rewritten
    assert score_page(html_to_text(rewritten.decode("utf-8")), original).f1 == 1.0
    assert perturb(PAGE, name) == rewritten  # deterministic


def test_the_command_scores_perturbed_sets_and_caches_competitors_per_perturbation(tmp_path, capsys):
    story = "".join(f"<p>Paragraph {i} of the story about the ferry timetable and the winter crossing.</p>"
                    for i in range(6))
    (tmp_path / "set" / "html").mkdir(parents=True)
    (tmp_path / "set" / "html" / "a.html.gz").write_bytes(gzip.compress(
        f"<html><body><nav class='menu'><a href='/'>Home</a></nav><article>{story}</article></body></html>".encode()))
    (tmp_path / "set" / "ground-truth.json").write_text(json.dumps({"a": {"articleBody": html_to_text(story)}}))
    cache = tmp_path / "cache"
    assert main(["--dataset", str(tmp_path / "set"), "--compare", "lxml-parse", "--cache", str(cache),
                 "--perturb", "none,old", "--worst", "0"]) == 0
    out = capsys.readouterr().out
    assert "| set | token F1 | clump |" in out and "| set [old] | token F1 | clump |" in out
    assert sorted(p.name for p in cache.iterdir()) == ["set [old]--lxml-parse.json", "set--lxml-parse.json"]
    with pytest.raises(SystemExit):
        main(["--dataset", str(tmp_path / "set"), "--perturb", "no-such"])
