"""Reuters-21578 as a stream of news stories with desks (feeds) for the recommender benchmark.

Desks are derived from the data: the most frequent topic codes each make a desk; a story goes to the
rarest desk among its topics (the most specific one), and stories without a desk topic go to a
"US general" or "World general" desk by their first place.
"""
from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

import recommender

_DOC = re.compile(r"<REUTERS[^>]*NEWID=\"(\d+)\">(.*?)</REUTERS>", re.S)
_FIELD = {name: re.compile(rf"<{name}>(.*?)</{name}>", re.S)
          for name in ("DATE", "TITLE", "BODY", "TOPICS", "PLACES", "PEOPLE", "ORGS", "EXCHANGES")}
_D = re.compile(r"<D>(.*?)</D>")
DESK_TOPICS = 14


@dataclass(frozen=True)
class NewsItem:
    id: int
    date: datetime
    title: str
    body: str
    topics: tuple[str, ...]
    places: tuple[str, ...]
    entities: tuple[str, ...]  # people, orgs, exchanges: named entities the text mentions
    desk: str = ""

    @property
    def tags(self) -> tuple[str, ...]:
        """What a feed would publish as categories: topic codes and places (not the entities)."""
        return self.topics + self.places


def _text(match) -> str:
    return html.unescape(re.sub(r"&#\d+;", " ", match.group(1))).strip() if match else ""


def _parse(doc_id: str, chunk: str) -> NewsItem | None:
    fields = {name: pattern.search(chunk) for name, pattern in _FIELD.items()}
    title, body = _text(fields["TITLE"]), _text(fields["BODY"])
    if not title or not fields["DATE"]:
        return None
    try:
        date = datetime.strptime(fields["DATE"].group(1).strip().split(".")[0], "%d-%b-%Y %H:%M:%S")
    except ValueError:
        return None
    def codes(name):
        return tuple(_D.findall(fields[name].group(1))) if fields[name] else ()
    return NewsItem(int(doc_id), date, title, re.sub(r"\s+", " ", body).removesuffix(" Reuter"),
                    codes("TOPICS"), codes("PLACES"), codes("PEOPLE") + codes("ORGS") + codes("EXCHANGES"))


def load(dataset: Path) -> list[NewsItem]:
    """Dated, titled, de-duplicated stories in time order, each assigned to a desk."""
    items, seen = [], set()
    for path in sorted(Path(dataset).glob("reut2-*.sgm")):
        for doc_id, chunk in _DOC.findall(path.read_text(encoding="latin-1")):
            item = _parse(doc_id, chunk)
            if item and (item.title, item.body) not in seen:
                seen.add((item.title, item.body))
                items.append(item)
    if not items:
        raise SystemExit(f"no Reuters stories found under {dataset}")
    items.sort(key=lambda s: (s.date, s.id))
    frequency = Counter(t for s in items for t in s.topics)
    desks = [t for t, _ in frequency.most_common(DESK_TOPICS)]
    rarest_first = sorted(desks, key=lambda t: frequency[t])
    def desk(item):
        for topic in rarest_first:
            if topic in item.topics:
                return topic
        return "us-general" if item.places[:1] == ("usa",) else "world-general"
    return [NewsItem(**{**item.__dict__, "desk": desk(item)}) for item in items]


def as_story(index: int, item: NewsItem) -> recommender.Story:
    """The story as the reader would hold it: its desk as the feed, topics and places as tags."""
    return recommender.Story(id=index, title=item.title, text=item.body, feed=item.desk,
                             feed_title=f"{item.desk} desk", tags=list(item.tags), published=item.date)


# Capitalised at a sentence start or a date: not what a reader has a taste for.
_NOT_NAMES = frozenset(ENGLISH_STOP_WORDS) | {
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "note", "oper", "pay april", "group", "department", "house"}
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,})*")


def named_entities(items: list[NewsItem], min_stories: int = 20, max_share: float = 0.02) -> list[tuple[str, ...]]:
    """Per story: its entity codes plus capitalised names from the text that recur across the corpus
    but are not everyday words (seen in at least ``min_stories`` stories, at most ``max_share`` of them)."""
    found = [set(_NAME.findall(item.body)) for item in items]
    frequency = Counter(name for names in found for name in names)
    keep = {n for n, c in frequency.items()
            if min_stories <= c <= max_share * len(items) and n.lower() not in _NOT_NAMES}
    return [item.entities + tuple(sorted(n.lower() for n in names & keep))
            for item, names in zip(items, found)]
