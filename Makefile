# Two commands matter: `make run` serves the platform, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test lint bench install install-dev lock setup-site port-free check clean

# Server mode when both are set (README, "Run modes"); the address `make run` serves on.
SERVER_MODE := $(and $(DATABASE_URL),$(REDIS_URL))
PORT ?= 8000
HOST ?= $(if $(SERVER_MODE),0.0.0.0,127.0.0.1)

# Installs .venv from uv.lock (tools/install.py: uv sync --locked), the runtime packages only;
# install-dev adds the dev group (test, lint and lock tools), which a .venv then keeps.
# Quick when nothing changed; a uv.lock out of date with pyproject.toml stops it (make lock).
install:
	@$(PYTHON) tools/install.py
	@$(MAKE) --no-print-directory engine

install-dev:
	@$(PYTHON) tools/install.py --dev
	@$(MAKE) --no-print-directory engine

# Compiles the engine's hot modules with Cython where a C compiler and Python's headers are
# (as root it installs them); without them the engine runs pure Python. Quick when up to date.
engine:
	@$(PY) tools/build_engine.py $(ENGINE_ARGS)

# Regenerates uv.lock from pyproject.toml (uv lock), keeping locked versions that still fit;
# `make lock LOCK_ARGS=--upgrade` (or `--upgrade-package django`) moves to newer ones.
lock:
	@$(PYTHON) tools/install.py lock $(LOCK_ARGS)

# Creates the database (server mode), the schema, the lexicons and the static files; idempotent.
setup-site: install
ifneq ($(SERVER_MODE),)
	@$(PY) manage.py ensure_database
endif
	$(PY) manage.py migrate --noinput
	@if $(PY) manage.py help load_lexicons >/dev/null 2>&1; then $(PY) manage.py load_lexicons; fi
	$(PY) manage.py collectstatic --noinput --verbosity 0

# The port is checked first: a busy one stops the run before anything is installed.
run: port-free setup-site
	@PORT=$(PORT) $(PY) manage.py ensure_admin
ifeq ($(SERVER_MODE),)
	@echo "Embedded mode: serving http://$(HOST):$(PORT) (SQLite, in-process channel layer and Celery)."
	@rm -rf "$${PROMETHEUS_MULTIPROC_DIR:-$${VAR_DIR:-var}/metrics}"  # the last run's samples
	$(VENV)/bin/daphne -v 0 -b $(HOST) -p $(PORT) config.asgi:application
else
	@echo "Server mode: daphne, Celery worker and Celery beat under supervisord (config/supervisord.conf)."
	@mkdir -p $${VAR_DIR:-var}
	@rm -rf "$${PROMETHEUS_MULTIPROC_DIR:-$${VAR_DIR:-var}/metrics}"  # the last run's processes' samples
	WF_BIN=$(abspath $(VENV))/bin WF_USER=$$(id -un) VAR_DIR=$${VAR_DIR:-$(abspath var)} HOST=$(HOST) PORT=$(PORT) \
		CELERY_CONCURRENCY=$${CELERY_CONCURRENCY:-2} $(VENV)/bin/supervisord -c config/supervisord.conf
endif

port-free:
	@$(PYTHON) tools/check_port.py $(HOST) $(PORT)

# pytest-xdist workers, one a core by default (each its own test database and Redis
# database, tests/services.py); PYTEST_WORKERS=0 runs every test in one process.
PYTEST_WORKERS ?= auto

# PostgreSQL and Redis: TEST_DATABASE_URL / TEST_REDIS_URL when given, else throwaway
# servers that tests/services.py starts and removes. DATABASE_URL/REDIS_URL of the shell are
# ignored here, so `make test` never runs against a deployment's database by accident.
test:
	@$(PYTHON) -m tests.services system --install
	@$(MAKE) --no-print-directory install-dev
	@$(MAKE) --no-print-directory lint
	env -u DATABASE_URL -u REDIS_URL TEST_DATABASE_URL="$(TEST_DATABASE_URL)" TEST_REDIS_URL="$(TEST_REDIS_URL)" \
		$(PY) -m pytest -q -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# ruff: lint rules and formatting ([tool.ruff] in pyproject.toml); `ruff format .` fixes layout;
# lint-imports: the import rules between the parts ([tool.importlinter]); tools/imports.py: at most
# 20 project imports inside functions, each saying why in a comment.
lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) tools/imports.py --check

bench: install
	@for b in bench/bench_*.py; do m=$${b%.py}; m=$${m//\//.}; echo "== $$m"; $(PY) -m $$m || exit 1; done

check: install
	$(PY) manage.py check

clean:
	rm -rf $(VENV) staticfiles var build .pytest_cache
