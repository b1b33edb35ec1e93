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

.PHONY: run superuser test test-games test-platform test-services test-faults test-e2e bench messages check-components golden lint clean

# Two stamps: serving needs only the package; the tests add the [test] extras on top.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(VENV)/bin/pip install --quiet -e ".[test]"
	touch $@

messages: $(VENV)/.installed
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages --ignore=.venv -v 0; \
	else echo "msgfmt not found: using the committed .mo catalogues (apt-get install gettext to rebuild them)"; fi

run: $(VENV)/.installed messages
	$(PY) manage.py migrate --noinput
	@( until $(PY) -c "import socket; socket.create_connection(('$(HOST)', $(PORT)), 1)" 2>/dev/null; do sleep 0.3; done; \
	   echo "Serving on http://$(HOST):$(PORT)" ) &
	PYTHONPATH=platform:. $(PY) -m shabneshin.serve -b $(HOST) -p $(PORT) shabneshin.asgi:application

# A staff account for the Django admin at /admin/.
superuser: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createsuperuser

check-components: $(VENV)/.installed-test
	$(PY) scripts/check_components.py

test: $(VENV)/.installed-test messages check-components lint test-games test-platform test-services test-faults test-e2e

test-games: $(VENV)/.installed-test
	$(PYTEST) -q -n 2 tests/games tests/test_layout.py

test-platform: $(VENV)/.installed-test
	$(PYTEST) -q -n 2 tests/platform

test-services: $(VENV)/.installed-test
	DATABASE_URL=$(SERVICES_DATABASE_URL) REDIS_URL=$(SERVICES_REDIS_URL) SHABNESHIN_EXPECT_SERVICES=1 \
		$(PYTEST) -q -n 2 tests/platform

# Real processes killed and clocks racing (tests/faults/): their own SQLite file or PostgreSQL
# database (created and dropped on the shared server) and their own redis-server.
test-faults: $(VENV)/.installed-test
	$(PYTEST) -q tests/faults

test-e2e: $(VENV)/.installed-test
	$(PYTEST) -q tests/e2e tests/bench

# The load benchmark beside a bare Channels echo (README "Performance"); FULL=1 for every run,
# REPEAT=K for each run K times with each one's median and range.
bench: $(VENV)/.installed-test
	$(PY) scripts/bench/run.py $(if $(FULL),--full,) $(if $(REPEAT),--repeat $(REPEAT),)

golden: $(VENV)/.installed-test
	$(PY) scripts/golden.py --all

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check games platform tests scripts
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-* staticfiles
