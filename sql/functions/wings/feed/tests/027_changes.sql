/* pgmigrate-encoding: utf-8 */
-- 027_changes: the change feed (issue 14, item 4). Every committed write appends to the
-- tenant's feed in its own transaction: upserts with their ids (an unchanged repeat adds
-- nothing), an outcome, a simulation's upsert and delete; changes_since reads it in order
-- after a cursor, under row-level security: an unknown cursor answers nothing; change ids
-- are the tenant's own (V0039: 1, 2, 3 ... whatever other tenants write); no tenant role
-- writes the feed, by itself or through code of its own, whatever its names and statements
-- say (memory._record_change reads its caller from the call stack). Imports, concurrency,
-- restarts and the upgrade of existing feeds are tested in tests/test_changes.py.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(39);

CREATE FUNCTION fx.last_change(p_tenant_id uuid) RETURNS bigint LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $$ SELECT max(change_id) FROM memory.changes WHERE tenant_id = p_tenant_id $$;
CREATE TEMP TABLE fx_cursor (tenant text PRIMARY KEY, change_id bigint);
GRANT SELECT ON fx_cursor TO PUBLIC;
INSERT INTO fx_cursor VALUES ('a', fx.last_change(fx.tenant_a())), ('b', fx.last_change(fx.tenant_b()));

SELECT ok((SELECT change_id FROM fx_cursor WHERE tenant = 'a') IS NOT NULL,
          'the fixture''s upsert_simulation is in the feed');

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "n1", "name": "李华", "type": "Person"}, {"id": "n2", "name": "Plan", "type": "Policy"}]');
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "n1", "name": "李华", "type": "Person"}, {"id": "n2", "name": "Plan", "type": "Policy"}]');
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "OPPOSES", "source_id": "n1", "target_id": "n2", "fact": "李华反对计划"}]');
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "p1", "agent_id": 1, "action_type": "CREATE_POST", "content": "no cars"}]');
SELECT memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), '[{"agent_id": 1, "platform": "reddit", "name": "Li"}]');
SELECT memory.upsert_predictions(fx.tenant_a(), fx.sim_a(), '[{"id": "pr1", "claim": "the road closes", "confidence": 0.7}]');
SELECT memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'pr1', 'confirmed');
SELECT memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'pr1', 'confirmed');
SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'sim-a');
SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'renamed');
RESET SESSION AUTHORIZATION;

-- What the feed says (8)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq(
    $$SELECT kind, op, ids, counts FROM memory.changes_since(fx.tenant_a(), (SELECT change_id FROM fx_cursor WHERE tenant = 'a'))$$,
    $$VALUES ('nodes'::text, 'upsert'::text, '{n1,n2}'::text[], '{"inserted": 2, "updated": 0}'::jsonb),
             ('edges', 'upsert', '{e1}', '{"inserted": 1, "updated": 0}'),
             ('episodes', 'upsert', '{p1}', '{"inserted": 1, "updated": 0}'),
             ('profiles', 'upsert', '{reddit:1}', '{"inserted": 1, "updated": 0}'),
             ('predictions', 'upsert', '{pr1}', '{"inserted": 1, "updated": 0}'),
             ('prediction_outcomes', 'outcome', '{pr1}', '{}'),
             ('simulation', 'upsert', NULL, '{}')$$,
    'each write that changed something is one change, in order, with its ids; unchanged repeats add nothing');
SELECT is((SELECT count(DISTINCT simulation_id) FILTER (WHERE simulation_id = fx.sim_a()) || '/' || count(*)
             FROM memory.changes_since(fx.tenant_a(), (SELECT change_id FROM fx_cursor WHERE tenant = 'a'))),
          '1/7', 'every change names its simulation');
SELECT is((SELECT detail FROM memory.changes_since(fx.tenant_a(), (SELECT change_id FROM fx_cursor WHERE tenant = 'a'))
            WHERE kind = 'prediction_outcomes'), '{"outcome": "confirmed"}'::jsonb, 'an outcome says which');
SELECT ok((SELECT bool_and(s.seq = s.prev + 1) FROM (
             SELECT seq, lag(seq) OVER (ORDER BY change_id) AS prev FROM memory.changes_since(fx.tenant_a(), NULL)) AS s
            WHERE s.prev IS NOT NULL), 'seq counts the tenant''s changes without gaps, in change_id order');
SELECT is((SELECT min(seq) FROM memory.changes_since(fx.tenant_a(), NULL)), 1::bigint, 'NULL reads from the first change');
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_a(), NULL, 3)), 3::bigint, 'p_limit pages');
SELECT is((SELECT recorded_by FROM memory.changes_since(fx.tenant_a(), NULL) ORDER BY change_id DESC LIMIT 1),
          'app_a'::name, 'a change records the session user that made it');
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_a(), fx.last_change(fx.tenant_a()))), 0::bigint,
          'after the last change: nothing');
RESET SESSION AUTHORIZATION;

-- Numbers per tenant (4): writes of A and B interleaved, each tenant's ids count its own changes
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT memory.upsert_nodes(fx.tenant_b(), fx.sim_b(), '[{"id": "b1", "name": "B one", "type": "Person"}]');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n3", "name": "A three", "type": "Person"}]');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT memory.upsert_nodes(fx.tenant_b(), fx.sim_b(), '[{"id": "b2", "name": "B two", "type": "Person"}]');
SELECT memory.upsert_simulation(fx.tenant_b(), fx.sim_b(), 'renamed b');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT is((SELECT array_agg(change_id ORDER BY change_id) FROM memory.changes_since(fx.tenant_a(), NULL)),
          (SELECT array_agg(i) FROM generate_series(1, 9) AS i)::bigint[],
          'tenant A''s change ids are 1 .. 9, no number of B''s among them');
SELECT ok((SELECT bool_and(change_id = seq) FROM memory.changes_since(fx.tenant_a(), NULL)),
          'a new tenant''s change_id is its seq');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT array_agg(change_id ORDER BY change_id) FROM memory.changes_since(fx.tenant_b(), NULL)),
          '{1,2,3,4}'::bigint[], 'tenant B''s are 1 .. 4, interleaved with A''s writes');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT last_change_id FROM memory.change_heads WHERE tenant_id = fx.tenant_b()), 4::bigint,
          'the head holds the tenant''s last change_id');

-- Cursors and isolation (6)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_b(), 4)), 0::bigint,
          'a cursor is a number of the tenant''s own: after B''s last, nothing');
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_b(), 999999999)), 0::bigint,
          'an unknown cursor answers nothing, the same');
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_b(), NULL)), 4::bigint,
          'tenant B reads only its own changes');
SELECT throws_ok($$SELECT * FROM memory.changes_since(fx.tenant_a(), NULL)$$, '42501', NULL,
                 'another tenant''s feed: 42501');
SELECT set_config('memory.tenant_id', fx.tenant_a()::text, true);
SELECT is((SELECT count(*) FROM memory.changes), 0::bigint, 'the table read directly with a forged call tenant shows nothing');
SELECT throws_ok($$SELECT * FROM memory.changes_since(fx.tenant_b(), NULL, 0)$$, '22023', NULL, 'p_limit below 1: 22023');
RESET SESSION AUTHORIZATION;

-- Nobody but the definer writes the feed (5)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$INSERT INTO memory.changes (tenant_id, change_id, seq, kind, op) VALUES (fx.tenant_a(), 99, 99, 'nodes', 'upsert')$$,
                 '42501', NULL, 'a writer cannot insert into the feed');
SELECT throws_ok($$UPDATE memory.change_heads SET changes = 0$$, '42501', NULL, 'nor move its head');
SELECT throws_ok($$SELECT memory._record_change(fx.tenant_b(), fx.sim_b(), 'nodes', 'upsert')$$, '42501', NULL,
                 'nor record a change for a tenant it holds no grant for');
SELECT throws_ok($$SELECT memory._record_change(fx.tenant_a(), fx.sim_a(), 'nodes', 'upsert', NULL, '{}', NULL, '{"forged": true}')$$,
                 '42501', NULL, 'nor for its own tenant: only the memory''s own code records a change');
SELECT throws_ok($$LOCK TABLE memory.change_heads IN SHARE ROW EXCLUSIVE MODE$$, '42501', NULL,
                 'nor lock the heads against other tenants');
RESET SESSION AUTHORIZATION;

-- A tenant's own code records nothing either (9): its functions, whatever their language,
-- names and statements, are refused; the frame below memory._record_change must be a
-- PL/pgSQL function of schema memory owned by memory_owner, calling it as a plain expression
CREATE SCHEMA fx_evil;
GRANT USAGE ON SCHEMA fx_evil TO PUBLIC;
CREATE FUNCTION fx_evil.by_perform(p_tenant_id uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN PERFORM memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert'); END $$;
CREATE FUNCTION fx_evil.by_expression(p_tenant_id uuid) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN RETURN memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert'); END $$;
-- a forged frame line in a quoted alias: the statement's text stands between the frames
CREATE FUNCTION fx_evil.by_alias(p_tenant_id uuid) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE v_counts jsonb := '{"forged": 1}';
BEGIN
    PERFORM memory._record_change(p_tenant_id, NULL, 'tenant', 'delete', NULL, v_counts) "
PL/pgSQL function memory.delete_tenant(uuid) line 36";
END $f$;
CREATE FUNCTION fx_evil."memory._record_upsert"(p_tenant_id uuid) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN RETURN memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert'); END $$;
CREATE FUNCTION fx_evil."x
PL/pgSQL function memory.delete_tenant(uuid) line 36"(p_tenant_id uuid) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN RETURN memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert'); END $$;
CREATE FUNCTION fx_evil.by_sql(p_tenant_id uuid) RETURNS bigint LANGUAGE sql
    AS $$ SELECT memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert') $$;
CREATE FUNCTION fx_evil.by_sql_statements(p_tenant_id uuid) RETURNS bigint LANGUAGE sql
    AS $$ SELECT 1; SELECT memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert') $$;
-- code in schema memory that is not memory_owner's, and memory_owner's calling through a query
CREATE FUNCTION memory.fx_not_the_owners(p_tenant_id uuid) RETURNS bigint LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $$ BEGIN RETURN memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert'); END $$;
CREATE FUNCTION memory.fx_by_query(p_tenant_id uuid) RETURNS bigint LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $$ BEGIN RETURN (SELECT memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert')); END $$;
ALTER FUNCTION memory.fx_by_query(uuid) OWNER TO memory_owner;
-- memory_owner's code calling it as a plain expression, as the write paths do
CREATE FUNCTION memory.fx_owner_records(p_tenant_id uuid, p_detail jsonb) RETURNS bigint LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $$ BEGIN RETURN memory._record_change(p_tenant_id, NULL, 'nodes', 'upsert', NULL, '{}', NULL, p_detail); END $$;
ALTER FUNCTION memory.fx_owner_records(uuid, jsonb) OWNER TO memory_owner;
GRANT EXECUTE ON FUNCTION memory.fx_not_the_owners(uuid), memory.fx_by_query(uuid),
                          memory.fx_owner_records(uuid, jsonb) TO app_a;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT fx_evil.by_perform(fx.tenant_a())$$, '42501', NULL, 'a tenant''s function calling it by PERFORM: 42501');
SELECT throws_ok($$SELECT fx_evil.by_expression(fx.tenant_a())$$, '42501', NULL, 'or as a plain expression: 42501');
SELECT throws_ok($$SELECT fx_evil.by_alias(fx.tenant_a())$$, '42501', NULL,
                 'a forged frame of memory.delete_tenant in its statement''s text: 42501');
SET LOCAL search_path = fx_evil, public, pg_catalog;
SELECT throws_ok($$SELECT "memory._record_upsert"(fx.tenant_a())$$, '42501', NULL,
                 'a function named memory._record_upsert, on the caller''s path: 42501');
RESET search_path;
SELECT throws_ok(format('SELECT fx_evil.%I(fx.tenant_a())', E'x\nPL/pgSQL function memory.delete_tenant(uuid) line 36'),
                 '42501', NULL, 'a name carrying a forged frame line: 42501');
SELECT throws_ok($$SELECT fx_evil.by_sql(fx.tenant_a())$$, '42501', NULL, 'a SQL function (inlined): 42501');
SELECT throws_ok($$SELECT fx_evil.by_sql_statements(fx.tenant_a())$$, '42501', NULL, 'a SQL function of two statements: 42501');
SELECT throws_ok($$SELECT memory.fx_not_the_owners(fx.tenant_a())$$, '42501', NULL,
                 'a function in schema memory that memory_owner does not own: 42501');
SELECT throws_ok($$SELECT memory.fx_by_query(fx.tenant_a())$$, '42501', NULL,
                 'memory_owner''s function calling it in a query (a statement line between): 42501');
RESET SESSION AUTHORIZATION;

-- memory_owner's code is heard, within the caps (2)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is(memory.fx_owner_records(fx.tenant_a(), '{"probe": 1}'), 10::bigint,
          'memory_owner''s PL/pgSQL calling it as a plain expression records the change (A''s 10th)');
SELECT throws_ok($$SELECT memory.fx_owner_records(fx.tenant_a(), jsonb_build_object('big', repeat('x', 70000)))$$,
                 '54000', NULL, 'a detail over 64 kB: 54000');
RESET SESSION AUTHORIZATION;

-- Deletes (4)
UPDATE fx_cursor SET change_id = fx.last_change(fx.tenant_a()) WHERE tenant = 'a';
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.delete_simulation(fx.tenant_a(), fx.sim_a());
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq(
    $$SELECT kind, op, simulation_id, counts ->> 'nodes', counts ->> 'edges' FROM memory.changes_since(fx.tenant_a(), (SELECT change_id FROM fx_cursor WHERE tenant = 'a'))$$,
    $$VALUES ('simulation'::text, 'delete'::text, fx.sim_a(), '3'::text, '1'::text)$$,
    'a deleted simulation is one change with its counts');
SELECT ok(EXISTS (SELECT 1 FROM memory.changes_since(fx.tenant_a(), NULL) WHERE kind = 'nodes'),
          'the deleted simulation''s earlier changes stay in the feed');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.delete_tenant(fx.tenant_b());
RESET SESSION AUTHORIZATION;
SELECT is((SELECT count(*) FROM memory.changes WHERE tenant_id = fx.tenant_b()), 0::bigint,
          'a deleted tenant''s feed goes with it');
SELECT is((SELECT count(*) FROM memory.change_heads WHERE tenant_id = fx.tenant_b()), 0::bigint,
          'and its head');

SELECT * FROM finish();
ROLLBACK;
