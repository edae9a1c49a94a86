"""`manage.py rundemo` (what `make run` starts) stops its web server, worker and beat when it is stopped."""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.reliability.services import free_port

ROOT = Path(__file__).resolve().parents[1]


def children_of(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.timeout(180)
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_demo_stops_everything_it_started(tmp_path, stop):
    env = {**os.environ, "DEBUG": "1", "VAR_DIR": str(tmp_path), "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32"}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TEST_DATABASE_NAME"):
        env.pop(name, None)  # the embedded default: SQLite and the disk broker in tmp_path
    demo = subprocess.Popen([sys.executable, "manage.py", "rundemo", "--port", str(free_port()),
                             "--demo-port", str(free_port())], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    children = set()
    try:
        for line in demo.stdout:
            if "Reader on http://127.0.0.1:" in line:
                break
        children = children_of(demo.pid)
        assert len(children) == 3, children  # runserver, celery worker, celery beat
        time.sleep(2)  # let them get going
        demo.send_signal(stop)  # to the command alone, as `kill` does
        assert demo.wait(60) is not None
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in children if alive(pid)]
    finally:  # nothing outlives the test, whatever failed
        for pid in children | children_of(demo.pid):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if demo.poll() is None:
            demo.kill()


@pytest.mark.timeout(240)
def test_banner_comes_when_the_server_answers_and_the_console_stays_quiet(tmp_path):
    """Issue 19, bug 10: the address is printed once it works; the workers' logs go to var/logs/."""
    import urllib.request

    port = free_port()
    env = {**os.environ, "DEBUG": "1", "VAR_DIR": str(tmp_path), "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32"}
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "TEST_DATABASE_NAME"):
        env.pop(name, None)
    demo = subprocess.Popen([sys.executable, "manage.py", "rundemo", "--port", str(port),
                             "--demo-port", str(free_port())], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    before = []
    try:
        for line in demo.stdout:
            if "Reader on http://127.0.0.1:" in line:
                banner = line
                break
            before.append(line)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5) as answer:
            assert answer.status == 200
        assert "an admin account" in banner and "'demo' / '" in banner
        # No worker INFO lines, and no kombu "No hostname was supplied" warning about the disk broker either.
        assert [line for line in before if line.strip()] == [], before
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and b"celery@" not in (tmp_path / "logs" / "worker.log").read_bytes():
            time.sleep(0.5)
        assert b"celery@" in (tmp_path / "logs" / "worker.log").read_bytes()
    finally:
        os.killpg(demo.pid, signal.SIGTERM)
        demo.wait(60)


@pytest.fixture
def demo_site():
    from reader.demo.site import make_server

    site = make_server("127.0.0.1", 0)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield site.server_address[1]
    site.shutdown()
    site.server_close()


@pytest.mark.django_db
def test_demo_password_is_made_once_and_a_changed_one_is_kept(settings, tmp_path, allow_loopback, demo_site):
    """Issue 19, bug 11: a second `make run` keeps the password; one the owner changed is never reset. The desks
    are subscribed through the subscribe service, their stories stored at once."""
    from django.contrib.auth.models import User

    from reader.demo.catalog import DESKS
    from reader.management.commands.rundemo import Command
    from reader.models import Entry, Feed

    settings.VAR_DIR = tmp_path
    first = Command()._demo_account(demo_site)
    demo = User.objects.get(username="demo")
    assert first and demo.check_password(first) and demo.is_superuser
    assert Feed.objects.count() == len(DESKS) and Entry.objects.filter(user=demo).count() > len(DESKS)
    assert Command()._demo_account(demo_site) == first
    demo.set_password("mine-and-only-mine-7")
    demo.save()
    assert Command()._demo_account(demo_site) is None
    assert User.objects.get(username="demo").check_password("mine-and-only-mine-7")
