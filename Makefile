# The two commands: `make run` (the reader with demo data, offline) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: install run test bench clean

# pip's own lines (Collecting…, Installing…) are the progress: the first install takes a minute or two.
$(STAMP): pyproject.toml
	@echo "Setting up $(VENV) (the first time takes 1-2 minutes)…"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)
	@echo "Installed."

install: $(STAMP)

# Development mode: DEBUG on, the bundled demo site on 127.0.0.1 allowed for server-side fetches.
# Logs go to var/logs/; `make run ARGS=--verbose` shows them in the console.
run: install
	DEBUG=$${DEBUG:-1} FETCH_ALLOWED_NETWORKS=$${FETCH_ALLOWED_NETWORKS:-127.0.0.1/32,::1/128} \
		$(BIN)/python manage.py rundemo $(ARGS)

# Tests keep their files (disk broker, SQLite test database, worker log) in var/test, apart from `make run`'s
# var/: a demo worker would otherwise take the test worker's tasks, and the tests' purge the demo's.
test: install
	SECRET_KEY=$${SECRET_KEY:-insecure-test-key} VAR_DIR=$${VAR_DIR:-$(CURDIR)/var/test} $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install
	$(BIN)/python -m pip install -q -e '.[dev,bench]'

clean:
	rm -rf $(VENV) var
