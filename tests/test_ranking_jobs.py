"""Web requests never fit a model, rule edits rescore without a refit, retraining is queued once per user in
flight, and the crowd model is fitted by a periodic task and loaded from its stored snapshot (issue 17)."""
import pytest
import recommender

from reader.ranking import crowd, scores
from reader.models import CrowdSnapshot, Entry, Rating, RankingJob, TasteModel
from ranking_crowd import crowd_likes_ferries, entries_for, make_desk, queued, snapshot  # noqa: F401
from ui_factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def fits(monkeypatch):
    """Every fit of a user's model or of the crowd model, by kind."""
    calls = []
    user_fit, crowd_fit = recommender.fit, recommender.CrowdModel.fit
    monkeypatch.setattr(recommender, "fit", lambda *a, **k: calls.append("user") or user_fit(*a, **k))
    monkeypatch.setattr(recommender.CrowdModel, "fit", lambda *a, **k: calls.append("crowd") or crowd_fit(*a, **k))
    return calls


def test_the_taste_page_fits_nothing_and_queues_the_missing_models(client, fits, queued,
                                                                  django_capture_on_commit_callbacks):
    ann = make_user("ann")
    _, stories = make_desk(ann)
    crowd_likes_ferries(stories)
    entries_for(ann, stories["ferry"] + stories["football"])
    Rating.objects.create(user=ann, story=stories["ferry"][0], value=Rating.GOOD)
    crowd.forget()
    client.force_login(ann)

    with django_capture_on_commit_callbacks(execute=True):
        assert client.get("/taste/").status_code == 200
    assert fits == []
    assert not TasteModel.objects.filter(user=ann).exists()
    assert queued == [("reader.tasks.retrain_user", (ann.id,))]


def test_the_crowd_snapshot_is_fitted_once_and_loaded_by_other_processes(snapshot, fits):
    _, stories = make_desk()
    crowd_likes_ferries(stories)
    assert snapshot() == 8 and fits == ["crowd"]
    fitted = crowd.community().crowd_model

    crowd.forget()  # as a process that did not fit it
    loaded = crowd.community()
    assert fits == ["crowd"]
    new = recommender.featurize(recommender.Story(id=-1, title="Ferry strike", text=stories["ferry"][0].extracted_text,
                                                  feed=stories["ferry"][0].feed_id, tags=["ferry"]))
    assert loaded.crowd_model.scores([new]) == pytest.approx(fitted.scores([new]))

    snapshot()  # the next beat: warm-started, the older snapshots pruned
    snapshot()
    assert CrowdSnapshot.objects.count() == crowd.KEEP


def test_a_burst_of_ratings_queues_one_retrain_and_ratings_during_it_one_more(queued,
                                                                              django_capture_on_commit_callbacks):
    ann = make_user("ann")
    _, stories = make_desk(ann)
    with django_capture_on_commit_callbacks(execute=True):
        for story in stories["ferry"][:3]:
            scores.rate(ann, story.id, Rating.GOOD)
    retrains = lambda: [args for name, args in queued if name == "reader.tasks.retrain_user"]  # noqa: E731
    assert retrains() == [(ann.id,)]

    scores.retrain(ann.id)  # the task starts: ratings from now on need another run
    with django_capture_on_commit_callbacks(execute=True):
        for story in stories["football"][:3]:
            scores.rate(ann, story.id, Rating.BAD)
    assert retrains() == [(ann.id,), (ann.id,)]
    assert RankingJob.objects.filter(key=f"retrain:{ann.id}").count() == 1


def test_a_rule_edit_rescores_the_feed_without_refitting(client, fits, queued, django_capture_on_commit_callbacks):
    ann = make_user("ann")
    _, stories = make_desk(ann)
    entries_for(ann, stories["ferry"] + stories["football"])
    scores.retrain(ann.id)
    version = TasteModel.objects.get(user=ann).version
    fits.clear()
    client.force_login(ann)

    with django_capture_on_commit_callbacks(execute=True):
        client.post("/taste/rules", {"kind": "word", "value": "derby", "action": "hide"})
    assert queued == [("reader.tasks.rescore_user", (ann.id,))]
    scores.rescore(ann.id)

    assert fits == [] and TasteModel.objects.get(user=ann).version == version
    hidden = Entry.objects.filter(user=ann, story__in=stories["football"])
    assert all(not e.recommended and e.reasons[0] == "your rule: always hide stories mentioning “derby”"
               for e in hidden)


def test_without_a_snapshot_the_crowd_is_empty_and_one_fit_is_queued(queued, django_capture_on_commit_callbacks, fits):
    crowd.forget()
    with django_capture_on_commit_callbacks(execute=True):
        assert crowd.community().crowd_model is None
    crowd.forget()
    with django_capture_on_commit_callbacks(execute=True):
        crowd.community()
    crowd.forget()
    assert queued == [("reader.tasks.fit_crowd", ())] and fits == []
