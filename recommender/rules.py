"""Explicit rules: the user pins a word, author, tag or feed as always-show or always-hide.

Rules override the model's score. When a story matches both kinds, always-show wins: a rule exists
so that the user never misses what they asked for.
"""
from __future__ import annotations

from dataclasses import dataclass

from .features import StoryFeatures, words
from .story import clean_text

SHOW, HIDE = "show", "hide"
RULE_KINDS = ("word", "author", "tag", "feed")
# Feature kinds a rule of each kind looks at.
_MATCHES = {"word": ("word", "title"), "author": ("author",), "tag": ("tag",), "feed": ("feed",)}


@dataclass(frozen=True)
class Rule:
    """``Rule("word", "opec", "show")``; feed rules match the feed id or its title."""

    kind: str
    value: str
    action: str

    def __post_init__(self):
        if self.kind not in RULE_KINDS:
            raise ValueError(f"rule kind must be one of {RULE_KINDS}, not {self.kind!r}")
        if self.action not in (SHOW, HIDE):
            raise ValueError(f"rule action must be {SHOW!r} or {HIDE!r}, not {self.action!r}")
        key = clean_text(self.value).strip().lower()  # cleaned as the stories it matches are
        if self.kind == "word":
            tokens = words(key)
            if len(tokens) != 1:
                raise ValueError(f"a word rule needs exactly one word, got {self.value!r}")
            key = tokens[0]
        if not key:
            raise ValueError("a rule needs a value")
        object.__setattr__(self, "value", key)

    def matches(self, features: StoryFeatures) -> bool:
        if self.kind == "feed" and self.value in (features.feed.lower(), features.feed_title.lower()):
            return True
        kinds = _MATCHES[self.kind]
        return any(k in kinds and key == self.value for k, key in zip(features.kinds, features.keys))

    def explain(self) -> str:
        verb = "always show" if self.action == SHOW else "always hide"
        noun = {"word": "stories mentioning", "author": "stories by", "tag": "stories tagged",
                "feed": "stories from"}[self.kind]
        return f"your rule: {verb} {noun} “{self.value}”"


def first_match(rules: tuple[Rule, ...], features: StoryFeatures) -> Rule | None:
    """The rule deciding this story: any matching show rule, else any matching hide rule."""
    matched = [rule for rule in rules if rule.matches(features)]
    for action in (SHOW, HIDE):
        for rule in matched:
            if rule.action == action:
                return rule
    return None
