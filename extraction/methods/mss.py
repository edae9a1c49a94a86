"""Maximum subsequence segmentation (Pasternack & Roth, WWW 2009).

The page becomes one sequence of tokens: opening and closing tags, words and numbers.
A naive Bayes classifier, trained on labelled pages, gives each token the probability
that it belongs to the article from its token trigram, the token itself and its parent
tag. Shifted to [-0.5, 0.5], the scores reward article tokens and punish the rest; the
contiguous run with the largest sum is the article. One run means one article: the
method cannot skip an advertisement in the middle, and never keeps two separate parts.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import lxml.html

from ..article import ExtractionError
from ..blocks import RUN_BOUNDARIES, walk
from .boilerpipe import add_paragraph
from .learned import load_model

_WORD = re.compile(r"\w+")

@dataclass
class Token:
    value: str  # "<p>", "</p>", a lower-cased word, or "<num>"
    parent: str  # the tag of the enclosing element
    block: int  # index of the text block the token sits in, for rendering
    word: str = ""  # the word as written, empty for tags


def tokenize(root) -> list[Token]:
    """Tags, words and numbers in document order."""
    tokens: list[Token] = []
    block = 0
    parents: list[str] = []

    def words(text: str | None):
        for word in _WORD.findall(text or ""):
            value = "<num>" if word.isdigit() else word.lower()
            tokens.append(Token(value, parents[-1] if parents else "", block, word))

    for kind, value in walk(root):
        if kind == "text":
            words(value)
        elif kind == "open":
            block += value.tag in RUN_BOUNDARIES
            tokens.append(Token(f"<{value.tag}>", value.tag, block))
            parents.append(value.tag)
        else:
            parents.pop()
            tokens.append(Token(f"</{value.tag}>", value.tag, block))
            block += value.tag in RUN_BOUNDARIES
    return tokens


def features(tokens: list[Token], i: int) -> list[str]:
    prev = tokens[i - 1].value if i else "^"
    nxt = tokens[i + 1].value if i + 1 < len(tokens) else "$"
    return [f"t:{prev} {tokens[i].value} {nxt}", f"u:{tokens[i].value}", f"p:{tokens[i].parent}"]


def token_scores(tokens: list[Token], model: dict) -> list[float]:
    """P(article | features) - 0.5 for every token, from the naive Bayes log-odds."""
    weights, prior = model["weights"], model["prior"]
    scores = []
    for i in range(len(tokens)):
        log_odds = prior + sum(weights.get(f, 0.0) for f in features(tokens, i))
        scores.append(1 / (1 + math.exp(-max(-30.0, min(30.0, log_odds)))) - 0.5)
    return scores


def max_subsequence(scores: list[float]) -> tuple[int, int]:
    """Start and end (exclusive) of the contiguous run with the largest sum."""
    best, best_span = 0.0, (0, 0)
    running, start = 0.0, 0
    for i, score in enumerate(scores):
        if running <= 0:
            running, start = 0.0, i
        running += score
        if running > best:
            best, best_span = running, (start, i + 1)
    return best_span


def render(tokens: list[Token]):
    """One paragraph per text block among the tokens."""
    wrapper = lxml.html.Element("div")
    paragraphs: dict[int, list[str]] = {}
    for token in tokens:
        if token.word:
            paragraphs.setdefault(token.block, []).append(token.word)
    for words in paragraphs.values():
        add_paragraph(wrapper, " ".join(words))
    return wrapper


def find_article(doc):
    body = doc.find("body")
    tokens = tokenize(body if body is not None else doc)
    start, end = max_subsequence(token_scores(tokens, load_model("mss")))
    article = render(tokens[start:end])
    if not len(article):
        raise ExtractionError("mss found no article tokens")
    return article
