# Two commands for a new user: `make serve` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.package-lock.json
MUTATION_STAMP := $(VENV)/.mutation-installed
MUTATE ?=

.PHONY: serve test test-unit lint build check system-packages node-packages dist bench-search bench-build bench-serve-memory mutation mutation-js mutation-options clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --editable .
	touch $(STAMP)

serve: $(STAMP)  ## set up, then serve both languages with live reload on 127.0.0.1:8000
	$(VENV)/bin/pitfalls serve

build: $(STAMP)  ## set up, then build both languages into site/
	$(VENV)/bin/pitfalls build

check: $(STAMP)  ## validate every record
	$(VENV)/bin/pitfalls check

system-packages:  ## Debian's chromium-headless-shell (browser tests; Playwright's own download does not work here) and chromium (the benchmarks), nginx (tests/test_nginx.py), nodejs (`pitfalls search` runs the site's engine) and npm (installs axe-core), when missing
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v chromium-headless-shell >/dev/null || missing="$$missing chromium-headless-shell"; \
	command -v nginx >/dev/null || test -x /usr/sbin/nginx || missing="$$missing nginx"; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then echo "apt-get install$$missing"; apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; fi

$(NODE_STAMP): package.json package-lock.json | system-packages
	npm ci --ignore-scripts --no-audit --no-fund
	touch $(NODE_STAMP)

node-packages: $(NODE_STAMP)  ## the npm packages of package-lock.json: axe-core, for tests/test_a11y.py; StrykerJS, for make mutation-js

bench-search: $(STAMP) system-packages  ## our search vs stock Material search: quality, speed (via nginx and http.server), bytes, build time
	$(PY) -m bench.bench_search

bench-build: $(STAMP)  ## build time and memory at 1,000 and 5,000 records vs plain mkdocs-material; save-to-reload under serve
	$(PY) -m bench.bench_build

bench-serve-memory: $(STAMP)  ## the serve workers' memory over 10 edits of the vocabulary (one jieba tokenizer kept at a time)
	$(PY) -m bench.bench_serve_memory

dist: $(STAMP)  ## build, then pack the site into dist/pitfall-guide-site.tar.gz (same commit, same bytes)
	$(VENV)/bin/pitfalls dist

test: $(STAMP) system-packages $(NODE_STAMP) lint  ## set up, then lint and run every test (unit, site builds, browser)
	$(PY) -m pytest

test-unit: $(STAMP)  ## the quick layer: tests that build no site and start no browser
	$(PY) -m pytest -m "not site and not browser"

$(MUTATION_STAMP): requirements-mutation.txt $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-mutation.txt
	touch $(MUTATION_STAMP)

mutation: $(STAMP) $(MUTATION_STAMP)  ## slow, not part of `make test`: mutmut over the modules of [tool.mutmut] in pyproject.toml (MUTATE=pitfalls/x.py for one), each against the quick layer; prints the score per module
	$(PY) -m bench.mutation $(MUTATE)

mutation-js: $(NODE_STAMP)  ## not part of `make test`: StrykerJS 9.5 (stryker.config.mjs) over the search engine's modules against its node tests (tests/js/); about half an hour on 2 busy cores
	npx --no-install stryker run

mutation-options: $(STAMP) $(NODE_STAMP)  ## not part of `make test`: each number of static/assets/search/options.js moved one step either way, against the engine's node tests (bench/mutation_options.py); about a minute
	$(PY) -m bench.mutation_options

lint: $(STAMP)  ## ruff, and the import contracts of docs/ARCHITECTURE.md (import-linter); both configured in pyproject.toml
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache

clean:
	rm -rf site .site-* dist $(VENV) node_modules mutants
