"""The shell path of the README: `add_feed URL --user NAME` stores a new feed's stories at once and queues their
pages to the worker, and `fetch_feeds` fetches one feed in place or queues every due one."""
import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from reader.models import Feed, Story, Subscription
from tests.conftest import wait_for
from tests.test_loop_worker import feed_xml, page

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

BODY = "The council opened the new library on the square, with a reading room for children and a cafe."


def publish(server, slugs) -> str:
    for slug in slugs:
        server.add("/" + slug, page(slug.title(), BODY), headers={"Content-Type": "text/html; charset=utf-8"})
    return server.add("/feed.xml", feed_xml(server, [(slug, slug.title()) for slug in slugs]),
                      headers={"Content-Type": "application/rss+xml"})


def test_add_feed_subscribes_and_the_worker_extracts_without_fetching_the_feed_again(server, celery_worker_process,
                                                                                    capsys):
    User.objects.create_user("ada", password="pw")
    url = publish(server, ["library-opens", "library-cafe"])

    call_command("add_feed", url, "--user", "ada", "--folder", "Town")

    assert f"subscribed: {url}" in capsys.readouterr().out
    assert Subscription.objects.get(user__username="ada", feed__url=url).folder == "Town"
    wait_for(lambda: Story.objects.filter(feed__url=url, extraction_status="done").count() == 2, timeout=90,
             message="both pages extracted by the worker")
    assert all("reading room" in s.extracted_text for s in Story.objects.filter(feed__url=url))
    assert [path for path, _ in server.requests].count("/feed.xml") == 1


def test_fetch_feeds_fetches_one_feed_here_and_reports_new_stories(server, allow_loopback, capsys):
    User.objects.create_user("ada", password="pw")
    url = publish(server, ["market-day"])
    call_command("add_feed", url, "--user", "ada")
    capsys.readouterr()

    server.add("/feed.xml", feed_xml(server, [("market-day", "Market Day"), ("market-night", "Market Night")]),
               headers={"Content-Type": "application/rss+xml"})
    call_command("fetch_feeds", url)

    assert capsys.readouterr().out.strip() == f"{url}: 1 new stories, ok"
    assert Story.objects.filter(feed__url=url).count() == 2


def test_fetch_feeds_reports_a_dead_feed_as_an_error(server, allow_loopback, capsys):
    User.objects.create_user("ada", password="pw")
    url = publish(server, ["market-day"])
    call_command("add_feed", url, "--user", "ada")
    server.add("/feed.xml", "Hello, plain text", headers={"Content-Type": "text/plain"})

    call_command("fetch_feeds", str(Feed.objects.get(url=url).id))

    assert "error: not a feed" in capsys.readouterr().out
    assert Story.objects.filter(feed__url=url).count() == 1


@pytest.mark.parametrize("args, message", [
    (["ftp://example.org/feed", "--user", "ada"], r"not an http\(s\) URL: ftp://"),
    (["http://127.0.0.1:9/feed.xml", "--user", "nobody"], "no user named 'nobody'"),
])
def test_add_feed_refuses_bad_arguments_with_a_clear_message(args, message):
    User.objects.create_user("ada", password="pw")
    with pytest.raises(CommandError, match=message):
        call_command("add_feed", *args)
    assert not Feed.objects.exists()


@pytest.mark.parametrize("feed", ["\u00b2", "9" * 20, "9" * 5000])
def test_fetch_feeds_names_a_feed_that_is_no_id_and_no_address(feed):
    # "²" passes str.isdigit() and not int(); 20 digits overflow the id column; 5,000 are past int()'s limit.
    with pytest.raises(CommandError, match="no feed"):
        call_command("fetch_feeds", feed)
