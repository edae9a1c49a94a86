"""The taste summary: strongest features both ways, and agreement with past ratings over time."""
from datetime import datetime, timedelta

from recommender import Story, fit

START = datetime(2024, 1, 1)


def story(i, tag):
    return Story(id=i, title=f"{tag} news", text=f"all about {tag}", feed="news", tags=[tag],
                 published=START + timedelta(days=i))


def test_strongest_likes_and_dislikes_are_named():
    ratings = [(story(i, "astronomy"), True) for i in range(6)] + [(story(10 + i, "golf"), False) for i in range(6)]
    summary = fit(ratings).taste(limit=3)
    assert ("tag", "astronomy") in [(kind, label) for kind, label, _ in summary.likes]
    assert ("tag", "golf") in [(kind, label) for kind, label, _ in summary.dislikes]
    assert all(w > 0 for *_, w in summary.likes) and all(w < 0 for *_, w in summary.dislikes)
    assert (summary.good_ratings, summary.bad_ratings) == (6, 6)


def test_agreement_over_time_shows_a_change_of_taste():
    # liked golf for a long while, then turned against it
    ratings = [(story(i, "golf"), True) for i in range(40)] + [(story(40 + i, "golf"), False) for i in range(10)]
    ratings += [(story(100 + i, "chess"), i % 2 == 0) for i in range(10)]
    points = fit(ratings).taste().agreement
    assert sum(p.ratings for p in points) == len(ratings)
    assert [p.first_rating for p in points] == sorted(p.first_rating for p in points)
    assert points[0].agreement > points[7].agreement  # the model sides with the long golf-loving stretch
    assert points[0].until == START + timedelta(days=5)


def test_empty_summary_without_ratings():
    summary = fit([]).taste()
    assert summary.likes == [] and summary.dislikes == [] and summary.agreement == []
