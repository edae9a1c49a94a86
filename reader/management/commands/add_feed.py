from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import URLValidator

from reader.ingestion.subscribe import DiscoveryError, TooManyFeeds, subscribe_url
from reader.tasks import fetch_feed


class Command(BaseCommand):
    help = "Subscribe a user to a feed, or to the feed a page links to, and queue its first fetch."

    def add_arguments(self, parser):
        parser.add_argument("url", help="a feed URL or a page URL (its feed is discovered)")
        parser.add_argument("--user", required=True)
        parser.add_argument("--folder", default="")
        parser.add_argument("--now", action="store_true", help="fetch in this process instead of queueing")

    def handle(self, url, user, folder, now, **options):
        try:
            URLValidator(schemes=["http", "https"])(url)
        except ValidationError:
            raise CommandError(f"not an http(s) URL: {url}")
        owner = get_user_model().objects.filter(username=user).first()
        if owner is None:
            raise CommandError(f"no user named {user!r}")
        try:
            feed, _created, candidates = subscribe_url(owner, url, folder)
        except (DiscoveryError, TooManyFeeds) as exc:
            raise CommandError(str(exc))
        if feed is None:
            choices = "\n".join(f"  {c.url}  ({c.kind}) {c.title}" for c in candidates)
            raise CommandError(f"{url} offers several feeds; run again with one of them:\n{choices}")
        if now:
            fetch_feed(feed.id)
        else:
            fetch_feed.delay(feed.id)
        self.stdout.write(f"subscribed: {feed.url} (feed {feed.id})")
