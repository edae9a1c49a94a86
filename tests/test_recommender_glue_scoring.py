"""New stories are scored by every subscribed user's own model: prepared once for all readers without
ratings, and once per rater, whose crowd prior must not contain their own votes."""
import pytest
import recommender

from reader.ranking import scores
from reader.models import Entry, Rating
from ui_factories import make_feed, make_story, make_user

pytestmark = pytest.mark.django_db

TOPICS = ["ferry strike harbour", "football transfer striker"]


def test_each_user_scores_the_shared_batch_with_their_own_taste(monkeypatch):
    ann, bob, carl, dora = (make_user(name) for name in ("ann", "bob", "carl", "dora"))
    feed = make_feed(ann)
    rated = [make_story(feed, i, title=TOPICS[i % 2], tags=[TOPICS[i % 2].split()[0]]) for i in range(6)]
    for story in rated:  # ann likes ferries, bob likes football
        ferry = "ferry" in story.title
        Rating.objects.create(user=ann, story=story, value=Rating.GOOD if ferry else Rating.BAD)
        Rating.objects.create(user=bob, story=story, value=Rating.BAD if ferry else Rating.GOOD)
    for user in (ann, bob, carl, dora):
        scores.retrain(user.id)
    new = [make_story(feed, 10 + i, title=TOPICS[i], tags=[TOPICS[i].split()[0]]) for i in range(2)]
    for user in (ann, bob, carl, dora):
        for story in new:
            Entry.objects.create(user=user, story=story)
    prepared = []
    original = recommender.prepare
    monkeypatch.setattr(recommender, "prepare", lambda *a, **k: prepared.append(1) or original(*a, **k))

    scores.score_stories([s.id for s in new])

    assert len(prepared) == 3  # one batch each for ann and bob, one shared by carl and dora
    def scores_of(user):
        by_story = dict(Entry.objects.filter(user=user, story__in=new).values_list("story_id", "score"))
        return [by_story[s.id] for s in new]
    ann_ferry, ann_football = scores_of(ann)
    bob_ferry, bob_football = scores_of(bob)
    assert ann_ferry > ann_football and bob_football > bob_ferry
    assert Entry.objects.get(user=ann, story=new[0]).reasons  # the shown reasons are kept
