from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from reader.ingestion.opml import export_opml


class Command(BaseCommand):
    help = "Print a user's subscriptions as OPML 2.0 (folders as nested outlines)."

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True)

    def handle(self, user, **options):
        owner = get_user_model().objects.filter(username=user).first()
        if owner is None:
            raise CommandError(f"no user named {user!r}")
        self.stdout.write(export_opml(owner).decode("utf-8"))
