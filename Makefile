# Two commands matter: `make run` serves the platform, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/wordfall
TEST_REDIS_URL ?= redis://127.0.0.1:6379/1

.PHONY: run test bench install install-dev migrate setup-site check clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

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
	@echo "Server mode: daphne, Celery worker and Celery beat (Procfile)."
	$(VENV)/bin/honcho start -f Procfile
endif

test: install
	@$(PY) -c "import pathlib,sys; sys.exit(0 if pathlib.Path('/usr/bin/chromium').exists() else 1)" || \
		{ echo "Browser tests need Debian's chromium: apt-get install chromium (.ci/run does it)."; exit 1; }
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m pytest -q $(PYTEST_ARGS)

bench: install
	@for b in bench/bench_*.py; do m=$${b%.py}; m=$${m//\//.}; echo "== $$m"; $(PY) -m $$m || exit 1; done

check: install
	$(PY) manage.py check

clean:
	rm -rf $(VENV) staticfiles var .pytest_cache
