from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from reader.ingestion.opml import OpmlError, import_opml


class Command(BaseCommand):
    help = "Subscribe a user to every feed of an OPML file (folders kept) and queue their first fetch."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--user", required=True)

    def handle(self, file, user, **options):
        owner = get_user_model().objects.filter(username=user).first()
        if owner is None:
            raise CommandError(f"no user named {user!r}")
        try:
            report = import_opml(owner, Path(file).read_bytes())
        except (OSError, OpmlError) as exc:
            raise CommandError(str(exc))
        self.stdout.write(str(report))
