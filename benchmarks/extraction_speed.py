"""Extraction speed and memory: our clump method against trafilatura, readability-lxml
and lxml's parse alone, in the same run, on one core.

    python benchmarks/extraction_speed.py [--dataset DIR] [--rounds N]

Prints pages/s over the article-extraction-benchmark pages (CPU time, best of N
interleaved rounds after a warm-up), the ratios the targets are stated in, and the peak memory each extractor
adds on a 10 MB page (measured in a fresh child process per extractor).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extraction.evaluation.evaluate import extractor_for, load_dataset  # noqa: E402

SHARED = Path(os.environ.get("SHARED_DIR", ROOT / ".." / "shared"))
EXTRACTORS = ["clump", "trafilatura", "trafilatura-fast", "readability-lxml", "lxml-parse"]
BIG_PAGE_BYTES = 10_000_000


def one_core() -> str:
    """Pin to one CPU so every extractor runs under the same conditions."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity)"


def cpu_seconds(run, pages) -> float:
    start = time.process_time()
    for page in pages:
        try:
            run(page.html, page.url)
        except Exception:  # noqa: BLE001 - speed only; quality is measured elsewhere
            pass
    return time.process_time() - start


def pages_per_second(runs: dict, pages, rounds: int) -> dict[str, float]:
    """Best of ``rounds`` per extractor, rounds interleaved so that changing load on a
    shared machine hits every extractor alike; CPU time of this process, not wall time."""
    best = {name: float("inf") for name in runs}
    for round_number in range(rounds + 1):  # round 0 warms caches and is not counted
        for name, run in runs.items():
            seconds = cpu_seconds(run, pages)
            if round_number:
                best[name] = min(best[name], seconds)
            print(f"  round {round_number} {name}: {len(pages) / seconds:.0f} pages/s", file=sys.stderr)
    return {name: len(pages) / seconds for name, seconds in best.items()}


def big_page(pages) -> bytes:
    """About 10 MB of real markup: the benchmark's pages' bodies, one after another."""
    parts, size = [b"<html><head><title>Big page</title></head><body>"], 0
    for page in pages * 10:
        lower = page.html.lower()
        body = page.html[lower.find(b"<body"):lower.rfind(b"</body>")]
        parts.append(body)
        size += len(body)
        if size >= BIG_PAGE_BYTES:
            break
    parts.append(b"</body></html>")
    return b"".join(parts)


def _rss_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child_memory(name: str, path: str) -> None:
    """Runs in a fresh process: print peak RSS growth (MiB) and seconds for one extraction.

    The kernel's peak-RSS mark is reset just before the extraction (``clear_refs``), so
    earlier peaks from imports and reading the file do not hide the extraction's own.
    """
    run = extractor_for(name)
    data = Path(path).read_bytes()
    run(b"<html><body><p>warm up the imports</p></body></html>", None)
    Path("/proc/self/clear_refs").write_text("5")
    before = _rss_kib("VmRSS")
    start = time.perf_counter()
    try:
        run(data, None)
        status = "ok"
    except Exception as exc:  # noqa: BLE001
        status = type(exc).__name__
    seconds = time.perf_counter() - start
    print(f"{(_rss_kib('VmHWM') - before) / 1024:.0f} {seconds:.2f} {status}")


def memory_table(names, pages) -> list[str]:
    data = big_page(pages)
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"extraction-big-page-{os.getpid()}.html"
    path.write_bytes(data)
    rows = [f"\nPeak memory on a {len(data) / 1e6:.1f} MB page (RSS growth in a fresh process):\n",
            "| extractor | peak MiB | seconds | result |", "|---|---|---|---|"]
    try:
        for name in names:
            out = subprocess.run([sys.executable, __file__, "--memory-child", name, str(path)],
                                 capture_output=True, text=True, timeout=900)
            fields = out.stdout.split() if out.returncode == 0 else ["-", "-", f"failed: {out.stderr[-80:]!r}"]
            rows.append(f"| {name} | {' | '.join(fields[:3])} |")
    finally:
        path.unlink(missing_ok=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=str(SHARED / "datasets" / "article-extraction-benchmark"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory-child", nargs=2, metavar=("NAME", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        child_memory(*args.memory_child)
        return 0
    print(f"one core: {one_core()}")
    pages = load_dataset(args.dataset)
    runs = {}
    for name in EXTRACTORS:
        try:
            runs[name] = extractor_for(name)
        except Exception as exc:  # noqa: BLE001 - a competitor that is not installed
            print(f"skipping {name}: {exc}", file=sys.stderr)
    rates = pages_per_second(runs, pages, args.rounds)
    print(f"\nSpeed on {len(pages)} pages of {Path(args.dataset).name}, CPU time, best of {args.rounds} rounds:\n")
    print("| extractor | pages/s | ms/page | clump speed ÷ this |")
    print("|---|---|---|---|")
    for name, rate in rates.items():
        ratio = rates.get("clump", 0) / rate if rate else 0
        print(f"| {name} | {rate:.0f} | {1000 / rate:.2f} | {ratio:.2f} |")
    print("\n".join(memory_table(list(rates), pages)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
