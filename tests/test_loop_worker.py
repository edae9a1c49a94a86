"""The whole loop through a real Celery worker and broker: feed in, pages extracted, rated, ranked."""
import pytest
from django.contrib.auth.models import User

from reader.models import Entry, Story, TasteModel
from reader.ranking.scores import rate
from reader.ingestion.subscribe import subscribe
from tests.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TOPICS = {
    "rocket": "The rocket launch from the coastal spaceport carried a weather satellite into orbit. Engineers "
              "watched the booster land on the barge while the satellite unfolded its solar panels.",
    "football": "The football derby ended in a draw after a late penalty. The goalkeeper saved twice in "
                "stoppage time and the coach praised the defence for holding the line in the rain.",
}


def page(title: str, body: str) -> str:
    nav = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(12))
    paragraphs = "".join(f"<p>{body} Paragraph {i} adds detail about {title.lower()}.</p>" for i in range(6))
    return (f"<html><head><title>{title}</title></head><body><nav><ul>{nav}</ul></nav>"
            f"<div class='content'><h1>{title}</h1>{paragraphs}</div>"
            f"<footer><a href='/about'>About</a> <a href='/terms'>Terms</a></footer></body></html>")


def feed_xml(server, items) -> str:
    entries = "".join(f"<item><title>{title}</title><link>{server.url('/' + slug)}</link><guid>{slug}</guid>"
                      f"<description>Teaser only.</description></item>" for slug, title in items)
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>Loop desk</title>{entries}</channel></rss>'


def test_feed_to_ranked_stories_through_the_worker(server, celery_worker_process):
    items = []
    for topic, body in TOPICS.items():
        for n in range(4):
            slug = f"{topic}-{n}"
            title = f"{topic.title()} story {n}"
            server.add("/" + slug, page(title, body), headers={"Content-Type": "text/html; charset=utf-8"})
            items.append((slug, title))
    server.add("/broken", "<html><body></body></html>")
    items.append(("broken", "Empty page"))
    url = server.add("/feed.xml", feed_xml(server, items), headers={"Content-Type": "application/rss+xml"})

    user = User.objects.create_user("reader", password="pw")
    feed, _, _ = subscribe(user, url)  # the feed stored now, its pages queued to the worker

    wait_for(lambda: Story.objects.filter(feed=feed).exclude(extraction_status="pending").count() == 9,
             timeout=90, message="all pages fetched and extracted")
    done = Story.objects.filter(feed=feed, extraction_status="done")
    assert done.count() == 8
    assert all("Paragraph 5" in s.extracted_text and "Section 3" not in s.extracted_text for s in done)
    failed = Story.objects.get(feed=feed, guid__endswith="broken")
    assert failed.extraction_status == "failed" and failed.extraction_error

    rockets = list(done.filter(title__startswith="Rocket"))
    footballs = list(done.filter(title__startswith="Football"))
    for story in rockets[:2]:
        rate(user, story.id, 1)
    for story in footballs[:2]:
        rate(user, story.id, -1)
    wait_for(lambda: TasteModel.objects.filter(user=user, rating_count=4).exists(), timeout=60,
             message="model retrained on 4 ratings")

    def unrated_order():
        unrated = {s.id for s in rockets[2:] + footballs[2:]}
        return [e.story.title.split()[0] for e in Entry.objects.filter(user=user, story_id__in=unrated)
                .select_related("story").order_by("-score")]

    order = wait_for(lambda: (o := unrated_order())[:2] == ["Rocket", "Rocket"] and o, timeout=30,
                     message="liked topic ranked first")
    assert order[2:] == ["Football", "Football"]
    feed.refresh_from_db()
    assert feed.error_count == 0 and feed.title == "Loop desk"
