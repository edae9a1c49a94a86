"""Run a probe script in a network namespace that has only loopback, and read its JSON output.

Tests that check refused addresses (private, link-local, metadata...) run their probes here, so that
a regression in the fetcher's guard can never send a packet off this machine.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_isolated(script: str, tmp_path: Path, env: dict | None = None, timeout: float = 120) -> dict:
    missing = [tool for tool in ("unshare", "ip") if shutil.which(tool) is None]
    assert not missing, f"network-namespace tests need {', '.join(missing)} (util-linux, iproute2) and root"
    probe = tmp_path / "probe.py"
    probe.write_text(script)
    command = f"ip link set lo up && exec {sys.executable} {probe}"
    result = subprocess.run(["unshare", "-n", "sh", "-c", command], cwd=ROOT, capture_output=True, text=True,
                            timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    assert result.returncode == 0, f"probe failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])
