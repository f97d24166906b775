# swarm-memory: the front door.
#   make demo   set up, start the embedded PostgreSQL, migrate, run the walkthrough
#   make test   set up and run every test (pytest and the pgTAP files of sql/tests)
#   make bench  the benchmarks (not part of make test)
#   make db     start the embedded PostgreSQL and print its DSN
#   make lint   ruff
# Every target installs what it needs by itself, idempotently.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PGDATA ?= .cache/pgdata
PGTAP_CACHE := .cache/pgtap
PGTAP_STAMP := $(VENV)/.pgtap-installed

.PHONY: demo test bench db db-stop migrate lint setup clean

setup: $(STAMP) $(PGTAP_STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	# pgmigrate requires psycopg2, which builds from source; psycopg2-binary stands in for it.
	$(PY) -m pip install -q --no-deps yandex-pgmigrate==1.0.13
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# pgTAP 1.2.0 as plain SQL from Debian's postgresql-15-pgtap, copied into the embedded
# server's extension directory (it installs and runs on PostgreSQL 18).
$(PGTAP_STAMP): $(STAMP)
	mkdir -p $(PGTAP_CACHE)
	ls $(PGTAP_CACHE)/postgresql-15-pgtap_*.deb >/dev/null 2>&1 || \
	  (cd $(PGTAP_CACHE) && (apt-get download postgresql-15-pgtap 2>/dev/null || \
	    (apt-get update -qq && apt-get download postgresql-15-pgtap)))
	rm -rf $(PGTAP_CACHE)/root && dpkg-deb -x $(PGTAP_CACHE)/postgresql-15-pgtap_*.deb $(PGTAP_CACHE)/root
	ext=$$($(PY) -c 'from swarm_memory.server import extension_dir; print(extension_dir())') && \
	  cp $(PGTAP_CACHE)/root/usr/share/postgresql/15/extension/pgtap.control \
	     $(PGTAP_CACHE)/root/usr/share/postgresql/15/extension/pgtap--1.2.0.sql "$$ext"/
	touch $@

demo: $(STAMP)
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) demo

test: $(STAMP) $(PGTAP_STAMP)
	$(PY) -m pytest tests

bench: $(STAMP)
	$(PY) -m bench.run

db: $(STAMP)
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) db up

db-stop: $(STAMP)
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) db down

migrate: $(STAMP)
	$(PY) -m swarm_memory.cli --datadir $(PGDATA) migrate

lint: $(STAMP)
	$(VENV)/bin/ruff check python tests bench
	$(VENV)/bin/ruff format --check python tests bench

clean:
	-$(PY) -m swarm_memory.cli --datadir $(PGDATA) db down
	rm -rf .cache $(VENV)
