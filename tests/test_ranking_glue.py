"""The glue between ratings and the recommender: a reader's own ratings never come back as the crowd's."""
import pytest
from django.contrib.auth.models import User

from reader.ranking import crowd, scores
from reader.models import Entry, Feed, Rating, Story, TasteModel

pytestmark = pytest.mark.django_db

TOPICS = {"space": "The rocket carried a satellite into orbit above the launch site",
          "football": "The striker scored in the derby before the league leaders equalised"}


@pytest.fixture
def feed_with_stories():
    feed = Feed.objects.create(url="https://news.example/feed", title="Desk")
    stories = {topic: [Story.objects.create(feed=feed, guid=f"{topic}{n}", title=f"{topic} story {n}",
                                            extracted_text=f"{text}. Report number {n}.",
                                            extraction_status="done")
                       for n in range(6)] for topic, text in TOPICS.items()}
    return feed, stories


def test_own_ratings_rank_the_feed_and_are_not_called_other_readers(feed_with_stories):
    _, stories = feed_with_stories
    ann = User.objects.create_user("ann")
    Entry.objects.bulk_create([Entry(user=ann, story=s) for group in stories.values() for s in group])
    for story in stories["space"][:4]:
        Rating.objects.create(user=ann, story=story, value=Rating.GOOD)
    for story in stories["football"][:4]:
        Rating.objects.create(user=ann, story=story, value=Rating.BAD)
    crowd.forget()
    scores.retrain(ann.id)

    unrated = Entry.objects.filter(user=ann, story__in=stories["space"][4:] + stories["football"][4:])
    order = [e.story.title.split()[0] for e in unrated.select_related("story").order_by("-score")]
    assert order == ["space", "space", "football", "football"]
    reasons = [r for e in Entry.objects.filter(user=ann) for r in e.reasons]
    assert reasons and not any("other readers" in r for r in reasons), reasons
    assert TasteModel.objects.get(user=ann).rating_count == 8


def test_unreadable_model_is_rebuilt_from_ratings(feed_with_stories):
    _, stories = feed_with_stories
    bob = User.objects.create_user("bob")
    Entry.objects.bulk_create([Entry(user=bob, story=s) for s in stories["space"]])
    Rating.objects.create(user=bob, story=stories["space"][0], value=Rating.GOOD)
    TasteModel.objects.create(user=bob, data=b"not a model", rating_count=1)
    model = scores.load_model(bob.id)
    assert model.good_ratings == 1 and TasteModel.objects.get(user=bob).data != b"not a model"
