# Two commands on a fresh machine (only Python 3.11+ and make assumed):
#   make run   - set up everything and serve the demo site on http://127.0.0.1:$(PORT)
#   make test  - run the whole test suite
# While working: make test-fast (unit and web tests, no browser, no long walks, fewer Hypothesis examples).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test test-server test-fast test-stress install lint migrate demo integration clean bench

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

# The test processes (pytest's and each worker's) keep the project's compiled modules
# (__pycache__, ignored by git) where the environment says not to write them: with
# PYTHONDONTWRITEBYTECODE set, each process compiled and assertion-rewrote every test module
# again, about 5 s of CPU a process (docs/testing.md).
unexport PYTHONDONTWRITEBYTECODE

# Tests run in parallel, one worker per CPU (pytest-xdist: each worker has its own database
# and live server); WORKERS=1 for one process. HYPOTHESIS_PROFILE (tests/hypothesis_profiles.py)
# sets how many examples the property tests try: default here, ci in .ci/run.
WORKERS ?= auto
PYTEST := $(BIN)/python -m pytest -n $(WORKERS) --dist worksteal

test: install
	$(PYTEST) -m "not integration"

# Every test but the browser's (unit, web, the long walks): what CI runs on PostgreSQL.
test-server: install
	$(PYTEST) -m "not integration and not browser"

test-fast: install
	HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-dev} $(PYTEST) -m "not integration and not browser and not slow"

# The suite on a saturated machine (docs/testing.md): four CPU hogs beside it, so a test that
# depends on the machine's speed shows itself. RUNS=3 runs it three times in a row.
RUNS ?= 1
test-stress: install
	@command -v stress-ng >/dev/null || { echo "needs stress-ng (apt-get install stress-ng)"; exit 2; }
	stress-ng --cpu 4 --timeout 0 --quiet & hog=$$!; \
	trap "kill $$hog" EXIT; \
	for i in $$(seq 1 $(RUNS)); do echo "== stressed run $$i of $(RUNS)"; $(PYTEST) -m "not integration" || exit 1; done

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
