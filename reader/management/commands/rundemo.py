"""`make run`: migrate, create the demo account, serve the demo site, and run web + worker + beat.

The console stays quiet: the children's logs go to var/logs/ (`--verbose` shows them here), and the banner with
the address and the demo password comes once the web server answers.
"""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from django.db import connection

from reader.demo.site import DESKS, make_server
from reader.models import Rating, Story
from reader.ranking.scores import rate
from reader.ingestion.subscribe import DiscoveryError, subscribe

DEMO_USER = "demo"
# A starting taste for the demo account, so its feed is ranked from the first minute: rate more to change it.
DEMO_TASTE = {"lunar-lander-kestrel-touches-down": Rating.GOOD, "exoplanet-haze-spectrum": Rating.GOOD,
              "glacier-retreat-talvik-survey": Rating.GOOD, "rovers-late-winner-derby": Rating.BAD,
              "football-women-cup-semifinal": Rating.BAD, "basketball-comets-playoff-berth": Rating.BAD}


def _interrupt(signum, frame):
    """`kill` (SIGTERM) stops the demo as Ctrl-C does, its server and workers included, instead of leaving them."""
    raise KeyboardInterrupt


class Command(BaseCommand):
    help = "Run the reader for development: web server, Celery worker and beat, and the offline demo site."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--demo-port", type=int, default=8001)
        parser.add_argument("--verbose", action="store_true", help="show the server's and workers' logs here")

    def handle(self, port, demo_port, verbose=False, **options):
        if not settings.DEBUG:
            raise CommandError("rundemo is for development only (DEBUG=1); production runs gunicorn and celery")
        call_command("migrate", interactive=False, verbosity=0)
        site = make_server("127.0.0.1", demo_port)
        threading.Thread(target=site.serve_forever, daemon=True).start()
        password = self._demo_account(demo_port)
        os.environ["DEMO_SITE_URL"] = f"http://127.0.0.1:{demo_port}/"  # for the web server (settings.DEMO_SITE_URL)
        signal.signal(signal.SIGTERM, _interrupt)
        logs = None if verbose else settings.VAR_DIR / "logs"
        children = self._start_children(port, logs)
        self._banner_shown = threading.Event()
        threading.Thread(target=self._seed_taste, daemon=True).start()
        if self._answers(port, children):
            self._banner(port, demo_port, password, logs)
        self._banner_shown.set()
        self._wait(children)
        site.shutdown()

    def _banner(self, port: int, demo_port: int, password: str | None, logs: Path | None) -> None:
        login = (f"log in as {DEMO_USER!r} / {password!r} (an admin account)" if password else
                 f"log in as {DEMO_USER!r} with the password you gave it (an admin account; "
                 f"`python manage.py changepassword {DEMO_USER}` sets a new one)")
        where = f"Logs in {logs}/ (web, worker, beat); --verbose shows them here.\n" if logs else ""
        self.stdout.write(self.style.SUCCESS(
            f"\nReader on http://127.0.0.1:{port}/  —  {login}\n"
            f"Demo news site on http://127.0.0.1:{demo_port}/ (Ctrl-C stops everything)\n{where}"))

    @staticmethod
    def _answers(port: int, children: list[subprocess.Popen], timeout: float = 180.0) -> bool:
        """Wait until the web server answers (it takes a while to start); False if a child died first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and all(child.poll() is None for child in children):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=2):
                    return True
            except OSError:
                time.sleep(0.3)
        return False

    def _demo_account(self, demo_port: int) -> str | None:
        """The demo account's password if it is the one we made, None if its owner changed it (kept as it is)."""
        user, created = get_user_model().objects.get_or_create(username=DEMO_USER, defaults={"is_staff": True,
                                                                                              "is_superuser": True})
        saved = settings.VAR_DIR / "demo-password"
        known = saved.read_text().strip() if saved.exists() else ""
        if known and user.check_password(known):
            password = known
        elif created or not user.has_usable_password():
            password = secrets.token_urlsafe(9)
            user.set_password(password)
            user.save()
            saved.touch(mode=0o600)
            saved.write_text(password)
        else:
            password = None
        for slug, title in DESKS:  # a new desk's stories stored now, their pages queued for the worker
            try:
                subscribe(user, f"http://127.0.0.1:{demo_port}/feeds/{slug}.xml", folder="Demo")
            except DiscoveryError as exc:
                raise CommandError(f"the demo site's {title} feed: {exc} (`make run` sets "
                                   f"FETCH_ALLOWED_NETWORKS=127.0.0.1/32,::1/128 so the reader may fetch it)")
        return password

    def _seed_taste(self, timeout: float = 180.0) -> None:
        """Once the worker has stored the demo stories, rate a few of them (only for a demo account with none)."""
        user = get_user_model().objects.get(username=DEMO_USER)
        deadline = time.monotonic() + timeout
        try:
            while not Rating.objects.filter(user=user).exists() and time.monotonic() < deadline:
                stories = {s.url.rsplit("/", 1)[-1].removesuffix(".html"): s.id
                           for s in Story.objects.filter(entries__user=user).only("id", "url")}
                if all(slug in stories for slug in DEMO_TASTE):
                    for slug, value in DEMO_TASTE.items():
                        rate(user, stories[slug], value)
                    self._banner_shown.wait(timeout)  # the banner with the address and password comes first
                    self.stdout.write("Rated six demo stories (likes space and climate, dislikes football and "
                                      "basketball) so the feed is ranked; your own ratings take over from there.")
                    return
                time.sleep(2)
        finally:
            connection.close()

    def _start_children(self, port: int, logs: Path | None) -> list[subprocess.Popen]:
        python = [sys.executable]
        commands = [
            python + ["manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            python + ["-m", "celery", "-A", "reader", "worker", "-Q", "feeds,pages,ranking", "-c", "2",
                      "-l", "INFO", "--without-gossip", "--without-mingle"],
            python + ["-m", "celery", "-A", "reader", "beat", "-l", "INFO"],
        ]
        if logs is None:
            return [subprocess.Popen(cmd, cwd=settings.BASE_DIR, env=os.environ.copy()) for cmd in commands]
        logs.mkdir(parents=True, exist_ok=True)
        children = []
        for name, cmd in zip(("web", "worker", "beat"), commands):
            with open(logs / f"{name}.log", "ab") as log:  # the child keeps its own copy of the descriptor
                children.append(subprocess.Popen(cmd, cwd=settings.BASE_DIR, env=os.environ.copy(), stdout=log,
                                                 stderr=subprocess.STDOUT))
        return children

    def _wait(self, children: list[subprocess.Popen]) -> None:
        try:
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
            self.stderr.write("a child process exited; stopping the rest")
        except KeyboardInterrupt:
            self.stdout.write("\nstopping…")
        finally:
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15  # one grace period for all, not 15 s each in turn
            for child in children:
                try:
                    child.wait(max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
