"""A story is featurised once per change of its text: retraining reads the stored features back."""
import pytest
import recommender
from django.contrib.auth.models import User

from reader.ranking import crowd, scores
from reader.models import Entry, Feed, Rating, Story

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_reader():
    feed = Feed.objects.create(url="https://news.example/feed", title="Space desk")
    stories = [Story.objects.create(feed=feed, guid=f"g{n}", title=f"Rocket launch {n}",
                                    extracted_text=f"The rocket carried satellite {n} into orbit.",
                                    extraction_status="done") for n in range(4)]
    ann = User.objects.create_user("ann")
    Entry.objects.bulk_create([Entry(user=ann, story=s) for s in stories])
    Rating.objects.create(user=ann, story=stories[0], value=Rating.GOOD)
    Rating.objects.create(user=ann, story=stories[1], value=Rating.BAD)
    crowd.forget()
    return ann, feed, stories


@pytest.fixture
def featurised(monkeypatch):
    """The ids of the stories featurised from their text, in order."""
    seen, real = [], recommender.featurize

    def counting(story):
        seen.append(story.id)
        return real(story)

    monkeypatch.setattr(recommender, "featurize", counting)
    return seen


def test_retraining_again_featurises_nothing(rated_reader, featurised):
    ann, _, stories = rated_reader
    scores.retrain(ann.id)
    assert sorted(set(featurised)) == [s.id for s in stories]
    assert all(s.features and s.features_at == s.updated_at for s in Story.objects.all())

    featurised.clear()
    crowd.forget()
    scores.retrain(ann.id)
    assert featurised == []


def test_a_changed_story_is_featurised_again_and_ranked_by_its_new_text(rated_reader, featurised):
    ann, _, stories = rated_reader
    scores.retrain(ann.id)
    changed = Story.objects.get(id=stories[2].id)
    changed.extracted_text = "The harvest of barley and wheat was poor this autumn."
    changed.save()

    featurised.clear()
    scores.retrain(ann.id)
    assert featurised == [changed.id]
    stored = recommender.StoryFeatures.from_json(Story.objects.get(id=changed.id).features)
    assert "barley" in stored.keys and "orbit" not in stored.keys  # the old text is gone, the title stays


def test_corrupt_or_outdated_features_are_made_again(rated_reader, featurised):
    ann, _, stories = rated_reader
    scores.retrain(ann.id)
    Story.objects.filter(id=stories[0].id).update(features="{not json")
    Story.objects.filter(id=stories[1].id).update(features='{"v": -1, "id": 1, "f": []}')

    featurised.clear()
    scores.retrain(ann.id)
    assert sorted(featurised) == [stories[0].id, stories[1].id]
    for story in Story.objects.filter(id__in=[stories[0].id, stories[1].id]):
        assert recommender.StoryFeatures.from_json(story.features).story_id == story.id


def test_a_renamed_feed_is_named_in_reasons_without_featurising_again(rated_reader, featurised):
    ann, feed, _ = rated_reader
    scores.retrain(ann.id)
    feed.title = "Orbit desk"
    feed.save()

    featurised.clear()
    scores.retrain(ann.id)
    assert featurised == []
    labels = {label for kind, label, _ in scores.taste_summary(ann.id).likes + scores.taste_summary(ann.id).dislikes
              if kind == "feed"}
    assert labels <= {"Orbit desk"}


def test_more_rows_than_one_statement_takes_are_all_written(rated_reader):
    ann, feed, _ = rated_reader
    many = Story.objects.bulk_create([Story(feed=feed, guid=f"bulk{n}", title=f"Launch window {n}",
                                            extracted_text=f"Mission {n} waits for the weather.",
                                            extraction_status="done") for n in range(1100)])
    Entry.objects.bulk_create([Entry(user=ann, story=s, score=-1.0) for s in many])  # no probability
    scores.retrain(ann.id)
    assert not Story.objects.filter(features="").exists()
    assert not Entry.objects.filter(user=ann, score=-1.0).exists()
