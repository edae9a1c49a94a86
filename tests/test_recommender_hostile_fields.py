"""The plain-Python API takes stories and votes from feeds and callers it does not know: one hostile field is
cleaned or refused with a clear error, and never makes the model raise later or score NaN."""
import math
from datetime import datetime, timezone

import pytest

from recommender import CommunityPrior, Rule, Story, UserModel, fit

LONE = "\udcff"


def story(i, **fields):
    base = {"title": f"Oil price {i}", "text": f"OPEC ministers met in Vienna, story {i}.", "feed": f"f{i % 2}",
            "tags": ["oil"], "url": f"https://news.example/{i}"}
    return Story(id=i, **{**base, **fields})


def test_a_url_with_no_readable_host_gives_no_domain():
    assert story(1, url="http://[x/").domain == ""
    assert story(2, url=12).url == "" and story(2, url=12).domain == ""


def test_lone_surrogates_become_replacement_characters_everywhere():
    hostile = story(1, title=f"Oil {LONE}", text=f"Crude {LONE} rose", author=LONE, feed_title=LONE,
                    tags=[f"oil{LONE}"], url=f"https://{LONE}.example/", feed=f"feed{LONE}")
    assert all(LONE not in value for value in (hostile.title, hostile.text, hostile.author, hostile.feed_title,
                                                hostile.url, hostile.domain, *hostile.tags))
    model = fit([(hostile, True), (story(2), False)], subscribed_feeds=[f"feed{LONE}"],
                rules=[Rule("feed", f"feed{LONE}", "hide"), Rule("tag", f"oil{LONE}", "show")])
    stored = UserModel.from_bytes(model.to_bytes())
    assert stored.predict([hostile, story(3)]).shape == (2,)
    assert stored.score([hostile])[0].rule  # the rules still match the story they were written for


def test_naive_and_aware_dates_mix_and_anything_else_is_no_date():
    naive, aware = datetime(9999, 12, 31), datetime(1, 1, 1, tzinfo=timezone.utc)
    assert story(1, published=naive).published == naive
    assert story(2, published="2026-12-03").published is None
    ratings = [(story(i, published=naive if i % 2 else aware), i % 3 == 0) for i in range(12)]
    assert fit(ratings).agreement[-1].until == naive


@pytest.mark.parametrize("good, bad", [(float("nan"), 1), (float("inf"), 1), (None, 1), (3, -1)])
def test_counts_that_are_no_counts_are_refused(good, bad):
    with pytest.raises(ValueError, match="finite and non-negative"):
        CommunityPrior([(story(1), 3, 3), (story(2), good, bad)])
    with pytest.raises(ValueError, match="finite and non-negative"):
        CommunityPrior([(story(1), 3, 3)]).with_story_votes([(2, good, bad)])


def test_a_huge_count_still_scores_every_story():
    community = CommunityPrior([(story(i), 10 ** 30 if i == 1 else 3, 1) for i in range(8)])
    model = fit([(story(i), i % 2 == 0) for i in range(8, 14)], community=community)
    assert all(math.isfinite(s.score) for s in model.score([story(i) for i in range(14, 20)], community=community))
