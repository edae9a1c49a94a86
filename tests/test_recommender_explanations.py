"""Each score comes with its strongest reasons, in words naming the right features."""
from recommender import CommunityPrior, Story, fit


def story(i, title, text, feed, tags):
    return Story(id=i, title=title, text=text, feed=feed, feed_title=f"{feed.title()} desk", tags=tags)


RATINGS = [
    (story(1, "OPEC output", "OPEC ministers cut crude output", "energy", ["opec"]), True),
    (story(2, "OPEC prices", "OPEC crude prices rise again", "energy", ["opec"]), True),
    (story(3, "Cup final", "The striker scored in the cup final", "sport", ["football"]), False),
    (story(4, "League news", "The league striker was transferred", "sport", ["football"]), False),
]


def test_reasons_name_the_liked_features():
    model = fit(RATINGS)
    [scored] = model.score([story(9, "OPEC meeting", "OPEC meets in Vienna", "energy", ["opec"])])
    text = " | ".join(scored.reasons)
    assert "opec" in text and "liked" in text
    assert 1 <= len(scored.reasons) <= 3


def test_reasons_name_the_disliked_features_for_a_low_score():
    model = fit(RATINGS)
    [scored] = model.score([story(9, "Striker injured", "The striker is out", "sport", ["football"])])
    assert scored.score < 0.5
    assert any("disliked" in r or "rate bad" in r for r in scored.reasons)
    assert any("football" in r or "striker" in r or "Sport desk" in r for r in scored.reasons)


def test_feed_reason_uses_the_feed_title():
    model = fit(RATINGS)
    reasons = model.score([story(9, "Quiet day", "Nothing happened", "energy", [])])[0].reasons
    assert "from “Energy desk”, which you usually rate good" in reasons


def test_community_reason_when_the_crowd_decides():
    liked = story(9, "Quiet day", "Nothing happened", "weather", [])
    community = CommunityPrior([(liked, 20, 0)])
    reasons = fit([], community=community).score([liked], community=community)[0].reasons
    assert "other readers rated this story good" in reasons


def test_no_reasons_without_evidence():
    assert fit([]).score([story(9, "Quiet day", "Nothing happened", "weather", [])])[0].reasons == []


def test_a_story_s_reasons_are_its_own_in_a_batch():
    # reasons are worked out for the whole batch at once: no story may get another's
    model = fit(RATINGS)
    new = [story(9, "OPEC meeting", "OPEC meets in Vienna", "energy", ["opec"]),
           story(10, "Quiet day", "Nothing happened", "weather", []),
           story(11, "Striker injured", "The striker is out", "sport", ["football"])]
    alone = [model.score([s])[0].reasons for s in new]
    assert [s.reasons for s in model.score(new)] == alone
    assert alone[0] != alone[2] and alone[1] == []
