"""A prepared Batch scores exactly like the stories themselves, for any number of users."""
import numpy as np

from recommender import CommunityPrior, Story, featurize, fit, prepare

STORIES = [Story(id=i, title=f"topic{i % 4} report", text=f"words about topic{i % 4} and more", feed=f"f{i % 3}",
                 tags=[f"t{i % 4}"]) for i in range(40)]


def test_batch_matches_direct_scoring_for_several_users():
    community = CommunityPrior([(s, i % 5 + 3, 6) for i, s in enumerate(STORIES[:20])])  # with the 3 users' votes
    batch = prepare([featurize(s) for s in STORIES[20:]], community)
    for user, liked in enumerate(["t0", "t1", "t2"]):
        model = fit([(s, liked in s.tags) for s in STORIES[:20]], subscribed_feeds=[f"f{user}"],
                    community=community)
        np.testing.assert_allclose(model.predict(batch), model.predict(STORIES[20:], community=community))
        direct = model.score(STORIES[20:], community=community)
        assert [(s.story_id, s.recommended, s.reasons) for s in model.score(batch)] == \
            [(s.story_id, s.recommended, s.reasons) for s in direct]
        bulk = model.score(batch, explain_reasons=False)
        assert [s.recommended for s in bulk] == [s.recommended for s in direct]
        assert all(s.reasons == [] for s in bulk)


def test_empty_batch():
    model = fit([])
    assert len(model.predict(prepare([]))) == 0 and model.score(prepare([])) == []
