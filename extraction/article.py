"""The result of an extraction, and the one error extraction raises."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


class ExtractionError(Exception):
    """The input could not be turned into an article (empty, binary, no text...)."""


@dataclass
class Article:
    title: str = ""
    text: str = ""  # paragraphs separated by blank lines
    html: str = ""  # sanitized article HTML, links absolute
    lead_image: str | None = None
    author: str | None = None
    published: str | None = None  # ISO 8601 when known
    language: str | None = None
    method: str = "clump"
    url: str | None = None
    extras: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)
