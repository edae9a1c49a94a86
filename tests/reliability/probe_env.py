"""Environment for a probe process that runs the reader inside a network namespace (tests/netns.py)."""
from __future__ import annotations

from pathlib import Path

from .hostile import SERVER_ADDRESS, fake_names


def reader_env(tmp_path: Path, **extra) -> dict:
    """A private SQLite database and var dir, no Redis, only the probe's own server address allowed."""
    return {"DATABASE_URL": f"sqlite:///{tmp_path / 'probe.sqlite3'}", "VAR_DIR": str(tmp_path),
            "FETCH_ALLOWED_NETWORKS": f"{SERVER_ADDRESS}/32", "FETCH_STATIC_HOSTS": fake_names(),
            "SECRET_KEY": "probe", "REDIS_URL": "", "CELERY_BROKER_URL": "memory://", "LOG_LEVEL": "ERROR",
            "POLITE_MIN_DELAY": "0", "EXTRACT_RATE_LIMIT": "1000000", "FETCH_TIMEOUT": "5",
            "FETCH_CONNECT_TIMEOUT": "2", "DJANGO_SETTINGS_MODULE": "reader.settings", **extra}


# Probe scripts start with this: the connection log first, then Django on the probe's own database.
PRELUDE = """
import json, os, sys
from tests.reliability.hostile import ConnectionLog
log = ConnectionLog()
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.test.utils import setup_test_environment
setup_test_environment()
"""
