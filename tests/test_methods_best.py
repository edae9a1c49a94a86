"""best: clump's article, minus the blocks a learned classifier over the other methods' votes rejects."""
import lxml.html

from extraction import METHODS, extract
from extraction.blocks import text_runs
from extraction.methods.best import backbone_gaps, choose, compile_trees, coverage, edit_backbone, furniture, predict, trigrams
from extraction.methods.learned import load_model

STORY = [
    "The city library will stay open until midnight during exam season, the council said on Friday, "
    "after students collected more than four thousand signatures in a single week.",
    "Librarians welcomed the decision but warned that extra staff would be needed, and that the "
    "heating bill for the old reading room would rise sharply in the winter months.",
    "The pilot will run for three months, after which the council will decide, based on visitor "
    "numbers, whether the late opening becomes permanent next year.",
]


def test_coverage_is_the_share_of_a_blocks_trigrams_found():
    found = trigrams("one two three four")
    assert coverage(trigrams("one two three four"), found) == 1.0
    assert coverage(trigrams("one two three nine"), found) == 0.5
    assert coverage(trigrams("two"), found) == 1.0 and coverage(trigrams(""), found) == 0.0


def test_choose_keeps_one_span_and_drops_a_stray_block_far_away():
    probabilities = [0.9, 0.1, 0.1, 0.1, 0.95, 0.9, 0.45, 0.9]
    words = [5, 40, 40, 40, 60, 60, 5, 60]
    assert choose(probabilities, words) == [False, False, False, False, True, True, False, True]


def test_model_votes_with_every_other_method_and_matches_its_own_arrays():
    model = load_model("best", compile_trees)
    assert set(model["voters"]) == set(METHODS) - {"best", "ttr-kmeans"}
    width = max(max(t["feature"]) for t in model["trees"]) + 1
    probabilities = predict(model, [[0.0] * width, [1.0] * width])
    assert probabilities.shape == (2,) and all(0 <= p <= 1 for p in probabilities)


def test_keeps_the_story_and_drops_navigation_and_footer():
    menu = "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(12))
    body = "".join(f"<p>{p}</p>" for p in STORY)
    html = f"""<html><body><nav><ul>{menu}</ul></nav><article><h1>Late library</h1>{body}</article>
    <footer><p>Copyright 2026 City News. All rights reserved.</p><ul>{menu}</ul></footer></body></html>"""
    text = extract(html, method="best").text
    assert all(p in text for p in STORY)
    assert "Section 4" not in text and "All rights reserved" not in text


def test_known_failure_boilerplate_the_voters_agree_on_is_kept():
    # A newsletter plug written as a paragraph inside the article: every voter keeps it, so does best.
    plug = ("Subscribe to our newsletter to get the best stories from the city, every morning, "
            "straight to your inbox, free of charge, and cancel whenever you like.")
    body = f"<p>{STORY[0]}</p><p>{STORY[1]}</p><p>{plug}</p><p>{STORY[2]}</p>"
    text = extract(f"<html><body><article>{body}</article></body></html>", method="best").text
    assert STORY[1] in text and "Subscribe to our newsletter" in text


def test_exported_trees_predict_what_scikit_learn_predicts():
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier

    from extraction.evaluation.train_best import RATE, export

    rng = np.random.default_rng(0)
    x = rng.random((400, 3))
    y = (x[:, 0] + 0.5 * x[:, 1] > 0.8) & (x[:, 2] < 0.9)
    model = GradientBoostingClassifier(n_estimators=20, max_depth=3, learning_rate=RATE, random_state=0).fit(x, y)
    exported = export(model, ["a", "b", "c"])
    assert "arrays" not in exported  # what is written to disk stays plain JSON
    assert np.abs(predict(compile_trees(exported), x.tolist()) - model.predict_proba(x)[:, 1]).max() < 1e-4


def test_edit_backbone_cuts_only_confidently_rejected_whole_elements_inside_it():
    doc = lxml.html.fromstring("<html><body><div id='story'><p>kept one</p><p>doubtful</p><p>rejected</p>"
                               "</div><p>outside and liked</p></body></html>")
    blocks = text_runs(doc.find("body"))
    backbone = doc.get_element_by_id("story")
    edited = edit_backbone(backbone, blocks, [0.9, 0.3, 0.05, 0.99])
    assert edited is backbone
    assert [p.text for p in edited.iter("p")] == ["kept one", "doubtful"]


def test_edit_backbone_is_none_when_the_backbone_holds_no_block():
    doc = lxml.html.fromstring("<html><body><p>text</p><div id='empty'></div></body></html>")
    blocks = text_runs(doc.find("body"))
    assert edit_backbone(doc.get_element_by_id("empty"), blocks, [0.9]) is None
    assert edit_backbone(None, blocks, [0.9]) is None


def test_when_the_ensemble_agrees_the_answer_is_clumps_own_article():
    body = "".join(f"<p>{p} <a href='/more'>more</a></p>" for p in STORY)
    html = f"<html><body><nav><a href='/'>Home</a></nav><article><h1>Late library</h1>{body}</article></body></html>"
    assert extract(html, method="best").html == extract(html, method="clump").html


def test_gaps_count_blocks_to_the_nearest_backbone_block():
    assert backbone_gaps([False, True, True, False, False]) == [1, 0, 0, 1, 2]
    assert min(backbone_gaps([False, False])) > 2  # no backbone: farther than any real gap


def test_furniture_is_the_strongest_cue_on_the_block_or_its_ancestors():
    doc = lxml.html.fromstring("<html><body><nav><div><p>menu</p></div></nav><div class='share'><p>x</p></div>"
                               "<div class='story'><p>story</p></div></body></html>")
    strengths = furniture(text_runs(doc.find("body")))
    assert strengths[0] > 0 and strengths[1] > 0 and strengths[2] == 0


def test_every_method_says_what_it_is_for_and_best_does_not_claim_to_be_better():
    from extraction.methods import METHODS, PURPOSES

    assert set(PURPOSES) == set(METHODS)
    assert "not better than clump" in PURPOSES["best"]
    assert "default" in PURPOSES["clump"]
