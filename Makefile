# Two commands set everything up on a fresh Debian machine:
#   make run    install everything, load the packs, serve http://127.0.0.1:8000 with the PDF worker (development)
#   make test   install everything, lint, run the whole test suite (browser tests included)
# and one serves it in production (environment variables in README):
#   make serve  gunicorn + WhiteNoise + the PDF worker, SQLite or PostgreSQL (DATABASE_URL), Redis optional (REDIS_URL)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEV := DJANGO_DEBUG=1

.PHONY: run test serve install install-dev lint format bench test-postgres

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/python
	bash scripts/install-system-packages.sh
	$(BIN)/pip install --quiet -r requirements.txt

install-dev: $(BIN)/python
	bash scripts/install-system-packages.sh test
	$(BIN)/pip install --quiet -r requirements-dev.txt

run: install
	$(DEV) $(BIN)/python manage.py migrate --no-input -v0
	$(DEV) $(BIN)/python manage.py loadpacks
	$(DEV) $(BIN)/python scripts/with_worker.py $(BIN)/python manage.py runserver 127.0.0.1:8000

serve: install
	$(BIN)/python manage.py check --deploy --fail-level WARNING
	$(BIN)/python manage.py collectstatic --no-input -v0
	$(BIN)/python manage.py migrate --no-input -v0
	$(BIN)/python manage.py loadpacks
	$(BIN)/python scripts/with_worker.py $(BIN)/gunicorn -c armybuilder/gunicorn.py armybuilder.wsgi

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python scripts/check_sizes.py

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The suite runs on every core (pytest-xdist), a test file per worker at a time so that its
# module fixtures (a browser, a loaded data set) are set up once; the packs are loaded once per worker
# (tests/conftest.py). It prints its 25 slowest tests. One area: `.venv/bin/python -m pytest tests/test_cards.py`.
PYTEST_PARALLEL = -n auto --dist loadfile
PYTEST_REPORT = --durations=25

test: lint
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) $(PYTEST_REPORT)

# Against a local PostgreSQL server and a local Redis (installed and started by scripts/postgres.sh and
# scripts/redis.sh): the set-up of several machines, on one. It runs the tests of what differs between
# databases and caches (marked `backends`, tests/conftest.py says which and why); the others ran in `make test`.
test-postgres: install-dev
	bash scripts/install-system-packages.sh postgres redis
	bash scripts/postgres.sh
	bash scripts/redis.sh
	DATABASE_URL=postgres://armybuilder:armybuilder@127.0.0.1:5432/armybuilder \
	REDIS_URL=redis://127.0.0.1:6379/0 $(BIN)/python -m pytest $(PYTEST_PARALLEL) $(PYTEST_REPORT) -m backends

bench: install-dev
	bash scripts/install-system-packages.sh bench
	$(BIN)/python scripts/bench_print.py
	$(DEV) $(BIN)/python scripts/bench.py
	$(BIN)/python scripts/bench_input.py
	$(BIN)/python scripts/load.py
	$(BIN)/python scripts/bench_battlescribe.py
	$(BIN)/python scripts/bench_battlescribe_editor.py
	$(BIN)/python scripts/bench_hostile_inputs.py
