# Record Room: the two commands of the README are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint jslint typecheck pytest lock system-deps bench clean

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

## run: start the game server (rooms kept in ./data) on port 8000 of every address, so phones on the
## same network can join; prints the join address and a QR code
run: $(STAMP)
	$(BIN)/recordroom serve --port 8000 --data-dir data

## test: install what the tests need, then lint, format check, type check and the whole suite
test: $(STAMP) system-deps lint jslint typecheck pytest

system-deps:
	@bash scripts/system-deps.sh chromium redis-server fonts-wqy-microhei
	@command -v npm >/dev/null || bash scripts/system-deps.sh nodejs npm

## jslint: Biome lints the browser pages and checks their format (`npx biome check --write
## recordroom/web` formats them); the exact version is pinned in package-lock.json
jslint: node_modules/.installed
	node_modules/.bin/biome ci recordroom/web

node_modules/.installed: package.json package-lock.json | system-deps
	npm ci --no-audit --no-fund --silent
	touch $@

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n auto --dist worksteal --durations=15

## lock: re-resolve requirements.lock from pyproject.toml (needs network access to the package index)
lock:
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --extra rl -o requirements.lock --python-version 3.11

## bench: the speed benchmarks (not part of make test)
bench: $(STAMP)
	$(BIN)/python bench/playout.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache node_modules
