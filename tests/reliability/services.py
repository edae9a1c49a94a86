"""Private Redis and PostgreSQL instances that the fault tests may kill and restart (never the shared ones)."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PG_BIN = Path(sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]) if Path("/usr/lib/postgresql").exists() else None
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A loopback TCP port nothing listens on now (tests and benchmarks start their servers on it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


class PrivateRedis:
    def __init__(self, folder: Path):
        self.folder, self.port, self.proc = folder, free_port(), None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.folder), "--daemonize", "no"],
                                     stdout=subprocess.DEVNULL)
        wait_port(self.port)

    def restart(self) -> None:
        """A graceful restart, as a service manager does: the queue is saved on shutdown and loaded again."""
        subprocess.run(["redis-cli", "-p", str(self.port), "SHUTDOWN", "SAVE"], capture_output=True)
        self.proc.wait(20)
        self.start()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class PrivatePostgres:
    """A throwaway cluster owned by the postgres OS user, on a free port, trust authentication."""

    def __init__(self, folder: Path):
        assert PG_BIN, "PostgreSQL server binaries are needed (/usr/lib/postgresql/*/bin)"
        self.data, self.port = folder / "pgdata", free_port()
        self.socket_dir = folder

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/reader_faults"

    def _as_postgres(self, *command: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *command], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        if not self.data.exists():
            os.chmod(self.socket_dir, 0o777)
            self._as_postgres(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self._as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.data / "log"), "-w",
                          "-o", f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1", "start")

    def restart(self) -> None:
        self._as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.data / "log"), "-m", "fast",
                          "-w", "-o", f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1", "restart")

    def stop(self) -> None:
        if self.data.exists():
            subprocess.run(["runuser", "-u", "postgres", "--", str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m",
                            "immediate", "stop"], capture_output=True)


class Worker:
    """A real `celery worker` (prefork, 2 children) on the private services."""

    def __init__(self, env: dict, log: Path):
        self.env, self.log, self.proc = env, log, None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "reader", "worker", "-Q", "feeds,pages,ranking", "-c", "2",
             "--without-gossip", "--without-mingle", "-l", "INFO"],
            cwd=ROOT, env=self.env, stdout=open(self.log, "a"), stderr=subprocess.STDOUT, start_new_session=True)

    def children(self) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout
        return [int(pid) for pid in out.split()]

    def kill_child(self) -> None:
        os.kill(self.children()[0], signal.SIGKILL)

    def kill_all(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill_all()


class Beat(Worker):
    """The one `celery beat` of a deployment, beside the worker: killing the worker leaves it running."""

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "reader", "beat", "-l", "INFO"],
                                     cwd=ROOT, env=self.env, stdout=open(self.log, "a"), stderr=subprocess.STDOUT,
                                     start_new_session=True)


class Supervisor:
    """Starts a process again one second after it exits, as a deployment's service manager does (systemd's
    Restart=always, RestartSec=1; a container's restart policy): a worker is never left dead."""

    def __init__(self, process: Worker):
        self.process, self.restarts, self.stopping = process, 0, threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.stopping.wait(0.2):
            if self.process.proc.poll() is not None and not self.stopping.wait(1):
                self.process.start()
                self.restarts += 1

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()
        self.process.stop()


def scratch() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="reader-faults-"))
    os.chmod(folder, 0o755)
    return folder


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
