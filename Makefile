# Two commands matter: `make run` serves the platform, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test lint bench install lock setup-site check clean

# Creates or repairs .venv and installs requirements.txt (tools/install.py); quick when
# nothing changed, and it notices a changed pyproject.toml or lock.
install:
	@$(PYTHON) tools/install.py

# Regenerates requirements.txt from pyproject.toml, keeping locked versions that still fit;
# `make lock LOCK_ARGS=--upgrade` (or `--upgrade-package django`) moves to newer ones.
lock:
	@$(PYTHON) tools/install.py lock $(LOCK_ARGS)

# Creates the schema, the lexicons and the administrator; idempotent.
setup-site: install
	$(PY) manage.py migrate --noinput
	@if $(PY) manage.py help load_lexicons >/dev/null 2>&1; then $(PY) manage.py load_lexicons; fi
	$(PY) manage.py collectstatic --noinput --verbosity 0

run: setup-site
ifeq ($(and $(DATABASE_URL),$(REDIS_URL)),)
	@$(PY) manage.py ensure_admin
	@echo "Embedded mode: serving http://127.0.0.1:8000 (SQLite, in-process channel layer and Celery)."
	$(VENV)/bin/daphne -b 127.0.0.1 -p 8000 config.asgi:application
else
	@echo "Server mode: daphne, Celery worker and Celery beat under supervisord (config/supervisord.conf)."
	@mkdir -p $${VAR_DIR:-var}
	WF_BIN=$(abspath $(VENV))/bin VAR_DIR=$${VAR_DIR:-$(abspath var)} HOST=$${HOST:-0.0.0.0} PORT=$${PORT:-8000} \
		CELERY_CONCURRENCY=$${CELERY_CONCURRENCY:-2} $(VENV)/bin/supervisord -c config/supervisord.conf
endif

# PostgreSQL and Redis: TEST_DATABASE_URL / TEST_REDIS_URL when given, else throwaway
# servers that tests/services.py starts and removes. DATABASE_URL/REDIS_URL of the shell are
# ignored here, so `make test` never runs against a deployment's database by accident.
test:
	@$(PYTHON) -m tests.services system --install
	@$(MAKE) --no-print-directory install
	@$(MAKE) --no-print-directory lint
	env -u DATABASE_URL -u REDIS_URL TEST_DATABASE_URL="$(TEST_DATABASE_URL)" TEST_REDIS_URL="$(TEST_REDIS_URL)" \
		$(PY) -m pytest -q $(PYTEST_ARGS)

# ruff: lint rules and formatting ([tool.ruff] in pyproject.toml); `ruff format .` fixes layout.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: install
	@for b in bench/bench_*.py; do m=$${b%.py}; m=$${m//\//.}; echo "== $$m"; $(PY) -m $$m || exit 1; done

check: install
	$(PY) manage.py check

clean:
	rm -rf $(VENV) staticfiles var .pytest_cache
