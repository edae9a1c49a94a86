"""Load: the personal feed page at 50 connections (wrk -> gunicorn -> PostgreSQL with 1,000 users and
100,000 stories); the work is in benchmarks/load.py, which also runs on its own."""
import json
import subprocess
import sys

import pytest

from .figures import ROOT, record

pytestmark = pytest.mark.reliability


@pytest.mark.timeout(900)
def test_feed_page_under_50_connections(tmp_path):
    out = tmp_path / "load.json"
    subprocess.run([sys.executable, "benchmarks/load.py", "--connections", "50", "--seconds", "20", "--json", str(out)],
                   cwd=ROOT, check=True, timeout=850)
    result = json.loads(out.read_text())
    record("load", "Load: feed page, wrk 50 connections, gunicorn (3 sync workers), PostgreSQL", result,
           "p99 < 200 ms, no errors", database="PostgreSQL (private reader_load database)")
    # Correctness under load is asserted; the latency target (p99 < 200 ms) is a benchmark figure, reported in
    # docs/reliability.md and by benchmarks/load.py against the target, not a timed assertion on a shared machine.
    assert result["requests"] > 0 and result["non-2xx"] == 0 and result["socket errors"] == 0
