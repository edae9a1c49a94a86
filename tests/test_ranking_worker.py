"""The ranking jobs through a real Celery worker and broker: a burst of ratings retrains once, votes reach
the story's other readers, a rule edit rescores without a refit, and the crowd is fitted by its own task."""
import pytest

from reader.ranking import scores
from reader.models import CrowdSnapshot, Entry, Rating, RankingJob, Rule, TasteModel
from ranking_crowd import entries_for, make_desk
from tests.conftest import wait_for
from ui_factories import make_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_ratings_rules_and_votes_through_the_worker(celery_worker_process, monkeypatch):
    monkeypatch.setattr(scores, "CROWD_DELAY", 0.0)  # the countdown is set here, by the sender
    ann, dora = make_user("ann"), make_user("dora")
    _, stories = make_desk(ann)
    story = stories["ferry"][5]
    entries_for(ann, stories["ferry"][:3] + stories["football"][:3])
    entries_for(dora, [story])

    for rated in stories["ferry"][:3]:
        scores.rate(ann, rated.id, Rating.GOOD)
    for rated in stories["football"][:3]:
        scores.rate(ann, rated.id, Rating.BAD)
    wait_for(lambda: TasteModel.objects.filter(user=ann, rating_count=6).exists(), message="ann's model")
    wait_for(lambda: not RankingJob.objects.filter(key__startswith="retrain:").exists(), message="retrain done")
    assert TasteModel.objects.get(user=ann).version <= 3  # a retrain per burst (and one more), not one per rating

    scores.retrain(dora.id)  # here: dora rates nothing, so no retrain of hers is ever queued
    Rule.objects.create(user=dora, kind="word", value="ferry", action="hide")
    scores.queue_rescore(dora.id)  # as the rule form does, on commit
    wait_for(lambda: Entry.objects.get(user=dora, story=story).reasons[:1] == ["your rule: always hide stories "
                                                                               "mentioning “ferry”"],
             message="rule applied")
    assert TasteModel.objects.get(user=dora).version == 1  # rescored, not refitted

    for n in range(4):
        scores.rate(make_user(f"voter{n}"), story.id, Rating.GOOD)
    wait_for(lambda: "other readers rated this story good" in Entry.objects.get(user=dora, story=story).reasons,
             timeout=90, message="dora's entry rescored by the votes")
    wait_for(CrowdSnapshot.objects.exists, message="the crowd fitted by its task")
