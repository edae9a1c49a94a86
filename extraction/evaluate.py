"""Score extractors on a folder of pages with gold text (``html/<id>.html.gz`` + ``ground-truth.json``).

    python -m extraction.evaluate --dataset DIR [--method M] [--compare trafilatura,readability-lxml]

Reusable pieces: ``load_dataset``, ``evaluate_method`` (one extractor over a dataset, with
per-page scores and timing), ``format_table`` and ``worst_pages``.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .article import ExtractionError
from .competitors import COMPETITORS, load_competitor
from .methods import METHODS
from .metric import PageScore, Summary, score_page, summarize

# Readability's test pages mix real page snapshots with hand-written fixtures; pages
# below this size are the fixtures and are reported apart.
SMALL_PAGE_BYTES = 5000


@dataclass(frozen=True)
class Page:
    id: str
    html: bytes
    gold: str
    url: str


@dataclass
class EvalResult:
    method: str
    pages: list[Page]
    predictions: list[str]
    scores: list[PageScore]
    seconds: float
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def pages_per_second(self) -> float:
        return len(self.pages) / self.seconds if self.seconds else 0.0

    def summary(self, keep: Callable[[Page], bool] | None = None) -> Summary:
        return summarize([s for p, s in zip(self.pages, self.scores) if keep is None or keep(p)])


def load_dataset(directory: str | Path) -> list[Page]:
    directory = Path(directory)
    truth = json.loads((directory / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for page_id in sorted(truth):
        path = directory / "html" / f"{page_id}.html.gz"
        pages.append(Page(page_id, gzip.decompress(path.read_bytes()), truth[page_id].get("articleBody") or "",
                          truth[page_id].get("url") or ""))
    return pages


def extractor_for(name: str) -> Callable[[bytes, str | None], str]:
    """One of our methods or an installed competitor, as ``fn(html_bytes, url) -> text``."""
    if name in METHODS:
        from .pipeline import extract

        return lambda data, url: extract(data, url=url or None, method=name).text
    if name in COMPETITORS:
        run = load_competitor(name)
        if run is None:
            raise ExtractionError(f"{name} is not installed (pip install -e '.[bench]')")
        return run
    raise ExtractionError(f"unknown method {name!r}; known: {', '.join([*METHODS, *COMPETITORS])}")


class Progress:
    """A one-line progress bar on stderr, silent when stderr is not a terminal and not forced."""

    def __init__(self, label: str, total: int, stream=None, force: bool = False):
        self.label, self.total, self.stream = label, total, stream or sys.stderr
        self.enabled = force or self.stream.isatty()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(self.total, 1)
        self.stream.write(f"\r{self.label:<18} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}")
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def evaluate_method(dataset: str | Path | list[Page], method: str, progress: bool = False) -> EvalResult:
    """Run one extractor over every page; time only the extraction itself."""
    pages = load_dataset(dataset) if isinstance(dataset, (str, Path)) else dataset
    run = extractor_for(method)
    bar = Progress(method, len(pages), force=progress)
    predictions, scores, errors, seconds = [], [], {}, 0.0
    for done, page in enumerate(pages, 1):
        start = time.perf_counter()
        try:
            text = run(page.html, page.url)
        except ExtractionError as exc:
            text, errors[page.id] = "", str(exc)
        except Exception as exc:  # a competitor's crash counts as an empty answer, not a harness failure
            text, errors[page.id] = "", f"{type(exc).__name__}: {exc}"
        seconds += time.perf_counter() - start
        predictions.append(text)
        scores.append(score_page(text, page.gold))
        bar.update(done)
    return EvalResult(method, pages, predictions, scores, seconds, errors)


def format_table(results: Iterable[EvalResult], keep: Callable[[Page], bool] | None = None) -> str:
    rows = ["| method | pages | precision | recall | F1 | accuracy | pages/s |", "|---|---|---|---|---|---|---|"]
    for res in results:
        s = res.summary(keep)
        rows.append(f"| {res.method} | {s.pages} | {s.precision:.3f} ± {s.precision_sd:.3f} | "
                    f"{s.recall:.3f} ± {s.recall_sd:.3f} | {s.f1:.3f} ± {s.f1_sd:.3f} | "
                    f"{s.accuracy:.3f} ± {s.accuracy_sd:.3f} | {res.pages_per_second:.0f} |")
    return "\n".join(rows)


def worst_pages(result: EvalResult, count: int = 10) -> list[tuple[str, PageScore]]:
    ranked = sorted(zip(result.pages, result.scores), key=lambda ps: ps[1].f1)
    return [(page.id, score) for page, score in ranked[:count]]


def is_real_page(page: Page) -> bool:
    return len(page.html) >= SMALL_PAGE_BYTES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m extraction.evaluate", description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True, help="folder with html/<id>.html.gz and ground-truth.json")
    parser.add_argument("--method", default="clump", help=f"one of: {', '.join(METHODS)}")
    parser.add_argument("--compare", default="", help=f"comma-separated, from: {', '.join(COMPETITORS)}")
    parser.add_argument("--worst", type=int, default=10, help="how many worst pages to list")
    args = parser.parse_args(argv)

    pages = load_dataset(args.dataset)
    names = [args.method, *[n.strip() for n in args.compare.split(",") if n.strip()]]
    results = []
    for name in names:
        try:
            results.append(evaluate_method(pages, name, progress=sys.stderr.isatty()))
        except ExtractionError as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
    print(f"## {Path(args.dataset).name}: all {len(pages)} pages\n")
    print(format_table(results))
    small = sum(not is_real_page(p) for p in pages)
    if 0 < small < len(pages):
        print(f"\n## {Path(args.dataset).name}: {len(pages) - small} pages of {SMALL_PAGE_BYTES} bytes or more\n")
        print(format_table(results, keep=is_real_page))
    for res in results[:1]:
        print(f"\nworst pages for {res.method} (F1, precision, recall):")
        for page_id, s in worst_pages(res, args.worst):
            note = f"  error: {res.errors[page_id]}" if page_id in res.errors else ""
            print(f"  {s.f1:.3f}  P={s.precision or 0:.3f}  R={s.recall or 0:.3f}  {page_id}{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
