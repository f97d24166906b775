/* pgmigrate-encoding: utf-8 */
-- 023_time: the time-aware graph (issue 11). Crafted temporal graphs: a fact superseded
-- twice, a fact that starts in the future, open intervals, a fact the graph expired without
-- an end, an invalid-before-valid edge, two edges to one node where the current one must win
-- although the ended one has the lesser key; the walk's two clocks, facts() in each state,
-- history() across changes and a promote that removes, and who may read and write history.
-- Record time (p_known_at) across transactions is tested in tests/test_time.py: within one
-- transaction now() does not move.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(36);

-- The councillor 李华 supported the plan until June 2025 (e2, ended) and opposes it since
-- (e1, current); she will know the chamber from 2030 (e3, future); the chamber funded the
-- paper until the graph learned it no longer did, with no end known (e4, expired); the paper
-- reports on the plan, with no time at all (e5, open).
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "li", "name": "李华", "type": "Person"}, {"id": "plan", "name": "河滨路改造计划", "type": "Policy"},
      {"id": "chamber", "name": "Chamber of Commerce", "type": "Organization"},
      {"id": "paper", "name": "Riverside Gazette", "type": "Media"}]');
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "OPPOSES", "source_id": "li", "target_id": "plan", "fact": "李华反对河滨路改造计划",
       "valid_at": "2025-06-01T00:00:00Z"},
      {"id": "e2", "type": "SUPPORTS", "source_id": "li", "target_id": "plan", "fact": "李华支持河滨路改造计划",
       "valid_at": "2025-01-01T00:00:00Z", "invalid_at": "2025-06-01T00:00:00Z",
       "learned_at": "2025-01-02T00:00:00Z", "expired_at": "2025-06-02T00:00:00Z"},
      {"id": "e3", "type": "KNOWS", "source_id": "li", "target_id": "chamber", "fact": "Li will know the chamber",
       "valid_at": "2030-01-01T00:00:00Z"},
      {"id": "e4", "type": "FUNDS", "source_id": "chamber", "target_id": "paper", "fact": "The chamber funds the paper",
       "valid_at": "2024-01-01T00:00:00Z", "expired_at": "2025-02-01T00:00:00Z"},
      {"id": "e5", "type": "REPORTS_ON", "source_id": "paper", "target_id": "plan", "fact": "The paper reports on the plan"}]');
RESET SESSION AUTHORIZATION;

-- Columns and checks (4)
SELECT ok(pg_catalog.md5('e2')::uuid < pg_catalog.md5('e1')::uuid,
          'fixture: the ended edge e2 has the lesser key, which alone used to pick it');
SELECT results_eq($$SELECT learned_at, expired_at FROM memory.edges WHERE tenant_id = fx.tenant_a() AND edge_id = 'e2'$$,
                  $$VALUES ('2025-01-02T00:00:00Z'::timestamptz, '2025-06-02T00:00:00Z'::timestamptz)$$,
                  'learned_at and expired_at are columns an upsert writes');
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e6", "type": "T", "source_id": "li", "target_id": "plan"},
      {"id": "bad", "type": "T", "source_id": "li", "target_id": "plan",
       "valid_at": "2025-06-01T00:00:00Z", "invalid_at": "2025-01-01T00:00:00Z"}]')$$,
                 '22023', 'p_edges[1]: edge bad ends before it begins (invalid_at precedes valid_at)',
                 'an edge whose invalid_at precedes its valid_at is refused with its index and id');
SELECT memory.open_staging();
SELECT throws_ok($$INSERT INTO memory.staged_edges (tenant_id, attempt_id, edge_id, position, type, source_id, target_id, valid_at, invalid_at)
                   VALUES (fx.tenant_a(), fx.unknown(), 'bad', 0, 'T', 'li', 'plan', '2025-06-01', '2025-01-01')$$,
                 '23514', NULL, 'a staged edge that ends before it begins breaks staged_edges_validity_check');
RESET SESSION AUTHORIZATION;

-- The walk's world clock (8)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT node_id, edge_id, state FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'li')$$,
                  $$VALUES ('plan'::text, 'e1'::text, 'current'::text)$$,
                  'by default the walk follows the facts current now: the opposition, not the ended support nor the future acquaintance');
SELECT results_eq($$SELECT node_id, edge_id, state, valid_at, invalid_at
                      FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'li', p_include_ended => true)$$,
                  $$VALUES ('chamber'::text, 'e3'::text, 'future'::text, '2030-01-01T00:00:00Z'::timestamptz, NULL::timestamptz),
                           ('plan', 'e1', 'current', '2025-06-01T00:00:00Z', NULL)$$,
                  'with ended facts included, the current edge wins over the ended one with the lesser key; rows carry validity and state');
SELECT results_eq($$SELECT node_id, edge_id, state FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'li', p_as_of => '2025-03-01')$$,
                  $$VALUES ('plan'::text, 'e2'::text, 'current'::text)$$,
                  'as of March 2025 the walk follows the support, current then');
SELECT results_eq($$SELECT node_id, edge_id, state FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'li', p_as_of => 'infinity')$$,
                  $$VALUES ('chamber'::text, 'e3'::text, 'current'::text), ('plan', 'e1', 'current')$$,
                  'as of infinity: the latest state (every fact without an end)');
SELECT is_empty($$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'chamber', 2)$$,
                'the chamber reaches nothing now: its funding expired and its acquaintance lies in the future');
SELECT results_eq($$SELECT node_id, edge_id, state FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'chamber', 1, p_include_ended => true)$$,
                  $$VALUES ('li'::text, 'e3'::text, 'future'::text), ('paper', 'e4', 'expired')$$,
                  'with ended facts included it does, each edge in its state');
SELECT results_eq($$SELECT node_id, edge_id, state FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'chamber', 1, p_as_of => '2025-01-01')$$,
                  $$VALUES ('paper'::text, 'e4'::text, 'current'::text)$$,
                  'before the graph expired it, the funding was current and followed; the future acquaintance is not');
SELECT is_empty($$
    SELECT w.edge_id, a.as_of
      FROM (VALUES ('2024-06-01'::timestamptz), ('2025-03-01'), ('2025-06-01'), ('2026-01-01'), ('2031-01-01'), ('infinity')) AS a(as_of)
     CROSS JOIN LATERAL memory.neighbors(fx.tenant_a(), fx.sim_a(), 'li', 3, NULL, 'both', a.as_of, NULL, true) AS w
      JOIN memory.edges AS e ON e.tenant_id = fx.tenant_a() AND e.edge_id = w.edge_id
     WHERE w.state IS DISTINCT FROM memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, a.as_of)
$$, 'the walk states a fact''s state by the rule of memory._fact_state, at every moment');
RESET SESSION AUTHORIZATION;

-- facts() (9)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT edge_id, source_name, target_name, state FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'li')$$,
                  $$VALUES ('e1'::text, '李华'::text, '河滨路改造计划'::text, 'current'::text)$$,
                  'facts of a node: the current ones, with both ends named');
SELECT results_eq($$SELECT edge_id, state, valid_at, invalid_at FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'li', 'historical')$$,
                  $$VALUES ('e2'::text, 'ended'::text, '2025-01-01T00:00:00Z'::timestamptz, '2025-06-01T00:00:00Z'::timestamptz)$$,
                  'historical facts of a node, with their validity window');
SELECT results_eq($$SELECT edge_id, state FROM memory.facts(fx.tenant_a(), fx.sim_a(), NULL, 'historical')$$,
                  $$VALUES ('e2'::text, 'ended'::text), ('e4', 'expired')$$,
                  'historical facts of the simulation: ended and expired, newest first');
SELECT results_eq($$SELECT edge_id, state FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'li', 'future')$$,
                  $$VALUES ('e3'::text, 'future'::text)$$, 'facts that start in the future');
SELECT results_eq($$SELECT edge_id, state FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'li', 'all', '2025-03-01')$$,
                  $$VALUES ('e3'::text, 'future'::text), ('e1', 'future'), ('e2', 'current')$$,
                  'all facts of a node as of a moment, each in its state then');
SELECT results_eq($$SELECT edge_id, state FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'paper', 'current')$$,
                  $$VALUES ('e5'::text, 'current'::text)$$, 'a fact with no time at all is current (open interval)');
SELECT results_eq($$SELECT learned_at, expired_at FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'li', 'historical')$$,
                  $$VALUES ('2025-01-02T00:00:00Z'::timestamptz, '2025-06-02T00:00:00Z'::timestamptz)$$,
                  'facts carry when the graph learned the fact and its end');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'li', 'active')$$, '22023',
                 'unknown fact state ''active''; known: current, historical, future, all', 'an unknown state is refused with 22023');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'ghost')$$, 'P0002', NULL,
                 'facts of an unknown node: P0002');
RESET SESSION AUTHORIZATION;

-- history(): a fact superseded twice, an unchanged replay, a promote that removes (9)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "OPPOSES", "source_id": "li", "target_id": "plan", "fact": "李华强烈反对河滨路改造计划",
       "valid_at": "2025-06-01T00:00:00Z"}]');
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "OPPOSES", "source_id": "li", "target_id": "plan", "fact": "李华不再公开反对",
       "valid_at": "2025-06-01T00:00:00Z", "invalid_at": "2026-01-01T00:00:00Z"}]');
CREATE TEMP TABLE replayed AS SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "OPPOSES", "source_id": "li", "target_id": "plan", "fact": "李华不再公开反对",
       "valid_at": "2025-06-01T00:00:00Z", "invalid_at": "2026-01-01T00:00:00Z"}]');
RESET SESSION AUTHORIZATION;
SELECT results_eq($$SELECT version, change, data ->> 'fact', data ->> 'invalid_at' IS NOT NULL
                      FROM memory.history(fx.tenant_a(), fx.sim_a(), 'edge', 'e1')$$,
                  $$VALUES (1, 'updated'::text, '李华反对河滨路改造计划'::text, false),
                           (2, 'updated', '李华强烈反对河滨路改造计划', false),
                           (3, 'current', '李华不再公开反对', true)$$,
                  'a fact superseded twice has three versions, oldest first, the last the current one');
SELECT is((SELECT unchanged FROM replayed), 1::bigint, 'the replay changed nothing ...');
SELECT is((SELECT pg_catalog.count(*) FROM memory.row_history WHERE tenant_id = fx.tenant_a()), 2::bigint,
          '... and wrote no version');
SELECT ok((SELECT bool_and(h.data ? 'fact' AND NOT h.data ? 'embedding' AND h.attempt_id IS NULL)
             FROM memory.row_history AS h WHERE h.tenant_id = fx.tenant_a()),
          'versions keep their fields without the vector; an upsert names no attempt');

-- An import of the graph takes e5 over (its source becomes import: a version ends); the
-- next one no longer has it and removes it: its last version ends with that attempt.
SET LOCAL SESSION AUTHORIZATION app_a;
CREATE TEMP TABLE attempts (step integer PRIMARY KEY, id uuid);
GRANT SELECT ON attempts TO PUBLIC;
CREATE FUNCTION pg_temp.import_graph(p_step integer, p_edges text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO attempts VALUES (p_step, memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{"nodes": null, "edges": null}'));
    INSERT INTO pg_temp.stage_nodes (node_id, position, name, type)
    VALUES ('li', 0, '李华', 'Person'), ('plan', 1, '河滨路改造计划', 'Policy'),
           ('chamber', 2, 'Chamber of Commerce', 'Organization'), ('paper', 3, 'Riverside Gazette', 'Media');
    INSERT INTO pg_temp.stage_edges (edge_id, position, type, source_id, target_id, fact)
    SELECT e.edge_id, e.position, e.type, e.source_id, e.target_id, e.fact
      FROM (VALUES ('e5', 0, 'REPORTS_ON', 'paper', 'plan', 'The paper reports on the plan'),
                   ('e6', 1, 'KNOWS', 'li', 'paper', 'Li reads the paper')) AS e(edge_id, position, type, source_id, target_id, fact)
     WHERE e.edge_id = ANY (p_edges);
    PERFORM memory.stage_rows(fx.tenant_a(), (SELECT a.id FROM attempts AS a WHERE a.step = p_step));
    PERFORM memory.commit_import(fx.tenant_a(), (SELECT a.id FROM attempts AS a WHERE a.step = p_step));
END $$;
SELECT pg_temp.import_graph(1, ARRAY['e5', 'e6']);
SELECT pg_temp.import_graph(2, ARRAY['e6']);
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT version, change, attempt_id FROM memory.history(fx.tenant_a(), fx.sim_a(), 'edges', 'e5')$$,
                  $$SELECT 1, 'updated'::text, (SELECT id FROM attempts WHERE step = 1)
                    UNION ALL SELECT 2, 'removed', (SELECT id FROM attempts WHERE step = 2)$$,
                  'a fact an import took over and the next removed: each version ended by its attempt');
SELECT ok((SELECT pg_catalog.count(*) FROM memory.history(fx.tenant_a(), fx.sim_a(), 'node', 'li')) >= 1,
          'history reads nodes as well');
SELECT throws_ok($$SELECT * FROM memory.history(fx.tenant_a(), fx.sim_a(), 'profile', 'x')$$, '22023', NULL,
                 'history of a kind it does not keep: 22023');
SELECT throws_ok($$SELECT * FROM memory.history(fx.tenant_a(), fx.sim_a(), 'edge', 'never')$$, 'P0002', NULL,
                 'history of an id never stored: P0002');
RESET SESSION AUTHORIZATION;

-- Who reads and writes history, and its end (7)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.history(fx.tenant_a(), fx.sim_a(), 'edge', 'e1')$$, '42501', NULL,
                 'app_b may not read the history of tenant A');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'app_b may not read the facts of tenant A');
SELECT is((SELECT pg_catalog.count(*) FROM memory.row_history), 0::bigint,
          'app_b sees no row of row_history, even reading the table');
SELECT throws_ok($$INSERT INTO memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from, recorded_to, change, data)
                   VALUES (fx.tenant_b(), fx.sim_b(), 'edges', 'forged', now(), now(), 'updated', '{}')$$,
                 '42501', NULL, 'a writer cannot forge a version, even of its own tenant');
SELECT throws_ok($$SELECT memory._record_history()$$, '42501', NULL, 'nobody calls the trigger function');
RESET SESSION AUTHORIZATION;
SELECT ok(EXISTS (SELECT 1 FROM memory.row_history WHERE tenant_id = fx.tenant_a() AND simulation_id = fx.sim_a()),
          'fixture: the simulation has history');
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.delete_simulation(fx.tenant_a(), fx.sim_a());
RESET SESSION AUTHORIZATION;
SELECT ok(NOT EXISTS (SELECT 1 FROM memory.row_history WHERE tenant_id = fx.tenant_a() AND simulation_id = fx.sim_a()),
          'a simulation''s history goes with it');

SELECT * FROM finish();
ROLLBACK;
