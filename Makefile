# Two entry points: `make demo` (set up, index, answer one question) and `make test` (set up, run all tests);
# `make lint` runs ruff (configured in pyproject.toml [tool.ruff]).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.clinrag-installed
DEMO_QUESTION ?= When should average-risk women start mammography, and do the organizations agree?

.PHONY: install browser-deps demo test test-scale lint eval bench clean

# torch first, from the local CPU wheel: anything else would pull a multi-GB CUDA build. Everything is installed
# here (the training stack, Postgres threads, Ray builds); a serving worker needs only `pip install clinrag`
# (docs/scale.md).
$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev,train,postgres,scale]'
	touch $(STAMP)

install: $(STAMP)

# The browser tests drive Debian's chromium through Playwright (`playwright install` is never run: no browser
# download); as root in CI, otherwise through sudo.
browser-deps:
	command -v chromium >/dev/null || ( [ "$$(id -u)" = 0 ] && S= || S=sudo; \
		$$S apt-get update -q && $$S apt-get install -y -q chromium chromium-driver )

demo: install
	$(VENV)/bin/clinrag index build --if-stale
	$(VENV)/bin/clinrag ask "$(DEMO_QUESTION)"
	@echo "The same evidence map as a web page: $(VENV)/bin/clinrag serve, then open http://127.0.0.1:8000"

test: install browser-deps
	$(PY) -m pytest

# The scale-out pieces alone (docs/scale.md): a base install without torch, chat threads on PostgreSQL, Ray builds,
# the corpus in PostgreSQL and serve workers sharing it.
test-scale: install
	$(PY) -m pytest -q tests/test_lean_install.py tests/test_threads_postgres.py tests/test_ray_build.py \
		tests/test_corpus_postgres.py tests/test_corpus_living.py tests/test_serve_postgres.py

reliability: install browser-deps
	$(PY) -m pytest -q -m reliability_long tests/reliability

lint: install
	$(VENV)/bin/ruff check .

eval: install
	$(VENV)/bin/clinrag eval guideline-drift

bench: install
	$(PY) benchmarks/query_speed.py
	$(PY) benchmarks/query_latency.py
	$(PY) benchmarks/retrieval_baselines.py
	$(PY) benchmarks/pubmed_corpus.py
	$(PY) benchmarks/nli_speed.py

clean:
	rm -rf build *.egg-info .pytest_cache
