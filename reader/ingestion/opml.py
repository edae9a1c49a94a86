"""OPML import and export of a user's subscriptions; nested outlines are folders ("News/Tech").

Import only records subscriptions (no network), so a 1,000-feed file goes in one transaction: subscribe.follow
makes the feeds and subscriptions and queues the new feeds' first fetches after the commit, and fetch errors then
show on each feed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree import ElementTree

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils import timezone

from extraction.document import xml_text

from . import charsets, lenient_xml, subscribe
from .feed_fields import Notes, unstorable_url

FOLDER_SEPARATOR = "/"
MAX_FOLDER_DEPTH = 20  # deeper outlines are read into the 20th folder; a folder path is 200 characters anyway
_valid_url = URLValidator(schemes=["http", "https"])


class OpmlError(Exception):
    """The file is not OPML we can read; nothing was imported."""


@dataclass
class ImportReport:
    found: int = 0
    subscribed: int = 0
    already: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (url or title, reason)
    notes: list[str] = field(default_factory=list)  # what was read around in the file as a whole
    new_feed_ids: list[int] = field(default_factory=list)
    feed_ids: list[int] = field(default_factory=list)  # every feed the file names that could be used

    def __str__(self) -> str:
        lines = [f"{self.found} feeds in the file: {self.subscribed} subscribed, {self.already} already subscribed, "
                 f"{len(self.failed)} failed"]
        lines += [f"  note: {note}" for note in self.notes]
        lines += [f"  failed: {what}: {why}" for what, why in self.failed]
        return "\n".join(lines)


def _outlines(data: bytes, notes: Notes | None = None):
    """(url, title, folder, problem) for every outline that is, or claims to be, a feed; what was read around in
    the file is added to notes."""
    root = _root(data, Notes() if notes is None else notes)
    body = root.find("body") if root.tag.lower() == "opml" else None
    if body is None:
        raise OpmlError("not an OPML file: no <opml> root with a <body>")
    return list(_walk(body))


def _root(data: bytes, notes: Notes):
    """The file's root element. A file expat refuses (a bare "&" in a URL, a Latin-1 byte in a UTF-8 file, a
    reference to no character) is read again repaired, so that its other outlines still come in."""
    data = charsets.usable_declaration(data, notes)  # "rot13" made expat raise LookupError, failing the task
    try:
        return fromstring(data)
    except DefusedXmlException as exc:
        raise OpmlError(f"not an OPML file: {exc}") from None
    except (ElementTree.ParseError, ValueError) as exc:
        strict = exc
    try:
        root = fromstring(lenient_xml.repaired(data, notes))
    except (ElementTree.ParseError, DefusedXmlException, ValueError):
        raise OpmlError(f"not an OPML file: {strict}") from None
    notes.add(f"the file is not well-formed XML ({strict}); read it leniently")
    return root


def _walk(body):
    """Outlines in document order, without recursion: a file nested thousands deep is read, not a crash."""
    stack = [(iter(body.findall("outline")), [])]
    while stack:
        outline = next(stack[-1][0], None)
        if outline is None:
            stack.pop()
            continue
        path = stack[-1][1]
        title = " ".join((outline.get("title") or outline.get("text") or "").split())
        url = (outline.get("xmlUrl") or outline.get("xmlurl") or "").strip()
        if url:
            yield url, title, FOLDER_SEPARATOR.join(path)[:200], _check(url)
        elif not len(outline) and (outline.get("type") or "").lower() in ("rss", "atom"):
            yield "", title or "(untitled outline)", "", "no xmlUrl attribute"
        if len(outline):  # a feed's outline holding outlines is their folder too: none of them is lost
            folder = path + [title or "Untitled"] if len(path) < MAX_FOLDER_DEPTH else path
            stack.append((iter(outline.findall("outline")), folder))


def _check(url: str) -> str:
    if why := unstorable_url(url):
        return why
    try:
        _valid_url(url)
    except ValidationError:
        return "not an http(s) URL"
    return ""


@transaction.atomic
def import_opml(user, data: bytes) -> ImportReport:
    report, wanted, notes = ImportReport(), {}, Notes()
    for url, title, folder, problem in _outlines(data, notes):
        report.found += 1
        if problem:
            report.failed.append((url or title, problem))
        elif url in wanted:
            report.failed.append((url, "listed twice in the file; the first folder is kept"))
        else:
            wanted[url] = (folder, title)  # the file's titles are this user's labels for the feeds
    followed = subscribe.follow(user, wanted)
    report.new_feed_ids = followed.new_feed_ids
    report.feed_ids = [followed.feed_ids[u] for u in wanted]
    report.already = len(followed.already)
    report.subscribed = len(wanted) - report.already
    report.notes = notes.lines()
    return report


def _outline(parent, attrs: dict):
    # Names stored before feeds were cleaned of control characters may hold some, and ElementTree writes them
    # as they are: one such name made the whole file unreadable to every reader, this one included.
    return ElementTree.SubElement(parent, "outline", {key: xml_text(value) for key, value in attrs.items()})


def export_opml(user) -> bytes:
    root = ElementTree.Element("opml", version="2.0")
    head = ElementTree.SubElement(root, "head")
    ElementTree.SubElement(head, "title").text = f"Subscriptions of {user.get_username()}"
    ElementTree.SubElement(head, "dateCreated").text = timezone.now().strftime("%a, %d %b %Y %H:%M:%S GMT")
    body = ElementTree.SubElement(root, "body")
    folders = {(): body}
    subscriptions = user.subscriptions.select_related("feed").order_by("folder", "feed__title", "feed__url")
    for sub in subscriptions:
        path = tuple(part for part in sub.folder.split(FOLDER_SEPARATOR) if part)
        for depth in range(1, len(path) + 1):
            if path[:depth] not in folders:
                name = path[depth - 1]
                folders[path[:depth]] = _outline(folders[path[:depth - 1]], {"text": name, "title": name})
        feed = sub.feed
        kind = "atom" if feed.format.startswith("atom") else "rss"
        attrs = {"type": kind, "text": sub.name, "title": sub.name, "xmlUrl": feed.url}
        if feed.site_url:
            attrs["htmlUrl"] = feed.site_url
        _outline(folders[path], attrs)
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
