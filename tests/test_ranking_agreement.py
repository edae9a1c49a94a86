"""The taste page's "how often its guesses matched" is the guess the reader saw when rating, against the rating
(issue 18, item 2), not the model's fit on the ratings it was trained on."""
import pytest

from reader.ranking import scores
from reader.models import Entry, Rating
from ranking_crowd import entries_for, make_desk, queued  # noqa: F401
from ui_factories import make_user

pytestmark = pytest.mark.django_db


def test_a_rating_keeps_the_guess_shown_and_a_changed_mind_keeps_the_first(queued):
    ann = make_user("ann")
    _, stories = make_desk(ann)
    story = stories["ferry"][0]
    entries_for(ann, [story])
    Entry.objects.filter(user=ann).update(score=0.31, recommended=False)

    scores.rate(ann, story.id, Rating.GOOD)
    Entry.objects.filter(user=ann).update(score=0.9, recommended=True)  # a retrain after the rating
    scores.rate(ann, story.id, Rating.BAD)

    rating = Rating.objects.get(user=ann, story=story)
    assert (rating.value, rating.shown_score, rating.shown_recommended) == (Rating.BAD, 0.31, False)


def test_the_chart_shows_how_often_the_guesses_seen_matched_not_the_in_sample_fit(queued, client):
    ann = make_user("ann")
    _, stories = make_desk(ann)
    rated = [story for pair in zip(stories["ferry"][:4], stories["football"][:4]) for story in pair]
    entries_for(ann, rated)
    # the feed recommended every story: it was right about the ferries, wrong about the football
    Entry.objects.filter(user=ann).update(score=0.6, recommended=True)
    for story in rated:
        scores.rate(ann, story.id, Rating.GOOD if story in stories["ferry"] else Rating.BAD)
    scores.retrain(ann.id)
    assert all(point.agreement == 1.0 for point in scores.taste_summary(ann.id).agreement)  # in-sample

    points = scores.agreement(ann.id, points=4)

    assert [(p.first_rating, p.ratings) for p in points] == [(0, 2), (2, 2), (4, 2), (6, 2)]
    assert [p.agreement for p in points] == [0.5] * 4  # each stretch: a ferry (right), a football (wrong)
    client.force_login(ann)
    html = client.get("/taste/").content.decode()
    assert "ratings 1–1: 100% agreed" in html and "ratings 2–2: 0% agreed" in html  # one rating a point
