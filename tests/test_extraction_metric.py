"""The benchmark metric: shingle overlap per page, means over pages, bootstrap spread."""
import pytest

from extraction.evaluation.metric import score_page, shingles, summarize, tokens


def test_tokens_are_word_runs():
    assert tokens("Hello, world! It's 2019.") == ["Hello", "world", "It", "s", "2019"]


def test_identical_text_is_exact_and_perfect():
    s = score_page("One two three four five.", "one two three four five" .replace("one", "One"))
    assert s.exact and s.precision == 1.0 and s.recall == 1.0 and s.f1 == 1.0


def test_extra_text_costs_precision_not_recall():
    gold = "a b c d e f g h"
    s = score_page(gold + " x y z w", gold)
    assert s.recall == 1.0
    assert s.precision == pytest.approx(5 / 9)  # 5 shared shingles, 4 new ones
    assert s.tp + s.fp + s.fn == pytest.approx(1.0)
    assert not s.exact


def test_empty_prediction_counts_for_recall_only():
    s = score_page("", "some gold text here today")
    assert s.precision is None and s.recall == 0.0


def test_short_texts_still_form_one_shingle():
    assert shingles(["a", "b"]) == {("a", "b"): 1}


def test_summary_means_skip_undefined_pages():
    pages = [score_page("a b c d", "a b c d"), score_page("", "e f g h")]
    summary = summarize(pages, draws=50)
    assert summary.precision == 1.0  # the empty prediction has no precision
    assert summary.recall == 0.5
    assert summary.f1 == pytest.approx(2 * 1.0 * 0.5 / 1.5)
    assert summary.accuracy == 0.5
    assert summary.recall_sd > 0
