"""Every method side by side: precision, recall, F1 and speed on both development sets.

    python -m extraction.evaluation.compare                  # print the table
    python -m extraction.evaluation.compare --write-docs docs/extraction.md

The development sets live outside the repository (``SHARED_DIR``, default ``../shared``
beside the repo root); the product never needs them. No figure in the table comes from a
page a learned model has seen: ``mss`` is scored on each set with the model trained on the
other set, ``best`` with the cross-validation model of the page's fold (folds group pages
by site, see ``fold_of``).
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from urllib.parse import urlsplit

from ..methods import METHODS
from ..methods.learned import SETS, trained_on
from .competitors import load_competitor
from .evaluate import Page, evaluate_method, load_dataset, shared_dir
from .metric import summarize

COMPETITORS = ("trafilatura", "readability-lxml")
FOLDS = 5
START, END = "<!-- methods-table:start -->", "<!-- methods-table:end -->"


def load_set(name: str) -> list[Page]:
    """One development set, as (html, gold text) pages sorted by id."""
    return load_dataset(shared_dir() / "datasets" / SETS[name])


def fold_of(page: Page) -> int:
    """The cross-validation fold of a page: by site when the URL is known, else by id."""
    key = urlsplit(page.url).netloc if page.url else page.id
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % FOLDS


def other_set(held_out: str) -> str:
    """The development set that is not ``held_out``: learned models are trained on it."""
    return next(s for s in SETS if s != held_out)


def evaluate(name: str, set_name: str, pages: list[Page]) -> dict:
    """The shared benchmark metric (``metric.py``) over one set, fold by fold, so every
    page is extracted with the learned models that never saw it or its site."""
    scores, seconds, errors = [], 0.0, 0
    for fold in range(FOLDS):
        with trained_on(mss=other_set(set_name), best=f"fold{fold}"):
            result = evaluate_method([p for p in pages if fold_of(p) == fold], name)
        scores += result.scores
        seconds += result.seconds
        errors += len(result.errors)
    s = summarize(scores)
    return {"P": s.precision, "R": s.recall, "F1": s.f1, "pages/s": len(pages) / seconds, "errors": errors}


def table(results: dict[str, dict[str, dict]], set_names: list[str]) -> str:
    head = "| method | " + " | ".join(f"{s} P | {s} R | {s} F1 | {s} pages/s" for s in set_names) + " |"
    rule = "|---|" + "---:|" * (4 * len(set_names))
    rows = [head, rule]
    for name, per_set in results.items():
        cells = []
        for s in set_names:
            m = per_set[s]
            cells += [f"{m['P']:.3f}", f"{m['R']:.3f}", f"{m['F1']:.3f}", f"{m['pages/s']:.0f}"]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def write_docs(path: Path, text: str) -> None:
    doc = path.read_text(encoding="utf-8") if path.exists() else ""
    if START not in doc or END not in doc:
        raise SystemExit(f"{path}: markers {START} / {END} not found")
    before, rest = doc.split(START, 1)
    after = rest.split(END, 1)[1]
    path.write_text(f"{before}{START}\n{text}\n{END}{after}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m extraction.evaluation.compare", description=__doc__.splitlines()[0])
    parser.add_argument("--methods", nargs="+", default=[*METHODS, *COMPETITORS])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--write-docs", type=Path, help="replace the table between the markers in this file")
    args = parser.parse_args(argv)
    unknown = [m for m in args.methods if m not in METHODS and m not in COMPETITORS]
    if unknown:
        parser.error(f"unknown method(s): {', '.join(unknown)}")
    missing = [m for m in args.methods if m in COMPETITORS and load_competitor(m) is None]
    if missing:
        parser.error(f"not installed: {', '.join(missing)} (pip install -e '.[bench]')")
    data = {s: load_set(s) for s in args.sets}
    results: dict[str, dict[str, dict]] = {}
    for name in args.methods:
        results[name] = {s: evaluate(name, s, data[s]) for s in args.sets}
        print(f"{name}: " + ", ".join(f"{s} F1 {m['F1']:.3f}" for s, m in results[name].items()), file=sys.stderr)
    printed = table(results, args.sets)
    print(printed)
    if args.write_docs:
        write_docs(args.write_docs, printed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
