PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play
BENCH_STAMP := $(VENV)/.installed-bench
# make play PORT=8001 serves on another port (default 8000)
PORT ?= 8000

.PHONY: play test system lint types unit bench clean

# Playing needs only citywatch itself; the tests, Ray and PettingZoo extras come with make test.
$(PLAY_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(PLAY_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,env]'
	touch $(STAMP) $(PLAY_STAMP)

# The benchmarks also compare with OpenSpiel (the extra bench).
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,env,bench]'
	touch $(BENCH_STAMP)

play: $(PLAY_STAMP)
	$(BIN)/citywatch serve --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check citywatch tests benchmarks

types: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 --durations=25

# The system packages the tests need (chromium, PostgreSQL), installed when possible.
system:
	scripts/system-packages

test: system lint types unit

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_compiled.py --baseline a7e4c8c
	$(BIN)/python benchmarks/bench_black_keep_guards.py
	$(BIN)/python benchmarks/bench_black_keep_sight.py
	$(BIN)/python benchmarks/bench_server.py
	$(BIN)/python benchmarks/bench_server.py --bot heuristic --tables 20
	$(BIN)/python benchmarks/bench_pace.py
	$(BIN)/python benchmarks/bench_lockout.py
	$(BIN)/python benchmarks/bench_cluster.py
	$(BIN)/python benchmarks/bench_open_tables.py
	$(BIN)/python benchmarks/bench_lab.py
	$(BIN)/python benchmarks/bench_env.py
	$(BIN)/python benchmarks/bench_documents.py
	$(BIN)/python benchmarks/bench_coach.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
