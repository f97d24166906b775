/* pgmigrate-encoding: utf-8 */
-- 027_changes: the change feed (issue 14, item 4). Every committed write appends to the
-- tenant's feed in its own transaction: upserts with their ids (an unchanged repeat adds
-- nothing), an outcome, a simulation's upsert and delete; changes_since reads it in order
-- after a cursor, under row-level security: another tenant's cursor and an unknown one
-- answer nothing alike; no tenant role writes the feed. Imports, concurrency and restarts
-- are tested in tests/test_changes.py.
BEGIN;
\ir _fixtures.psql
SELECT plan(24);

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

-- Cursors and isolation (6)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_b(), (SELECT change_id FROM fx_cursor WHERE tenant = 'a'))),
          0::bigint, 'another tenant''s cursor answers nothing');
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_b(), 999999999)), 0::bigint,
          'an unknown cursor answers nothing, the same');
SELECT is((SELECT count(*) FROM memory.changes_since(fx.tenant_b(), NULL)), 1::bigint,
          'tenant B reads only its own change (its simulation)');
SELECT throws_ok($$SELECT * FROM memory.changes_since(fx.tenant_a(), NULL)$$, '42501', NULL,
                 'another tenant''s feed: 42501');
SELECT set_config('memory.tenant_id', fx.tenant_a()::text, true);
SELECT is((SELECT count(*) FROM memory.changes), 0::bigint, 'the table read directly with a forged call tenant shows nothing');
SELECT throws_ok($$SELECT * FROM memory.changes_since(fx.tenant_b(), NULL, 0)$$, '22023', NULL, 'p_limit below 1: 22023');
RESET SESSION AUTHORIZATION;

-- Nobody but the definer writes the feed (5)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$INSERT INTO memory.changes (tenant_id, seq, kind, op) VALUES (fx.tenant_a(), 99, 'nodes', 'upsert')$$,
                 '42501', NULL, 'a writer cannot insert into the feed');
SELECT throws_ok($$UPDATE memory.change_heads SET changes = 0$$, '42501', NULL, 'nor move its head');
SELECT throws_ok($$SELECT memory._record_change(fx.tenant_b(), fx.sim_b(), 'nodes', 'upsert')$$, '42501', NULL,
                 'nor record a change for a tenant it holds no grant for');
SELECT throws_ok($$SELECT memory._record_change(fx.tenant_a(), fx.sim_a(), 'nodes', 'rename')$$, '22023',
                 'unknown change operation rename', 'an unknown operation: 22023');
SELECT throws_ok($$LOCK TABLE memory.change_heads IN SHARE ROW EXCLUSIVE MODE$$, '42501', NULL,
                 'nor lock the heads against other tenants');
RESET SESSION AUTHORIZATION;

-- Deletes (4)
UPDATE fx_cursor SET change_id = fx.last_change(fx.tenant_a()) WHERE tenant = 'a';
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.delete_simulation(fx.tenant_a(), fx.sim_a());
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq(
    $$SELECT kind, op, simulation_id, counts ->> 'nodes', counts ->> 'edges' FROM memory.changes_since(fx.tenant_a(), (SELECT change_id FROM fx_cursor WHERE tenant = 'a'))$$,
    $$VALUES ('simulation'::text, 'delete'::text, fx.sim_a(), '2'::text, '1'::text)$$,
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
