"""Few or one-sided ratings still give a sensible ranking, from feed choices and the community."""
import numpy as np
import pytest

from recommender import CommunityPrior, Story, fit


def story(i, feed="energy", tags=("oil",), text="crude oil prices moved today"):
    return Story(id=i, title=f"story {i}", text=text, feed=feed, feed_title=f"{feed} desk", tags=list(tags))


CANDIDATES = [story(100, tags=("oil",)), story(101, feed="sport", tags=("football",), text="the match ended")]


@pytest.mark.parametrize("ratings", [[], [(story(1), True)], [(story(1), False)],
                                     [(story(1), True), (story(2), True), (story(3), True)]])
def test_zero_one_or_one_sided_ratings_give_valid_scores(ratings):
    model = fit(ratings)
    scored = model.score(CANDIDATES)
    assert [s.story_id for s in scored] == [100, 101]
    assert all(0.0 < s.score < 1.0 for s in scored)


def test_only_good_ratings_rank_similar_stories_first():
    model = fit([(story(i), True) for i in range(3)])
    oil, football = model.predict(CANDIDATES)
    assert oil > football


def test_subscribed_feeds_rank_above_others_without_ratings():
    model = fit([], subscribed_feeds=["sport"])
    oil, football = model.predict(CANDIDATES)
    assert football > oil


def community_votes():
    # many readers liked story 100, many disliked story 101
    return CommunityPrior([(CANDIDATES[0], 9, 1), (CANDIDATES[1], 1, 9)])


def test_community_popularity_ranks_a_new_user_s_stories():
    community = community_votes()
    model = fit([], community=community)
    liked, disliked = model.predict(CANDIDATES, community=community)
    assert liked > disliked
    reasons = model.score(CANDIDATES, community=community)[0].reasons
    assert "other readers rated this story good" in reasons


def test_fit_removes_the_user_s_own_votes_from_the_community():
    community = CommunityPrior([(CANDIDATES[0], 3, 0)])
    without = community.excluding([(CANDIDATES[0], True)])
    assert community.story_log_odds([CANDIDATES[0]])[0] > 0
    # two votes left: below min_raters, so it carries nothing
    assert without.story_log_odds([CANDIDATES[0]])[0] == 0


def test_one_reader_s_votes_never_show_in_another_s_ranking():
    # a single vote (below min_raters) must not move anyone's score
    lonely = CommunityPrior([(CANDIDATES[0], 1, 0), (CANDIDATES[1], 0, 1)])
    model = fit([(story(5), True), (story(6, feed="sport", tags=("football",)), False)])
    np.testing.assert_allclose(model.predict(CANDIDATES, community=lonely), model.predict(CANDIDATES))


def test_negative_counts_are_refused():
    with pytest.raises(ValueError, match="non-negative"):
        CommunityPrior([(CANDIDATES[0], -1, 2)])


def test_one_reader_s_votes_never_rank_a_new_reader_s_feed_through_the_crowd_model():
    """The demo's second account saw the demo reader's bad-rated stories first ("other readers like stories on
    this subject"): with no feature behind min_raters readers, each fold model was its intercept alone, fitted
    without that fold's votes, so a bad vote raised its own story's score."""
    subjects = ["rocket orbit moon", "carbon ice sea", "derby goal striker", "dunk hoop court", "cup goal keeper",
                "rebound guard playoff"]
    rated = [(story(i, feed=f"desk{i}", tags=(f"t{i}",), text=text), int(i < 2), int(i >= 2))
             for i, text in enumerate(subjects)]
    community = CommunityPrior(rated).with_crowd_model()
    stories = [s for s, _, _ in rated]
    assert not community.topic_log_odds(stories).any()
    scored = fit([], community=community).score(stories, community=community)
    assert len({s.score for s in scored}) == 1
    assert not any(s.reasons for s in scored)
