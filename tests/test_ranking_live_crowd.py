"""Live crowd (issue 18, item 1): other readers' votes on a story re-score its unread entries for its other
readers, before the next crowd fit, in bounded chunks."""
import pytest

from reader.ranking import scores
from reader.models import Entry, Rating
from ranking_crowd import entries_for, make_desk, queued  # noqa: F401
from ui_factories import make_user


pytestmark = pytest.mark.django_db


def test_votes_on_a_story_rescore_its_unread_entries_for_other_readers(queued, django_capture_on_commit_callbacks):
    dora, erin = make_user("dora"), make_user("erin")
    _, stories = make_desk(dora)
    story = stories["ferry"][5]
    entries_for(dora, [story])
    entries_for(erin, [story])
    scores.score_stories([story.id])
    before = Entry.objects.get(user=dora, story=story)
    Entry.objects.filter(user=erin).update(read=True, score=-1.0)

    voters = [make_user(f"voter{n}") for n in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        for voter in voters:
            scores.rate(voter, story.id, Rating.GOOD)
    assert [args for name, args in queued if name == "reader.tasks.rescore_story_readers"] == [(story.id,)]
    assert scores.rescore_story_readers(story.id) == []

    after = Entry.objects.get(user=dora, story=story)
    assert after.score > before.score and "other readers rated this story good" in after.reasons
    assert Entry.objects.get(user=erin, story=story).score == -1.0  # read already: left alone


def test_a_story_with_many_readers_is_rescored_in_chunks(monkeypatch):
    monkeypatch.setattr(scores, "CROWD_USERS", 2)
    readers = [make_user(f"reader{n}") for n in range(5)]
    _, stories = make_desk()
    story = stories["ferry"][0]
    for reader in readers:
        entries_for(reader, [story])
    Entry.objects.update(score=-1.0)

    chunks, last = [], 0
    while True:
        done = set(Entry.objects.exclude(score=-1.0).values_list("user_id", flat=True))
        follow = scores.rescore_story_readers(story.id, last)
        chunks.append(set(Entry.objects.exclude(score=-1.0).values_list("user_id", flat=True)) - done)
        if not follow:
            break
        last = follow[0]
    assert [len(chunk) for chunk in chunks] == [2, 2, 1]
    assert set().union(*chunks) == {r.id for r in readers}
