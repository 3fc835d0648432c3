# Two commands set everything up on a fresh Debian machine:
#   make run    install everything, load the packs, serve http://127.0.0.1:8000
#   make test   install everything, lint, run the test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEV := DJANGO_DEBUG=1

.PHONY: run test install install-dev system lint format bench

system:
	bash scripts/install-system-packages.sh

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: system $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt

install-dev: system $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt

run: install
	$(DEV) $(BIN)/python manage.py migrate --no-input -v0
	$(DEV) $(BIN)/python manage.py loadpacks
	$(DEV) $(BIN)/python manage.py runserver 127.0.0.1:8000

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint
	$(BIN)/python -m pytest

bench: install-dev
	$(DEV) $(BIN)/python scripts/bench.py
