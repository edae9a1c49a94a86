"""OPML import as a task: the web request only stores the file; a task subscribes it a chunk at a time, counting.

Each chunk goes through opml.import_opml (the one place that knows how a file's outlines become feeds and
subscriptions, and that queues the new feeds' first fetches after its commit), so a 10,000-feed file is 20 short
transactions instead of one long one, and the import page can show how far it got. Feeds past the user's
MAX_FEEDS_PER_USER are skipped and reported.
"""
from __future__ import annotations

from xml.etree import ElementTree

from django.conf import settings

from extraction.document import xml_text

from ..models import OpmlImport, Subscription
from . import opml
from .feed_fields import Notes
from .subscribe import room_for

MAX_PROBLEMS = 50  # problems kept to show; the count covers them all
MAX_FEED_IDS = 2000  # the progress page follows at most this many feeds
FILE = "The file"  # what a problem of the whole file is about


def create(user, data: bytes) -> OpmlImport:
    return OpmlImport.objects.create(user=user, data=data)


def run(import_id: int) -> None:
    """Import the file; a redelivered task resumes after the last finished chunk."""
    job = OpmlImport.objects.filter(id=import_id).exclude(status=OpmlImport.Status.DONE).first()
    if job is None:
        return
    notes = Notes()
    try:
        outlines = opml._outlines(bytes(job.data), notes)
    except opml.OpmlError as exc:
        job.status, job.error, job.data = OpmlImport.Status.FAILED, str(exc)[:2000], b""
        job.save()
        return
    job.status, job.found, job.error = OpmlImport.Status.RUNNING, len(outlines), ""
    if not job.processed:  # what was read around in the file, shown with the outlines skipped
        job.problems = [[FILE, note] for note in notes.lines()]
    job.save(update_fields=["status", "found", "error", "problems"])
    try:
        for start in range(job.processed, len(outlines), settings.OPML_IMPORT_BATCH):
            chunk = outlines[start:start + settings.OPML_IMPORT_BATCH]
            _import_chunk(job, chunk)
            job.processed = start + len(chunk)
            job.save()
    except Exception as exc:
        # Said on the import page, which otherwise showed "Importing" for good; a retry of the task resumes after
        # the last finished chunk and clears it. The chunk that failed was rolled back whole.
        job.status = OpmlImport.Status.FAILED
        job.error = xml_text(f"it stopped after {job.processed} of {job.found} feeds: {exc}")[:2000]
        OpmlImport.objects.filter(id=job.id).update(status=job.status, error=job.error)
        raise
    job.status, job.data = OpmlImport.Status.DONE, b""
    job.save(update_fields=["status", "data"])


def _import_chunk(job: OpmlImport, chunk: list) -> None:
    kept, over = _within_limit(job.user, chunk)
    report = opml.import_opml(job.user, _document(kept))
    job.subscribed += report.subscribed
    job.already += report.already
    job.skipped += len(report.failed) + len(over)
    limit = f"over your limit of {settings.MAX_FEEDS_PER_USER} feeds"
    job.problems = (job.problems + [list(p) for p in report.failed] + [[url, limit] for url in over])[:MAX_PROBLEMS]
    followed = Subscription.objects.filter(user=job.user, feed_id__in=report.feed_ids).values_list("feed_id", flat=True)
    job.feed_ids = (job.feed_ids + list(followed))[:MAX_FEED_IDS]


def _within_limit(user, chunk: list) -> tuple[list, list[str]]:
    """(outlines to import, urls skipped): feeds the user does not follow yet count against MAX_FEEDS_PER_USER."""
    urls = [url for url, _title, _folder, problem in chunk if url and not problem]
    followed = set(Subscription.objects.filter(user=user, feed__url__in=urls).values_list("feed__url", flat=True))
    room, new, kept, over = room_for(user), set(), [], []
    for outline in chunk:
        url, problem = outline[0], outline[3]
        if url and not problem and url not in followed and url not in new:
            if len(new) >= room:
                over.append(url)
                continue
            new.add(url)
        kept.append(outline)
    return kept, over


def _document(outlines: list) -> bytes:
    """The outlines as a small OPML file again (folders as nested outlines), for opml.import_opml."""
    root = ElementTree.Element("opml", version="2.0")
    folders = {"": ElementTree.SubElement(root, "body")}
    for url, title, folder, _problem in outlines:
        parent, path = folders[""], ""
        for name in filter(None, folder.split(opml.FOLDER_SEPARATOR)):
            path = f"{path}{opml.FOLDER_SEPARATOR}{name}"
            if path not in folders:
                folders[path] = ElementTree.SubElement(parent, "outline", text=name)
            parent = folders[path]
        attrs = {"type": "rss", "text": title, **({"xmlUrl": url} if url else {})}
        ElementTree.SubElement(parent, "outline", attrs)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
