"""Every method side by side: precision, recall, F1 and speed on both development sets.

    python -m extraction.compare                      # print the table
    python -m extraction.compare --write-docs docs/extraction.md

The development sets live outside the repository (``SHARED_DIR``, default ``../shared``
beside the repo root); the product never needs them. No figure in the table comes from a
page a learned model has seen: ``mss`` is scored on each set with the model trained on the
other set, ``best`` with the cross-validation model of the page's fold (folds group pages
by site, see ``fold_of``).
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .article import ExtractionError
from .methods import METHODS
from .learned import SETS, trained_on

COMPETITORS = ("trafilatura", "readability-lxml")
FOLDS = 5
START, END = "<!-- methods-table:start -->", "<!-- methods-table:end -->"
_WORD = re.compile(r"\w+")


def shared_dir() -> Path:
    env = os.environ.get("SHARED_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[1] / ".." / "shared"


@dataclass
class Page:
    id: str
    html: str
    gold: str
    url: str | None


def load_set(name: str) -> list[Page]:
    """One development set, as (html, gold text) pages sorted by id."""
    root = shared_dir() / "datasets" / SETS[name]
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for pid in sorted(truth):
        raw = gzip.decompress((root / "html" / f"{pid}.html.gz").read_bytes())
        pages.append(Page(pid, raw.decode("utf-8", errors="replace"), truth[pid]["articleBody"], truth[pid].get("url")))
    return pages


def fold_of(page: Page) -> int:
    """The cross-validation fold of a page: by site when the URL is known, else by id."""
    key = urlsplit(page.url).netloc if page.url else page.id
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % FOLDS


def _shingles(text: str) -> Counter:
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) < 4:
        return Counter([tuple(words)]) if words else Counter()
    return Counter(tuple(words[i:i + 4]) for i in range(len(words) - 3))


def score_page(found: str, gold: str) -> tuple[float, float]:
    """Precision and recall of one page over 4-word shingles."""
    got, want = _shingles(found), _shingles(gold)
    tp = sum((got & want).values())
    precision = tp / sum(got.values()) if got else (1.0 if not want else 0.0)
    recall = tp / sum(want.values()) if want else 1.0
    return precision, recall


def _competitor(name: str):
    if name == "trafilatura":
        import trafilatura

        return lambda html, url: trafilatura.extract(html, url=url) or ""
    import lxml.html
    from readability import Document

    def readability_lxml(html, url):
        return lxml.html.fromstring(Document(html).summary()).text_content()

    return readability_lxml


def _extractor(name: str):
    from . import extract

    if name in COMPETITORS:
        return _competitor(name)
    return lambda html, url: extract(html, url=url, method=name).text


def other_set(held_out: str) -> str:
    """The development set that is not ``held_out``: learned models are trained on it."""
    return next(s for s in SETS if s != held_out)


def evaluate(name: str, set_name: str, pages: list[Page]) -> dict:
    run = _extractor(name)
    precisions, recalls, errors = [], [], 0
    started = time.perf_counter()
    for page in pages:
        try:
            with trained_on(mss=other_set(set_name), best=f"fold{fold_of(page)}"):
                found = run(page.html, page.url)
        except ExtractionError:
            found, errors = "", errors + 1
        p, r = score_page(found, page.gold)
        precisions.append(p)
        recalls.append(r)
    elapsed = time.perf_counter() - started
    p, r = sum(precisions) / len(pages), sum(recalls) / len(pages)
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"P": p, "R": r, "F1": f1, "pages/s": len(pages) / elapsed, "errors": errors}


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
    parser = argparse.ArgumentParser(prog="python -m extraction.compare", description=__doc__.splitlines()[0])
    parser.add_argument("--methods", nargs="+", default=[*METHODS, *COMPETITORS])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--write-docs", type=Path, help="replace the table between the markers in this file")
    args = parser.parse_args(argv)
    unknown = [m for m in args.methods if m not in METHODS and m not in COMPETITORS]
    if unknown:
        parser.error(f"unknown method(s): {', '.join(unknown)}")
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
