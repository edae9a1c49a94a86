"""The comparison command: scoring with the shared metric, the table, and rewriting only the marked part of the docs."""
import pytest

from extraction.evaluation.compare import END, FOLDS, START, evaluate, fold_of, table, write_docs
from extraction.evaluation.evaluate import Page
from extraction.evaluation.metric import score_page, summarize

STORY = ("The harbour master said the ferry would run again on Monday once the storm damage to the "
         "pier had been repaired by the council's engineers, who worked through the weekend.")


def test_evaluate_scores_every_page_with_the_shared_metric_and_counts_failures():
    pages = [Page(f"p{i}", f"<html><body><p>{STORY}</p></body></html>".encode(), STORY, f"https://s{i}.example/")
             for i in range(6)]
    pages.append(Page("empty", b"   ", STORY, ""))
    result = evaluate("readability-simple", "aeb", pages)
    expected = summarize([score_page(STORY, STORY)] * 6 + [score_page("", STORY)])
    assert result["errors"] == 1
    assert (result["P"], result["R"], result["F1"]) == pytest.approx((expected.precision, expected.recall, expected.f1))
    assert result["P"] == 1.0 and result["R"] == pytest.approx(6 / 7)


def test_table_has_one_row_per_method_and_four_columns_per_set():
    results = {"m": {"aeb": {"P": 0.5, "R": 1.0, "F1": 2 / 3, "pages/s": 10.0}}}
    printed = table(results, ["aeb"])
    assert printed.splitlines()[2] == "| m | 0.500 | 1.000 | 0.667 | 10 |"


def test_write_docs_replaces_only_between_the_markers(tmp_path):
    doc = tmp_path / "extraction.md"
    doc.write_text(f"# Title\nbefore\n{START}\nold table\n{END}\nafter\n")
    write_docs(doc, "| new |")
    assert doc.read_text() == f"# Title\nbefore\n{START}\n| new |\n{END}\nafter\n"


def test_write_docs_refuses_a_file_without_markers(tmp_path):
    doc = tmp_path / "extraction.md"
    doc.write_text("no markers")
    with pytest.raises(SystemExit):
        write_docs(doc, "| new |")
    assert doc.read_text() == "no markers"


def test_folds_keep_a_site_together_and_spread_pages_without_url():
    a = Page("1", b"", "", "https://news.example/a")
    b = Page("2", b"", "", "https://news.example/b?page=2")
    assert fold_of(a) == fold_of(b)
    assert len({fold_of(Page(str(i), b"", "", "")) for i in range(50)}) == FOLDS
