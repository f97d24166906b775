-- 032_walk_limit: memory.neighbors' bound on rows (issue 13, item 3). p_limit keeps the
-- nearest nodes: the first p_limit rows of the unbounded walk (depth, then node id), so a
-- bounded walk is a prefix of the unbounded one; NULL is no bound and a value below 1 counts
-- as 1; the bound holds with every other argument (depth, types, direction, the two clocks,
-- include_ended); the old calls (four to nine arguments, by position and by name) still
-- work, and there is one neighbors() (the nine-argument signature went with V0025, so no
-- call is ambiguous).
BEGIN;
\ir _fixtures.psql
SELECT plan(17);

-- A tree from r: r -> a1..a3 (depth 1), each a_i -> b_i1, b_i2 (depth 2), b11 -> c1 (depth
-- 3); one ended fact r -> old (it ended in 2020); the walk reaches 10 nodes now.
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    (SELECT jsonb_agg(jsonb_build_object('id', n, 'name', upper(n), 'type', 'Person'))
       FROM unnest(ARRAY['r', 'a1', 'a2', 'a3', 'b11', 'b12', 'b21', 'b22', 'b31', 'b32', 'c1', 'old']) AS n));
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "ra1", "type": "KNOWS", "source_id": "r", "target_id": "a1"},
      {"id": "ra2", "type": "KNOWS", "source_id": "r", "target_id": "a2"},
      {"id": "ra3", "type": "LIKES", "source_id": "a3", "target_id": "r"},
      {"id": "a1b11", "type": "KNOWS", "source_id": "a1", "target_id": "b11"},
      {"id": "a1b12", "type": "KNOWS", "source_id": "a1", "target_id": "b12"},
      {"id": "a2b21", "type": "KNOWS", "source_id": "a2", "target_id": "b21"},
      {"id": "a2b22", "type": "KNOWS", "source_id": "a2", "target_id": "b22"},
      {"id": "a3b31", "type": "KNOWS", "source_id": "a3", "target_id": "b31"},
      {"id": "a3b32", "type": "KNOWS", "source_id": "a3", "target_id": "b32"},
      {"id": "b11c1", "type": "KNOWS", "source_id": "b11", "target_id": "c1"},
      {"id": "rold", "type": "KNOWS", "source_id": "r", "target_id": "old",
       "valid_at": "2019-01-01T00:00:00Z", "invalid_at": "2020-01-01T00:00:00Z"}]');
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION reader_a;
CREATE TEMP TABLE unbounded AS
SELECT row_number() OVER () AS n, w.*
  FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20) AS w;

-- Nearest first, a prefix of the unbounded walk (6)
SELECT is((SELECT count(*) FROM unbounded), 10::bigint, 'fixture: the unbounded walk from r reaches 10 nodes');
SELECT results_eq(
    $$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, p_limit => 4)$$,
    $$VALUES ('a1'::text, 1), ('a2', 1), ('a3', 1), ('b11', 2)$$,
    'p_limit 4: the three nodes at depth 1, then the first node of depth 2 by id');
SELECT results_eq(
    $$SELECT node_id, name, type, depth, path, edge_id, edge_type, fact, valid_at, invalid_at, state
        FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, p_limit => 7)$$,
    $$SELECT node_id, name, type, depth, path, edge_id, edge_type, fact, valid_at, invalid_at, state
        FROM unbounded WHERE n <= 7 ORDER BY n$$,
    'p_limit 7: exactly the first 7 rows of the unbounded walk, every column and the order alike');
SELECT results_eq(
    $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, p_limit => 3)$$,
    $$VALUES ('a1'::text), ('a2'), ('a3')$$,
    'p_limit equal to the first level: that level alone, no node of the next');
SELECT is((SELECT count(*) FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, p_limit => 1000)), 10::bigint,
          'p_limit above the neighbourhood: every reachable node');
SELECT results_eq(
    $$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 1, p_limit => 9)$$,
    $$VALUES ('a1'::text, 1), ('a2', 1), ('a3', 1)$$,
    'p_depth still bounds the levels when p_limit is larger');

-- NULL and out-of-range values (3)
SELECT results_eq(
    $$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, p_limit => NULL)$$,
    $$SELECT node_id, depth, path FROM unbounded ORDER BY n$$,
    'p_limit NULL: no bound');
SELECT results_eq(
    $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, p_limit => 0)$$,
    $$VALUES ('a1'::text)$$,
    'p_limit 0 counts as 1: the nearest node');
SELECT results_eq(
    $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, p_limit => -5)$$,
    $$VALUES ('a1'::text)$$,
    'a negative p_limit counts as 1');

-- With the other arguments (4)
SELECT results_eq(
    $$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, NULL, 'out', p_limit => 3)$$,
    $$VALUES ('a1'::text, 1), ('a2', 1), ('b11', 2)$$,
    'direction out: a3 (which points at r) is not reached, and the bound counts what the walk follows');
SELECT results_eq(
    $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, ARRAY['LIKES'], 'both', p_limit => 5)$$,
    $$VALUES ('a3'::text)$$,
    'an edge-type filter: the bound above what the filtered walk reaches returns all of it');
SELECT results_eq(
    $$SELECT node_id, state FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, NULL, 'both',
                                                  p_include_ended => true, p_limit => 4)$$,
    $$VALUES ('a1'::text, 'current'::text), ('a2', 'current'), ('a3', 'current'), ('old', 'ended')$$,
    'include_ended: the ended fact''s node counts at its depth, before any node of depth 2');
SELECT results_eq(
    $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 20, NULL, 'both',
                                           '2019-06-01T00:00:00Z', NULL, false, 1)$$,
    $$VALUES ('a1'::text)$$,
    'as of 2019 (when r -> old held), by position: the bound keeps the nearest by id, a1 before old');

-- Old calls and one signature (4)
SELECT is((SELECT count(*) FROM pg_catalog.pg_proc
            WHERE proname = 'neighbors' AND pronamespace = 'memory'::regnamespace), 1::bigint,
          'one memory.neighbors: the nine-argument signature is gone, no call is ambiguous');
SELECT is((SELECT count(*) FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r', 2, NULL, 'both',
                                                 NULL, NULL, false)), 9::bigint,
          'a nine-argument call by position still works, unbounded');
SELECT is((SELECT count(*) FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'r')), 3::bigint,
          'a three-argument call still works (depth 1, unbounded)');
SELECT is((SELECT count(*) FROM memory.paths(fx.tenant_a(), fx.sim_a(), 'c1', 'a2')), 1::bigint,
          'paths() over the walk still finds its chain');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
