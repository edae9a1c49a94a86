from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import URLValidator

from reader.ingestion.subscribe import DiscoveryError, TooManyFeeds, subscribe


class Command(BaseCommand):
    help = ("Subscribe a user to a feed, or to the feed a page links to: a new feed's stories are stored at once "
            "(their pages are queued to the workers).")

    def add_arguments(self, parser):
        parser.add_argument("url", help="a feed URL or a page URL (its feed is discovered)")
        parser.add_argument("--user", required=True)
        parser.add_argument("--folder", default="")

    def handle(self, url, user, folder, **options):
        try:
            URLValidator(schemes=["http", "https"])(url)
        except ValidationError:
            raise CommandError(f"not an http(s) URL: {url}")
        owner = get_user_model().objects.filter(username=user).first()
        if owner is None:
            raise CommandError(f"no user named {user!r}")
        try:
            feed, created, candidates = subscribe(owner, url, folder)
        except (DiscoveryError, TooManyFeeds) as exc:
            raise CommandError(str(exc))
        if feed is None:
            choices = "\n".join(f"  {c.url}  ({c.kind}) {c.title}" for c in candidates)
            raise CommandError(f"{url} offers several feeds; run again with one of them:\n{choices}")
        feed.refresh_from_db()
        stories = feed.stories.count()
        self.stdout.write(f"{'subscribed' if created else 'already subscribed'}: {feed.url} (feed {feed.id}, "
                          f"{stories} stories{', error: ' + feed.last_error if feed.error_count else ''})")
