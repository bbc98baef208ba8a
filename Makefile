PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play
BENCH_STAMP := $(VENV)/.installed-bench
# make play PORT=8001 serves on another port (default 8000)
PORT ?= 8000

.PHONY: play test system lint types engine engine-for-tests unit bench clean

# Playing needs only citywatch itself; the tests, Ray, PettingZoo and training extras come with
# make test.
$(PLAY_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[compile]'
	touch $(PLAY_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,env,train]'
	touch $(STAMP) $(PLAY_STAMP)

# The benchmarks also compare with OpenSpiel (the extra bench).
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,env,train,bench]'
	touch $(BENCH_STAMP)

# The compiled engine (issue 32, docs/engine-speed.md): mypyc builds the rules modules in place
# where a C compiler is present, once per change of their sources; otherwise pure Python runs.
engine: $(PLAY_STAMP)
	$(BIN)/python scripts/build_engine.py

# make test: a compiler present but a failed build is a failure, not a quiet fallback.
engine-for-tests: $(STAMP)
	$(BIN)/python scripts/build_engine.py --strict

play: $(PLAY_STAMP) engine
	$(BIN)/citywatch serve --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check citywatch tests benchmarks examples

types: $(STAMP)
	$(BIN)/mypy

# The whole suite runs on the compiled engine (where built), then the rules tests again on the
# pure-Python source (CITYWATCH_ENGINE=python), so both engines are tested (test_bk_guards has
# two tests that patch module functions, which only the pure engine calls through).
unit: $(STAMP) engine-for-tests
	$(BIN)/pytest -n 2 --durations=25
	if [ -f citywatch/engine-build.json ]; then CITYWATCH_ENGINE=python $(BIN)/pytest -n 2 -q \
		tests/test_conformance.py tests/test_perft.py tests/test_golden.py tests/core/test_engine.py \
		tests/core/test_rng.py tests/games/black_keep/test_bk_guards.py; fi

# The system packages the tests need (chromium, PostgreSQL), installed when possible.
system:
	scripts/system-packages

test: system lint types unit

bench: $(BENCH_STAMP) engine
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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find citywatch -name '*.so' -delete
	rm -f citywatch/engine-build.json
