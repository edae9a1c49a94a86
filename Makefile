# The two commands: `make run` (the reader with demo data, offline) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: install run test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

install: $(STAMP)

# Development mode: DEBUG on, the bundled demo site on 127.0.0.1 allowed for server-side fetches.
run: install
	DEBUG=$${DEBUG:-1} FETCH_ALLOWED_NETWORKS=$${FETCH_ALLOWED_NETWORKS:-127.0.0.1/32,::1/128} \
		$(BIN)/python manage.py rundemo

test: install
	SECRET_KEY=$${SECRET_KEY:-insecure-test-key} $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install
	$(BIN)/python -m pip install -q -e '.[dev,bench]'

clean:
	rm -rf $(VENV) var
