"""Teach-me suggests the unrated stories whose rating would teach the model most."""
from recommender import Story, fit


def story(i, tags, feed="news"):
    return Story(id=i, title=" ".join(tags), text=" ".join(tags * 3), feed=feed, tags=tags)


RATINGS = [(story(i, ["opec"]), True) for i in range(5)] + [(story(10 + i, ["football"]), False) for i in range(5)]


def test_prefers_stories_the_model_cannot_call():
    model = fit(RATINGS)
    clear_good = [story(100 + i, ["opec"]) for i in range(3)]
    clear_bad = [story(200 + i, ["football"]) for i in range(3)]
    unknown = [story(300, ["astronomy"]), story(301, ["gardening"])]
    picked = model.teach_me(clear_good + clear_bad + unknown, k=2)
    assert set(picked) == {300, 301}


def test_skips_near_duplicates_and_respects_k():
    model = fit(RATINGS)
    twins = [story(400 + i, ["astronomy"]) for i in range(4)]
    other = [story(500, ["gardening"]), story(501, ["opec"])]
    picked = model.teach_me(twins + other, k=3)
    assert len(picked) <= 3
    assert sum(p in {400, 401, 402, 403} for p in picked) == 1
    assert 500 in picked


def test_nothing_to_suggest():
    assert fit(RATINGS).teach_me([], k=3) == []
