"""gunicorn --preload forks its workers from a process that has imported reader.wsgi: everything a request needs
must be loaded by then, or each worker pays the import (about 2 s with numpy and scikit-learn) on its first
request, in front of a user."""
import subprocess
import sys


def test_the_wsgi_module_loads_the_urls_and_views_before_any_request(tmp_path):
    probe = ("import sys, reader.wsgi; "
             "print(all(m in sys.modules for m in ('reader.urls', 'reader.web.views', 'reader.web.greader.urls')))")
    # ...and frozen out of the garbage collector's walks, so that the workers keep sharing those pages.
    probe += "; import gc; print(gc.get_freeze_count() > 100_000)"
    env = {"PATH": "/usr/bin:/bin", "SECRET_KEY": "x" * 50, "VAR_DIR": str(tmp_path), "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.split() == ["True", "True"], done.stderr[-2000:]
