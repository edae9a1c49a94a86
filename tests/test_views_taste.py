"""The taste page: features both ways with pin buttons, the agreement chart, teach-me, and rules.

The summary itself comes from the recommender glue; a stand-in of the same shape keeps these tests on the page.
"""
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from reader.ranking import scores
from reader.models import Rule
from reader.ranking.taste_chart import agreement_chart
from ui_factories import ann, client_ann, make_entries, make_feed, make_user  # noqa: F401

pytestmark = pytest.mark.django_db


def point(first, n, agreement):
    return SimpleNamespace(first_rating=first, ratings=n, agreement=agreement, until=datetime.now(timezone.utc))


SUMMARY = SimpleNamespace(
    likes=[("word", "ferry", 1.2), ("author", "mira holm", 0.8), ("domain", "news.example", 0.3)],
    dislikes=[("tag", "transfer rumours", -0.9)],
    agreement=[point(0, 10, 0.5), point(10, 10, 0.7), point(20, 10, 0.9)],
    good_ratings=18, bad_ratings=12,
)


@pytest.fixture(autouse=True)
def summary(monkeypatch):
    monkeypatch.setattr(scores, "stored_model", lambda user_id: None)
    monkeypatch.setattr(scores, "agreement", lambda user_id: SUMMARY.agreement)
    monkeypatch.setattr(scores, "taste_summary", lambda user_id, model: SUMMARY, raising=False)
    monkeypatch.setattr(scores, "teach_me", lambda user_id, k, model: [], raising=False)


@pytest.fixture
def rescored(monkeypatch):
    calls = []
    monkeypatch.setattr(scores, "queue_rescore", calls.append)
    return calls


def test_taste_page_shows_features_chart_and_teach_me(ann, client_ann, monkeypatch):
    entries = make_entries(ann, make_feed(ann), [0.5, 0.5, 0.5])
    monkeypatch.setattr(scores, "teach_me", lambda user_id, k, model: [entries[2].story_id, entries[0].story_id],
                        raising=False)
    html = client_ann.get("/taste/").content.decode()
    assert "ferry" in html and "mira holm" in html and "transfer rumours" in html
    assert 'aria-label="Always hide stories with word ferry"' in html
    assert "Always show stories with domain" not in html  # no rule kind for domains
    assert "<polyline" in html and "ratings 21–30: 90% agreed" in html
    assert "Each dot is a stretch of your ratings, oldest on the left" in html  # what the axes are, in words
    assert html.index("Story 2") < html.index("Story 0")  # teach-me keeps the model's order


def test_chart_scales_agreement_into_the_box():
    chart = agreement_chart(SUMMARY.agreement)
    ys = [y for _, y, _ in chart.dots]
    assert ys == sorted(ys, reverse=True)  # higher agreement is drawn higher
    assert all(chart.pad <= y <= chart.height - chart.pad for y in ys)
    assert agreement_chart([]) is None


def test_rules_are_added_validated_and_removed_per_user(ann, client_ann, rescored):
    client_ann.post("/taste/rules", {"kind": "word", "value": " Ferry ", "action": "show"})
    rule = Rule.objects.get(user=ann)
    assert (rule.kind, rule.value, rule.action) == ("word", "ferry", "show")
    client_ann.post("/taste/rules", {"kind": "word", "value": "ferry", "action": "hide"})
    assert Rule.objects.get(user=ann).action == "hide"  # one rule per word; the latest choice wins
    response = client_ann.post("/taste/rules", {"kind": "word", "value": "two words", "action": "hide"}, follow=True)
    assert "A word rule takes one word" in response.content.decode()
    assert rescored == [ann.id, ann.id]  # rules need a rescore, not a refit

    bob = make_user("bob")
    bobs = Rule.objects.create(user=bob, kind="feed", value="Sport", action="hide")
    assert client_ann.post(f"/taste/rules/{bobs.id}/delete").status_code == 404
    client_ann.post(f"/taste/rules/{rule.id}/delete")
    assert not Rule.objects.filter(user=ann).exists() and Rule.objects.filter(user=bob).exists()


def test_the_rule_form_reads_as_one_sentence(client_ann):
    """"Always [show] stories with this [word]": the choices continue the labels around them, not "Always always
    show stories with this Word"."""
    import re

    html = client_ann.get("/taste/").content.decode()
    form = html[html.index('class="rule-form"'):]
    form = form[:form.index("</form>")]
    options = re.findall(r"<option[^>]*>([^<]*)</option>", form)
    assert options == ["show", "hide", "word", "author", "tag", "feed"]


def test_teach_me_shows_whether_each_story_is_read(ann, client_ann, monkeypatch):
    """A story already read offers "Mark unread" there as everywhere else, not a "Mark read" that does nothing."""
    entries = make_entries(ann, make_feed(ann), [0.5, 0.5])
    entries[0].read = True
    entries[0].save()
    monkeypatch.setattr(scores, "teach_me", lambda user_id, k, model: [e.story_id for e in entries], raising=False)
    html = client_ann.get("/taste/").content.decode()
    teach = html[html.index('id="teach-title"'):]
    buttons = [teach[teach.index(f'stories/{e.story_id}/read"'):].split("</button>")[0].rsplit(">", 1)[1]
               for e in entries]
    assert buttons == ["Mark unread", "Mark read"]


def test_before_any_rating_the_page_says_how_the_feed_is_ranked(client_ann, monkeypatch):
    """Not "learned from your 0 good and 0 bad ratings": what ranks a new reader's feed, and what to do."""
    monkeypatch.setattr(scores, "taste_summary", lambda user_id, model: SimpleNamespace(
        likes=[], dislikes=[], agreement=[], good_ratings=0, bad_ratings=0), raising=False)
    html = client_ann.get("/taste/").content.decode()
    assert "0 good and 0 bad" not in html
    assert "You have not rated a story yet: until you do, your feed is ranked by what other readers" in html
