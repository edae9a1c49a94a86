"""The comparison command: shingle scoring, the table, and rewriting only the marked part of the docs."""
import pytest

from extraction.compare import END, FOLDS, START, Page, fold_of, score_page, table, write_docs


def test_score_page_counts_shared_four_word_shingles():
    assert score_page("a b c d e", "a b c d e") == (1.0, 1.0)
    precision, recall = score_page("a b c d e f", "a b c d x")
    assert precision == pytest.approx(1 / 3) and recall == pytest.approx(1 / 2)
    assert score_page("", "some gold text here") == (0.0, 0.0)


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
    a = Page("1", "", "", "https://news.example/a")
    b = Page("2", "", "", "https://news.example/b?page=2")
    assert fold_of(a) == fold_of(b)
    assert len({fold_of(Page(str(i), "", "", None)) for i in range(50)}) == FOLDS
