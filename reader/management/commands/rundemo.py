"""`make run`: migrate, create the demo account, serve the demo site, and run web + worker + beat."""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from django.db import connection

from reader.demo.site import DESKS, make_server
from reader.models import Rating, Story
from reader.ranking import rate
from reader.subscribe import subscribe
from reader.tasks import fetch_feed

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

    def handle(self, port, demo_port, **options):
        if not settings.DEBUG:
            raise CommandError("rundemo is for development only (DEBUG=1); production runs gunicorn and celery")
        call_command("migrate", interactive=False, verbosity=0)
        site = make_server("127.0.0.1", demo_port)
        threading.Thread(target=site.serve_forever, daemon=True).start()
        password = self._demo_account(demo_port)
        signal.signal(signal.SIGTERM, _interrupt)
        children = self._start_children(port)
        threading.Thread(target=self._seed_taste, daemon=True).start()
        self.stdout.write(self.style.SUCCESS(
            f"\nReader on http://127.0.0.1:{port}/  —  log in as {DEMO_USER!r} / {password!r}\n"
            f"Demo news site on http://127.0.0.1:{demo_port}/ (Ctrl-C stops everything)\n"))
        self._wait(children)
        site.shutdown()

    def _demo_account(self, demo_port: int) -> str:
        user, _ = get_user_model().objects.get_or_create(username=DEMO_USER, defaults={"is_staff": True,
                                                                                        "is_superuser": True})
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        user.save()
        for slug, title in DESKS:
            feed, _ = subscribe(user, f"http://127.0.0.1:{demo_port}/feeds/{slug}.xml", folder="Demo")
            fetch_feed.delay(feed.id)
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
                    self.stdout.write("Rated six demo stories (likes space and climate, dislikes football and "
                                      "basketball) so the feed is ranked; your own ratings take over from there.")
                    return
                time.sleep(2)
        finally:
            connection.close()

    def _start_children(self, port: int) -> list[subprocess.Popen]:
        python = [sys.executable]
        commands = [
            python + ["manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            python + ["-m", "celery", "-A", "reader", "worker", "-Q", "feeds,pages,ranking", "-c", "2",
                      "-l", "INFO", "--without-gossip", "--without-mingle"],
            python + ["-m", "celery", "-A", "reader", "beat", "-l", "INFO"],
        ]
        return [subprocess.Popen(cmd, cwd=settings.BASE_DIR, env=os.environ.copy()) for cmd in commands]

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
            for child in children:
                try:
                    child.wait(15)
                except subprocess.TimeoutExpired:
                    child.kill()
