"""Where the reliability tests write the figures they measured, for docs/reliability.md.

One JSON file ($RELIABILITY_FIGURES, else $VAR_DIR/reliability-figures.json) maps a test's key to its
figures; each test replaces its own entry, so a partial run keeps the others' figures.
"""
from __future__ import annotations

import fcntl
import json
import os
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def path() -> Path:
    if os.environ.get("RELIABILITY_FIGURES"):
        return Path(os.environ["RELIABILITY_FIGURES"])
    return Path(os.environ.get("VAR_DIR", ROOT / "var")) / "reliability-figures.json"


def load(source: Path | None = None) -> dict:
    source = source or path()
    return json.loads(source.read_text()) if source.exists() else {}


def record(key: str, title: str, figures: dict, target: str, database: str | None = None) -> None:
    """Save one test's figures (name -> number or text) and the target it was held to.

    database names where the data lived, when not the test run's own database (private instances)."""
    target_path = path()
    target_path.parent.mkdir(parents=True, exist_ok=True)
    with open(target_path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # tests may run in parallel processes
        data = load(target_path)
        data[key] = {"title": title, "figures": figures, "target": target,
                     "measured_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                     "database": database or os.environ.get("DATABASE_URL", "sqlite").split(":", 1)[0]}
        target_path.write_text(json.dumps(data, indent=2))
    print(f"\n[reliability] {title}: " + ", ".join(f"{k}={v}" for k, v in figures.items()))
