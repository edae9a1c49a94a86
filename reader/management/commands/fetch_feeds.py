from django.core.management.base import BaseCommand

from reader.models import Feed
from reader.tasks import fetch_feed, schedule_due_feeds


class Command(BaseCommand):
    help = "Fetch all due feeds (queued to the workers), or one feed by id or URL in this process."

    def add_arguments(self, parser):
        parser.add_argument("feed", nargs="?", help="feed id or URL; fetched right here")

    def handle(self, feed=None, **options):
        if feed is None:
            self.stdout.write(f"queued {schedule_due_feeds()} due feed(s)")
            return
        target = Feed.objects.get(id=int(feed)) if feed.isdigit() else Feed.objects.get(url=feed)
        new = fetch_feed(target.id)
        target.refresh_from_db()
        status = f"error: {target.last_error}" if target.error_count else "ok"
        self.stdout.write(f"{target.url}: {new} new stories, {status}")
