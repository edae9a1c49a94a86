"""Extraction time against nesting depth: the same text, flat or inside hundreds of nested layout tables.

    python benchmarks/extraction_depth.py [--kb 1000] [--depths 1,100,250,500] [--methods ...]

A method whose time grows with depth at equal text reads subtrees again and again: on a pasted 1 MB page
that is a public demo request holding a worker for a minute. 500 tables are 2,000 levels, just under
libxml2's cap (deeper markup is flattened at 512 levels, docs/extraction.md, Parse). Prints CPU seconds
per page for each method and competitor in the same run, and each one's deepest time over its flat time.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from extraction import METHODS  # noqa: E402
from extraction.evaluation.evaluate import extractor_for  # noqa: E402

COMPETITORS = ["trafilatura", "readability-lxml"]
PARAGRAPH = "<p>Paragraph {i}, in which the council heard the plan for the harbour wall and voted on it.</p>"


def page(kilobytes: int, depth: int) -> bytes:
    """About `kilobytes` of paragraphs spread evenly over `depth` nested tables (depth 1: one table)."""
    count = kilobytes * 1024 // len(PARAGRAPH.format(i=0))
    per_level = max(count // depth, 1)
    cells = ["".join(PARAGRAPH.format(i=level * per_level + j) for j in range(per_level)) for level in range(depth)]
    body = "".join(f"<table><tr><td>{cell}" for cell in cells) + "</td></tr></table>" * depth
    return f"<html><head><title>Depth {depth}</title></head><body>{body}</body></html>".encode()


def seconds(run, html: bytes) -> float:
    start = time.process_time()
    try:
        run(html, None)
    except Exception:  # noqa: BLE001 - time only; a method that finds nothing still took its time
        pass
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=1000)
    parser.add_argument("--depths", default="1,100,250,500")
    parser.add_argument("--methods", default=",".join([*METHODS, *COMPETITORS]))
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    pages = {depth: page(args.kb, depth) for depth in depths}
    print(f"| method | {' | '.join(f'depth {d} ({len(pages[d]) // 1024} KB)' for d in depths)} | deepest / flat |")
    print("|---|" + "---:|" * (len(depths) + 1))
    for name in args.methods.split(","):
        run = extractor_for(name)
        times = [seconds(run, pages[depth]) for depth in depths]
        print(f"| {name} | {' | '.join(f'{t:.2f} s' for t in times)} | {times[-1] / max(times[0], 1e-3):.1f}× |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
