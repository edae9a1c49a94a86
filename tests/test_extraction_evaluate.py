"""The evaluation harness on a small dataset laid out like the shared ones."""
import gzip
import json

import pytest

from extraction.evaluate import evaluate_method, format_table, load_dataset, main, worst_pages

STORY = "Engineers finished the tunnel under the river two months ahead of the schedule set in 2017. "


@pytest.fixture
def dataset(tmp_path):
    pages = {
        "good": (f"<html><body><nav><a href='/'>Home</a></nav><article><p>{STORY}</p><p>{STORY}</p></article>"
                 "</body></html>", f"{STORY}\n{STORY}"),
        "tiny": ("<p>Short page.</p>", "Short page."),
        "empty": ("", "Gold text that nobody will find here."),
    }
    (tmp_path / "html").mkdir()
    truth = {}
    for page_id, (html, gold) in pages.items():
        (tmp_path / "html" / f"{page_id}.html.gz").write_bytes(gzip.compress(html.encode()))
        truth[page_id] = {"articleBody": gold, "url": f"https://e.org/{page_id}"}
    (tmp_path / "ground-truth.json").write_text(json.dumps(truth))
    return tmp_path


def test_evaluate_method_scores_every_page(dataset):
    result = evaluate_method(dataset, "clump")
    by_id = {p.id: s for p, s in zip(result.pages, result.scores)}
    assert by_id["good"].exact and by_id["tiny"].exact
    assert by_id["empty"].recall == 0.0 and "empty" in result.errors
    summary = result.summary()
    assert summary.pages == 3 and summary.precision == 1.0
    assert summary.recall == pytest.approx(2 / 3)
    assert worst_pages(result, 1)[0][0] == "empty"
    assert result.pages_per_second > 0


def test_subset_summary_and_table(dataset):
    result = evaluate_method(load_dataset(dataset), "clump")
    assert result.summary(keep=lambda p: p.id != "empty").recall == 1.0
    table = format_table([result])
    assert table.splitlines()[2].startswith("| clump | 3 | 1.000")


def test_command_line_prints_tables_and_worst_pages(dataset, capsys):
    assert main(["--dataset", str(dataset), "--compare", "lxml-parse"]) == 0
    out = capsys.readouterr().out
    assert "| clump | 3 |" in out and "| lxml-parse | 3 |" in out
    assert "pages of 5000 bytes or more" not in out  # every page here is small
    assert "worst pages for clump" in out and "empty" in out
