from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import URLValidator
from django.core.exceptions import ValidationError

from reader.subscribe import subscribe
from reader.tasks import fetch_feed


class Command(BaseCommand):
    help = "Subscribe a user to a feed URL and queue its first fetch."

    def add_arguments(self, parser):
        parser.add_argument("url")
        parser.add_argument("--user", required=True)
        parser.add_argument("--folder", default="")
        parser.add_argument("--now", action="store_true", help="fetch in this process instead of queueing")

    def handle(self, url, user, folder, now, **options):
        try:
            URLValidator(schemes=["http", "https"])(url)
        except ValidationError:
            raise CommandError(f"not an http(s) URL: {url}")
        try:
            owner = get_user_model().objects.get(username=user)
        except get_user_model().DoesNotExist:
            raise CommandError(f"no user named {user!r}")
        feed, created = subscribe(owner, url, folder)
        if now:
            fetch_feed(feed.id)
        else:
            fetch_feed.delay(feed.id)
        self.stdout.write(f"{'subscribed' if created else 'already subscribed'}: {feed.url} (feed {feed.id})")
