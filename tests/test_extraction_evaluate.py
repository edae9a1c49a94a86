"""The evaluation harness on a small dataset laid out like the shared ones."""
import gzip
import json

import pytest

from extraction.evaluation.evaluate import evaluate_method, format_table, load_dataset, main, worst_pages
from extraction.evaluation.snippets import SnippetScore, score_snippets
from extraction.evaluation.split import CHECK, TUNE, half_of

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


def test_command_line_prints_one_table_with_both_halves(dataset, capsys):
    assert main(["--dataset", str(dataset), "--compare", "lxml-parse"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(f"| {dataset.name} |")]
    assert [row.split(" | ")[2] for row in rows] == ["clump", "lxml-parse"]
    tune, check = (sum(half_of(p) == h for p in ("good", "tiny", "empty")) for h in (TUNE, CHECK))
    assert all(row.split(" | ")[3:5] == [str(tune), str(check)] for row in rows)
    assert "gap (tune − check)" in out


def test_worst_pages_listed_come_from_the_tuning_half_only(dataset, capsys):
    main(["--dataset", str(dataset), "--compare", ""])
    lines = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    listed = [word for words in lines for word in words if word in ("good", "tiny", "empty")]
    assert set(listed) == {p for p in ("good", "tiny", "empty") if half_of(p) == TUNE}
    assert listed and CHECK in {half_of(p) for p in ("good", "tiny", "empty")}


def test_the_split_is_fixed_by_the_page_id():
    ids = [f"page-{i}" for i in range(400)]
    halves = [half_of(i) for i in ids]
    assert halves == [half_of(i) for i in ids]
    assert 150 < halves.count(TUNE) < 250


@pytest.fixture
def snippet_dataset(tmp_path):
    (tmp_path / "html").mkdir()
    page = f"<html><body><nav><a href='/'>Impressum</a> <a href='/x'>Kontakt</a></nav><article><p>{STORY}</p></article></body></html>"
    (tmp_path / "html" / "one.html.gz").write_bytes(gzip.compress(page.encode()))
    entry = {"with": ["finished the  tunnel", "set in 2017.", "not in the page"], "without": ["Impressum", "Kontakt"]}
    (tmp_path / "snippets.json").write_text(json.dumps({"one": entry}))
    return tmp_path


def test_snippet_protocol_counts_present_and_absent_snippets(snippet_dataset):
    result = evaluate_method(snippet_dataset, "clump")
    assert result.protocol == "snippets"
    assert result.scores[0] == SnippetScore(tp=2, fp=0, fn=1, tn=2)
    summary = result.summary()
    assert summary.precision == 1.0 and summary.recall == pytest.approx(2 / 3)
    assert summary.accuracy == pytest.approx(4 / 5)


def test_snippets_leaking_into_the_text_are_false_positives():
    assert score_snippets("Impressum and a story", ("a story",), ("Impressum", "Datenschutz")) == SnippetScore(1, 1, 0, 1)


def test_evaluation_is_not_loaded_by_importing_the_library():
    import subprocess
    import sys

    code = "import sys, extraction; extraction.extract('<p>' + 'word ' * 40 + '</p>'); " \
           "print(sorted(m for m in sys.modules if m.startswith('extraction.evaluation')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
