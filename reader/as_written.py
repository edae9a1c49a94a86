"""Names as the feed wrote them: the recommender keeps words, authors and tags lower-cased, and the pages show
them in the case the stories use ("Henrik Aaltonen", not "henrik aaltonen"). Display only: nothing stored changes.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from .models import Story

_QUOTED = re.compile(r"“([^”]{1,200})”")
TITLES_LOOKED_AT = 50


@lru_cache(maxsize=2048)
def _whole(phrase: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)", re.IGNORECASE)


def find(phrase: str, sources) -> str | None:
    """The phrase as the first source that holds it (as whole words, in any case) writes it."""
    for source in sources:
        found = isinstance(source, str) and _whole(phrase).search(source)
        if found:
            return found.group(0)
    return None


def reason(text: str, *sources: str) -> str:
    """A reason with each “quoted” name in the case the story's own author, title, feed or text uses."""
    return _QUOTED.sub(lambda m: f"“{find(m.group(1), sources) or m.group(1)}”", text)


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
                        if (found := find(value, text if isinstance(text, list) else [text])))
        return forms.most_common(1)[0][0] if forms else None
