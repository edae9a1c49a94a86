from django.core.management.base import BaseCommand, CommandError

from reader.ingestion import crawl
from reader.ingestion.digits import row_id
from reader.ingestion.politeness import HostBusy
from reader.models import Feed


class Command(BaseCommand):
    help = "Fetch all due feeds (queued to the workers), or one feed by id or URL in this process."

    def add_arguments(self, parser):
        parser.add_argument("feed", nargs="?", help="feed id or URL; fetched right here")

    def handle(self, feed=None, **options):
        if feed is None:
            self.stdout.write(f"queued {crawl.queue_due_feeds()} due feed(s)")
            return
        # "²" passes str.isdigit() and not int(); 20 digits overflow the column: both were tracebacks.
        feed_id = row_id(feed)
        target = Feed.objects.filter(**({"id": feed_id} if feed_id is not None else {"url": feed})).first()
        if target is None:
            raise CommandError(f"no feed {feed!r}")
        try:
            outcome = crawl.fetch_here(target)
        except HostBusy as busy:
            raise CommandError(f"{busy.host} is busy; try again in {busy.retry_in:.0f} s")
        if outcome is None:
            raise CommandError(f"{target.url} is being fetched by a worker right now")
        status = f"error: {target.last_error}" if target.error_count else "ok"
        self.stdout.write(f"{target.url}: {len(outcome.new_story_ids)} new stories, {status}")
