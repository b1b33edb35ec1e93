# Shabneshin: `make run` serves the site on http://127.0.0.1:8000; `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST := $(VENV)/bin/pytest
HOST ?= 127.0.0.1
PORT ?= 8000
# The real components the platform tests run against a second time (ARCHITECTURE §6).
SERVICES_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
SERVICES_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test test-games test-platform test-services test-e2e bench messages check-components golden lint clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e ".[test]"
	touch $@

messages: $(VENV)/.installed
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages --ignore=.venv -v 0; \
	else echo "msgfmt not found: using the committed .mo catalogues (apt-get install gettext to rebuild them)"; fi

run: $(VENV)/.installed messages
	$(PY) manage.py migrate --noinput
	PYTHONPATH=platform:. $(VENV)/bin/daphne -b $(HOST) -p $(PORT) shabneshin.asgi:application

check-components: $(VENV)/.installed
	$(PY) scripts/check_components.py

test: $(VENV)/.installed messages check-components lint test-games test-platform test-services test-e2e

test-games: $(VENV)/.installed
	$(PYTEST) -q -n 2 tests/games tests/test_layout.py

test-platform: $(VENV)/.installed
	$(PYTEST) -q -n 2 tests/platform

test-services: $(VENV)/.installed
	DATABASE_URL=$(SERVICES_DATABASE_URL) REDIS_URL=$(SERVICES_REDIS_URL) SHABNESHIN_EXPECT_SERVICES=1 \
		$(PYTEST) -q -n 2 tests/platform

test-e2e: $(VENV)/.installed
	$(PYTEST) -q tests/e2e tests/bench

# The load benchmark beside a bare Channels echo (README "Performance"); FULL=1 for every run.
bench: $(VENV)/.installed
	$(PY) scripts/bench/run.py $(if $(FULL),--full,)

golden: $(VENV)/.installed
	$(PY) scripts/golden.py --all

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check games platform tests scripts
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-* staticfiles
