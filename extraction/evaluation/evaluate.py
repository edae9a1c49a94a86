"""Score extractors on the shared datasets, each split into a tuning and a check half.

    python -m extraction.evaluation.evaluate [--dataset DIR ...] [--method clump,best] [--compare trafilatura,readability-lxml]

Without ``--dataset`` it runs the three shared sets: two with gold text
(``html/<id>.html.gz`` + ``ground-truth.json``, token F1, ``metric.py``) and trafilatura's
(``snippets.json``, the snippet protocol, ``evaluation/snippets.py``), and prints one table
with both halves (``evaluation/split.py``) and their gap, competitors in the same run.
``--perturb old,...`` scores the same sets rewritten in older markup styles (``perturb.py``).

Reusable pieces: ``load_dataset``, ``evaluate_method`` (one extractor over a dataset, with
per-page scores and timing), ``format_table``, ``format_split_table`` and ``worst_pages``.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..article import ExtractionError
from ..methods import METHODS
from .competitors import COMPETITORS, load_competitor
from .metric import PageScore, Summary, score_page, summarize
from .perturb import TRANSFORMS, perturb
from .snippets import SnippetScore, score_snippets, summarize_snippets
from .split import CHECK, TUNE, half_of

# Readability's test pages mix real page snapshots with hand-written fixtures; pages
# below this size are the fixtures.
SMALL_PAGE_BYTES = 5000


@dataclass(frozen=True)
class Page:
    id: str
    html: bytes
    gold: str
    url: str
    # Snippet protocol: text that must appear in the output, and text that must not.
    wanted: tuple[str, ...] | None = None
    unwanted: tuple[str, ...] = ()


def score(page: Page, text: str) -> PageScore | SnippetScore:
    if page.wanted is None:
        return score_page(text, page.gold)
    return score_snippets(text, page.wanted, page.unwanted)


@dataclass
class EvalResult:
    method: str
    pages: list[Page]
    predictions: list[str]
    scores: list
    seconds: float
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def pages_per_second(self) -> float:
        return len(self.pages) / self.seconds if self.seconds else 0.0

    @property
    def protocol(self) -> str:
        return "snippets" if self.pages and self.pages[0].wanted is not None else "token F1"

    def summary(self, keep: Callable[[Page], bool] | None = None) -> Summary:
        kept = [s for p, s in zip(self.pages, self.scores) if keep is None or keep(p)]
        return summarize_snippets(kept) if self.protocol == "snippets" else summarize(kept)


def load_dataset(directory: str | Path) -> list[Page]:
    """Pages with gold text (``ground-truth.json``) or with snippets (``snippets.json``)."""
    directory = Path(directory)
    snippets = directory / "snippets.json"
    truth = json.loads((snippets if snippets.exists() else directory / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for page_id in sorted(truth):
        entry = truth[page_id]
        html = gzip.decompress((directory / "html" / f"{page_id}.html.gz").read_bytes())
        if snippets.exists():
            # The protocol passes no URL to any extractor.
            pages.append(Page(page_id, html, "", "", tuple(entry["with"]), tuple(entry["without"])))
        else:
            pages.append(Page(page_id, html, entry.get("articleBody") or "", entry.get("url") or ""))
    return pages


def extractor_for(name: str) -> Callable[[bytes, str | None], str]:
    """One of our methods or an installed competitor, as ``fn(html_bytes, url) -> text``."""
    if name in METHODS:
        from ..pipeline import extract

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
        scores.append(score(page, text))
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


def format_split_table(runs: Iterable[tuple[str, EvalResult]]) -> str:
    """One row per (dataset, extractor): F1 on each half, the gap, and the whole set."""
    rows = ["| set | protocol | method | tune pages | check pages | F1 tune | F1 check | gap (tune − check) "
            "| F1 all | P check | R check | errors | pages/s |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for set_name, res in runs:
        tune, check = (res.summary(lambda p, h=h: half_of(p.id) == h) for h in (TUNE, CHECK))
        every = res.summary()
        rows.append(f"| {set_name} | {res.protocol} | {res.method} | {tune.pages} | {check.pages} | "
                    f"{tune.f1:.3f} ± {tune.f1_sd:.3f} | {check.f1:.3f} ± {check.f1_sd:.3f} | "
                    f"{tune.f1 - check.f1:+.3f} | {every.f1:.3f} | {check.precision:.3f} | {check.recall:.3f} | "
                    f"{len(res.errors)} | {res.pages_per_second:.0f} |")
    return "\n".join(rows)


def worst_pages(result: EvalResult, count: int = 10, keep: Callable[[Page], bool] | None = None):
    """The ``count`` lowest-scoring pages (of those ``keep`` passes) as (id, score)."""
    ranked = sorted(((p, s) for p, s in zip(result.pages, result.scores) if keep is None or keep(p)),
                    key=lambda ps: (ps[1].f1, -getattr(ps[1], "fp", 0)))
    return [(page.id, s) for page, s in ranked[:count]]


def describe(s: PageScore | SnippetScore) -> str:
    if isinstance(s, SnippetScore):
        return f"{s.f1:.3f}  TP={s.tp} FP={s.fp} FN={s.fn}"
    return f"{s.f1:.3f}  P={s.precision or 0:.3f}  R={s.recall or 0:.3f}"


def is_real_page(page: Page) -> bool:
    return len(page.html) >= SMALL_PAGE_BYTES


def shared_dir() -> Path:
    """The folder of shared data (``datasets/``): ``SHARED_DIR``, else ``shared`` beside the repository."""
    env = os.environ.get("SHARED_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2] / ".." / "shared"


DEFAULT_SETS = ("article-extraction-benchmark", "readability-test-pages", "trafilatura-eval")


def cached_run(pages: list[Page], name: str, cache: Path | None, set_name: str) -> EvalResult:
    """``evaluate_method``, with the predictions of a competitor kept in ``cache``: they do
    not change while our method is tuned, and they are the slow part of a run."""
    path = cache / f"{set_name}--{name}.json" if cache and name not in METHODS else None  # set_name says the perturbation
    if path is not None and path.exists():
        saved = json.loads(path.read_text(encoding="utf-8"))
        texts = [saved["texts"][page.id] for page in pages]
        return EvalResult(name, pages, texts, [score(page, text) for page, text in zip(pages, texts)],
                          saved["seconds"], saved["errors"])
    result = evaluate_method(pages, name, progress=sys.stderr.isatty())
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"seconds": result.seconds, "errors": result.errors,
                                    "texts": dict(zip((p.id for p in pages), result.predictions))}))
    return result


def perturbed(pages: list[Page], variant: str) -> list[Page]:
    """The pages with their HTML rewritten by a markup perturbation (``perturb.py``), gold unchanged."""
    if variant == "none":
        return pages
    return [replace(page, html=perturb(page.html, variant)) for page in pages]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m extraction.evaluation.evaluate", description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", action="append",
                        help=f"a dataset folder; repeatable (default: {', '.join(DEFAULT_SETS)} in {shared_dir() / 'datasets'})")
    parser.add_argument("--method", default="clump", help=f"ours, comma-separated, from: {', '.join(METHODS)}")
    parser.add_argument("--compare", default="trafilatura,readability-lxml",
                        help=f"competitors, comma-separated, from: {', '.join(COMPETITORS)}; skipped when not installed")
    parser.add_argument("--cache", type=Path, help="folder to keep competitors' predictions in between runs")
    parser.add_argument("--perturb", default="",
                        help=f"score every set as rewritten by these markup perturbations, comma-separated, from: "
                             f"{', '.join(TRANSFORMS)} (evaluation/perturb.py); 'none' is the pages as they are")
    parser.add_argument("--worst", type=int, default=10, help="how many worst tuning pages to list")
    args = parser.parse_args(argv)

    folders = [Path(d) for d in args.dataset] if args.dataset else [shared_dir() / "datasets" / name for name in DEFAULT_SETS]
    names = [n.strip() for n in f"{args.method},{args.compare}".split(",") if n.strip()]
    variants = [v.strip() for v in (args.perturb or "none").split(",") if v.strip()]
    unknown = [v for v in variants if v != "none" and v not in TRANSFORMS]
    if unknown:
        parser.error(f"unknown perturbation {', '.join(unknown)}; known: none, {', '.join(TRANSFORMS)}")
    runs = []
    for folder in folders:
        original = load_dataset(folder)
        for variant in variants:
            pages, set_name = perturbed(original, variant), folder.name if variant == "none" else f"{folder.name} [{variant}]"
            for name in names:
                try:
                    runs.append((set_name, cached_run(pages, name, args.cache, set_name)))
                except ExtractionError as exc:
                    print(f"skipping {name}: {exc}", file=sys.stderr)
    print(format_split_table(runs))
    for set_name, res in runs:
        if res.method in METHODS and args.worst:
            # Only tuning pages are listed: the check half is not looked at page by page.
            print(f"\nworst tuning pages of {set_name} for {res.method} (F1, P/R or TP/FP/FN):")
            for page_id, s in worst_pages(res, args.worst, keep=lambda p: half_of(p.id) == TUNE):
                note = f"  error: {res.errors[page_id]}" if page_id in res.errors else ""
                print(f"  {describe(s)}  {page_id}{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
