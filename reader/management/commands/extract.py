import gzip
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

import extraction
from extraction.fetch import FetchError
from reader import fetching


class Command(BaseCommand):
    help = "Extract the article from a URL (fetched with the reader's fetch policy) or a local HTML file."

    def add_arguments(self, parser):
        parser.add_argument("source")
        parser.add_argument("--method", default=None)

    def handle(self, source, method, **options):
        from django.conf import settings

        method = method or settings.EXTRACTION_METHOD
        try:
            if source.startswith(("http://", "https://")):
                response = fetching.get(source)
                article = extraction.extract(response.content, url=response.url, method=method,
                                             charset=response.charset)
            else:
                data = Path(source).read_bytes()
                article = extraction.extract(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data,
                                             method=method)
        except (FetchError, extraction.ExtractionError, OSError) as exc:
            raise CommandError(str(exc))
        self.stdout.write(f"# {article.title}\n\n{article.text}")
