from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

import extraction
from extraction.__main__ import read_source
from reader.ingestion import fetching


class Command(BaseCommand):
    help = "Extract the article from a URL (fetched under the reader's fetch policy) or a local HTML file."

    def add_arguments(self, parser):
        parser.add_argument("source", help="an http(s) URL, an HTML file (may be gzipped) or - for stdin")
        parser.add_argument("--method", default=None, choices=sorted(extraction.METHODS))

    def handle(self, source, method, **options):
        try:
            data, url, charset = read_source(source, fetching.policy())
            article = extraction.extract(data, url=url, method=method or settings.EXTRACTION_METHOD, charset=charset)
        except extraction.ExtractionError as exc:
            raise CommandError(str(exc))
        self.stdout.write(f"# {article.title}\n\n{article.text}")
