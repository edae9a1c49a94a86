"""Names as the feed wrote them: the recommender keeps words, authors and tags lower-cased, and the pages show
them in the case the stories use ("Henrik Aaltonen", not "henrik aaltonen"). Display only: nothing stored changes.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ..models import Story

_QUOTED = re.compile(r"“([^”]{1,200})”")
TITLES_LOOKED_AT = 50
_SENTENCE_ENDS = ".!?:;\"“”‘’'(—–-"


@lru_cache(maxsize=2048)
def _whole(phrase: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)", re.IGNORECASE)


def _opens_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in _SENTENCE_ENDS


def find(phrase: str, names=(), texts=()) -> str | None:
    """The phrase as written: by a name field (author, feed, tag) that is it, else by a title or text that
    holds it mid-sentence (a capital opening a sentence says nothing about the word)."""
    for name in names:
        if isinstance(name, str) and name.casefold() == phrase.casefold():
            return name
    for text in texts:
        for found in _whole(phrase).finditer(text if isinstance(text, str) else ""):
            if not _opens_sentence(text, found.start()):
                return found.group(0)
    return None


def reason(text: str, names=(), texts=()) -> str:
    """A reason with each “quoted” name in the case the story's author, feed, tags, title or text uses."""
    return _QUOTED.sub(lambda m: f"“{find(m.group(1), names, texts) or m.group(1)}”", text)


class Names:
    """For the taste page: a feature's or rule's value as the user's stories most often write it."""

    def __init__(self, user):
        self.user, self.seen = user, {}

    def show(self, kind: str, value: str) -> str:
        if (kind, value) not in self.seen:
            self.seen[kind, value] = self._look_up(kind, value) or value
        return self.seen[kind, value]

    def _look_up(self, kind: str, value: str) -> str | None:
        stories = Story.objects.filter(entries__user=self.user)
        if kind == "author":
            return stories.filter(author__iexact=value).values_list("author", flat=True).first()
        if kind == "feed":
            return None  # feeds are shown by their own title already
        column = "tags" if kind == "tag" else "title"
        texts = stories.filter(**{f"{column}__icontains": value}).values_list(column, flat=True)[:TITLES_LOOKED_AT]
        forms = Counter(found for text in texts
                        if (found := find(value, names=text) if kind == "tag" else find(value, texts=[text])))
        return forms.most_common(1)[0][0] if forms else None
