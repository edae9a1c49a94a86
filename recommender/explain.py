"""Reasons in words for a score: the features that pushed it most, phrased for the reader."""
from __future__ import annotations

_LIKED = {
    "word": "you liked stories about “{}”",
    "title": "you liked stories about “{}”",
    "name": "you liked stories about “{}”",
    "tag": "you liked stories tagged “{}”",
    "feed": "from “{}”, which you usually rate good",
    "author": "by “{}”, whose stories you liked",
    "site": "from {}, a site you rated well",
    "crowd_story": "other readers rated this story good",
    "crowd_topic": "other readers like stories on this subject",
}
_DISLIKED = {
    "word": "you disliked stories about “{}”",
    "title": "you disliked stories about “{}”",
    "name": "you disliked stories about “{}”",
    "tag": "you disliked stories tagged “{}”",
    "feed": "from “{}”, which you often rate bad",
    "author": "by “{}”, whose stories you rated bad",
    "site": "from {}, a site you rated bad",
    "crowd_story": "other readers rated this story bad",
    "crowd_topic": "other readers dislike stories on this subject",
}
# Contributions (in log-odds) smaller than this are noise, not reasons.
MIN_CONTRIBUTION = 0.05
LIMIT = 3


def phrase(kind: str, label: str, contribution: float) -> str:
    template = (_LIKED if contribution > 0 else _DISLIKED)[kind]
    return template.format(label)


def reasons(contributions: list[tuple[float, str, str]], limit: int = LIMIT) -> list[str]:
    """``contributions``: (log-odds contribution, kind, label). The strongest few, without repeats."""
    out: list[str] = []
    for value, kind, label in sorted(contributions, key=lambda c: -abs(c[0])):
        if abs(value) < MIN_CONTRIBUTION or len(out) == limit:
            break
        text = phrase(kind, label, value)
        if text not in out:  # the same word in title and text reads as one reason
            out.append(text)
    return out
