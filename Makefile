# Two commands on a fresh machine (only Python 3.11+ and make assumed):
#   make run   - set up everything and serve the demo site on http://127.0.0.1:$(PORT)
#   make test  - run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test install lint migrate demo integration clean bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py seed_demo

run: demo
	SITE_URL=http://127.0.0.1:$(PORT) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: install
	$(BIN)/python -m pytest -m "not integration"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

integration: install
	bash .ci/integration

bench: install
	$(BIN)/python benchmarks/engine_bench.py
	$(BIN)/python benchmarks/ratings_bench.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .hypothesis
