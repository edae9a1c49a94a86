"""The quality benchmark's crowd is honest about time: a ranking sees only votes on stories published
before the first ranked story, so the ranked stories carry no votes (nobody has read them yet)."""
import importlib.util
import sys
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import numpy as np

import recommender

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
_spec = importlib.util.spec_from_file_location("recommender_benchmark", BENCHMARKS / "recommender_quality.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
import recommender_reuters  # noqa: E402
from recommender_simulation import Reader  # noqa: E402

START = datetime(1987, 3, 1)
# stories 2 and 3 share a timestamp: ranking from story 3 must not see votes on story 2 either
DATES = [START, START + timedelta(hours=1), START + timedelta(hours=2), START + timedelta(hours=2),
         START + timedelta(hours=3), START + timedelta(hours=4)]
ITEMS = [SimpleNamespace(title=f"oil story {i}", body=f"crude oil output story {i}", desk="crude", tags=("crude",),
                         date=date) for i, date in enumerate(DATES)]
FEATURES = [recommender.featurize(recommender_reuters.as_story(i, item)) for i, item in enumerate(ITEMS)]


def reader(reader_id, liked):
    stream = np.arange(len(ITEMS))
    labels = np.array([i in liked for i in stream])
    return Reader(reader_id, ["crude"], stream, labels.astype(float), labels, rated=stream.copy())


def test_the_crowd_holds_only_votes_on_stories_published_before_the_ranking():
    readers = [reader(n, liked={0, 2, 4}) for n in range(4)]
    evaluation = bench.Evaluation(ITEMS, FEATURES, readers)
    crowd = evaluation.community_before(3).story_log_odds(FEATURES)
    assert crowd[0] > 0 and crowd[1] < 0  # earlier stories: all four readers' votes
    assert np.array_equal(crowd[2:], np.zeros(4))  # same time or later: no votes yet


def test_a_ranking_from_the_first_story_has_no_crowd_at_all():
    readers = [reader(n, liked={0, 1}) for n in range(4)]
    evaluation = bench.Evaluation(ITEMS, FEATURES, readers)
    prior = evaluation.community_before(0)
    assert not prior.story_log_odds(FEATURES).any()
    assert not prior.topic_log_odds(FEATURES).any()
