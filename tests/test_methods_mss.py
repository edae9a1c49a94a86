"""mss: token scores from the shipped naive Bayes model, one maximum-sum run is the article."""
from extraction import extract
from extraction.document import parse
from extraction.evaluation.train_mss import labels, naive_bayes
from extraction.methods.learned import load_model
from extraction.methods.mss import max_subsequence, token_scores, tokenize

STORY = ("The museum reopened its east wing on Saturday after a three year restoration, and visitors "
         "queued around the block to see the painted ceiling, which had been hidden under soot for a "
         "century. Curators said the work cost less than expected because volunteers cleaned the tiles.")


def test_max_subsequence_finds_the_best_contiguous_run():
    assert max_subsequence([-0.4, 0.3, 0.4, -0.1, 0.3, -0.5, 0.2]) == (1, 5)
    assert max_subsequence([-0.1, -0.2]) == (0, 0)


def test_tokens_are_tags_words_and_numbers_with_their_parent():
    tokens = tokenize(parse("<body><p>Room 101 <b>opens</b></p></body>").find("body"))
    assert [t.value for t in tokens] == ["<body>", "<p>", "room", "<num>", "<b>", "opens", "</b>", "</p>", "</body>"]
    assert tokens[5].parent == "b"


def test_shipped_model_scores_tokens_within_half_a_point():
    tokens = tokenize(parse(f"<body><p>{STORY}</p></body>").find("body"))
    scores = token_scores(tokens, load_model("mss"))
    assert all(-0.5 <= s <= 0.5 for s in scores) and sum(scores) > 0


def test_keeps_the_story_and_leaves_the_menu():
    menu = "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(20))
    html = f"<html><body><ul>{menu}</ul><article><p>{STORY}</p><p>{STORY}</p></article><ul>{menu}</ul></body></html>"
    text = extract(html, method="mss").text
    assert "painted ceiling" in text and "Section 3" not in text


def test_labels_follow_the_gold_text_and_naive_bayes_favours_article_features():
    tokens = tokenize(parse("<body><p>alpha beta gamma delta</p><div>menu home</div></body>").find("body"))
    marked = labels(tokens, "alpha beta gamma delta")
    assert [t.value for t, m in zip(tokens, marked) if m] == ["alpha", "beta", "gamma", "delta"]
    from collections import Counter
    model = naive_bayes([Counter({"u:menu": 5, "u:x": 1}), Counter({"u:alpha": 5, "u:x": 1})], [6, 6])
    assert model["weights"]["u:alpha"] > 0 > model["weights"]["u:menu"]


def test_known_failure_one_run_cannot_hold_two_parts_split_by_a_long_aside():
    aside = "".join(f'<li><a href="/{i}">Related story number {i}</a></li>' for i in range(60))
    second = STORY.replace("museum", "gallery")
    html = f"<html><body><p>{STORY}</p><ul>{aside}</ul><p>{second}</p><p>{second}</p></body></html>"
    text = extract(html, method="mss").text
    assert ("gallery" in text) != ("museum" in text)
