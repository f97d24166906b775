-- 038_walk_ids: memory.neighbor_ids, the lean walk. It answers what memory.neighbors answers
-- with the same arguments, cut to (node_id, depth, edge_id), in the same order: checked
-- here for every depth, direction, edge-type filter, world time, include_ended and p_limit
-- on a tree with a cycle, a self-loop, parallel edges and ended, expired and future facts;
-- then its own contract (clamps, the start not returned) and its errors, which are
-- neighbors' (42501 without a grant, P0002 for an unknown or another tenant's node, 22004,
-- 22023, 54000).
BEGIN;
\ir _fixtures.psql
SELECT plan(12);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    (SELECT jsonb_agg(jsonb_build_object('id', n, 'name', upper(n), 'type', 'Person'))
       FROM unnest(ARRAY['r', 'a1', 'a2', 'a3', 'b11', 'b12', 'b21', 'b22', 'b31', 'b32', 'c1', 'old', 'soon']) AS n));
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "ra1", "type": "KNOWS", "source_id": "r", "target_id": "a1"},
      {"id": "ra2", "type": "KNOWS", "source_id": "r", "target_id": "a2"},
      {"id": "ra3", "type": "LIKES", "source_id": "a3", "target_id": "r"},
      {"id": "a1b11", "type": "KNOWS", "source_id": "a1", "target_id": "b11"},
      {"id": "a1b12", "type": "KNOWS", "source_id": "a1", "target_id": "b12"},
      {"id": "a2b21", "type": "KNOWS", "source_id": "a2", "target_id": "b21"},
      {"id": "a2b22", "type": "LIKES", "source_id": "a2", "target_id": "b22"},
      {"id": "a3b31", "type": "KNOWS", "source_id": "a3", "target_id": "b31"},
      {"id": "a3b32", "type": "KNOWS", "source_id": "a3", "target_id": "b32"},
      {"id": "b11c1", "type": "KNOWS", "source_id": "b11", "target_id": "c1"},
      {"id": "c1r", "type": "KNOWS", "source_id": "c1", "target_id": "r"},
      {"id": "loop", "type": "KNOWS", "source_id": "b12", "target_id": "b12"},
      {"id": "b21b22", "type": "KNOWS", "source_id": "b21", "target_id": "b22"},
      {"id": "a1b11-again", "type": "LIKES", "source_id": "b11", "target_id": "a1"},
      {"id": "rold", "type": "KNOWS", "source_id": "r", "target_id": "old",
       "valid_at": "2019-01-01T00:00:00Z", "invalid_at": "2020-01-01T00:00:00Z"},
      {"id": "a2old", "type": "KNOWS", "source_id": "a2", "target_id": "old"},
      {"id": "rsoon", "type": "KNOWS", "source_id": "r", "target_id": "soon",
       "valid_at": "2090-01-01T00:00:00Z"},
      {"id": "zz-ended", "type": "KNOWS", "source_id": "r", "target_id": "b32",
       "valid_at": "2019-01-01T00:00:00Z", "invalid_at": "2020-01-01T00:00:00Z"}]');
RESET SESSION AUTHORIZATION;

-- The same answer as neighbors, cut to its ids (4)
SET LOCAL SESSION AUTHORIZATION reader_a;
CREATE TEMP TABLE cases AS
SELECT s.start, d.depth, dir.direction, t.types, a.as_of, i.include_ended, l.lim
  FROM unnest(ARRAY['r', 'b12', 'old', 'c1']) AS s(start)
 CROSS JOIN unnest(ARRAY[1, 2, 3, 20]) AS d(depth)
 CROSS JOIN unnest(ARRAY['out', 'in', 'both']) AS dir(direction)
 CROSS JOIN (VALUES (NULL::text[]), (ARRAY['KNOWS']), (ARRAY[]::text[])) AS t(types)
 CROSS JOIN (VALUES (NULL::timestamptz), ('2019-06-01'), ('infinity')) AS a(as_of)
 CROSS JOIN (VALUES (false), (true)) AS i(include_ended)
 CROSS JOIN (VALUES (NULL::integer), (1), (4)) AS l(lim);
SELECT is((SELECT count(*) FROM cases), 2592::bigint, 'fixture: 2,592 walks to compare');
SELECT is_empty($$
    SELECT c.*
      FROM cases AS c
     WHERE ARRAY(SELECT ROW(w.node_id, w.depth, w.edge_id)::text
                   FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), c.start, c.depth, c.types, c.direction,
                                         c.as_of, NULL, c.include_ended, c.lim) AS w)
           IS DISTINCT FROM
           ARRAY(SELECT ROW(w.node_id, w.depth, w.edge_id)::text
                   FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), c.start, c.depth, c.types, c.direction,
                                            c.as_of, NULL, c.include_ended, c.lim) AS w)
$$, 'every walk: the same nodes, depths and edges as neighbors, in the same order');
SELECT cmp_ok((SELECT count(*) FROM cases AS c
                CROSS JOIN LATERAL memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), c.start, c.depth, c.types,
                                                       c.direction, c.as_of, NULL, c.include_ended, c.lim) AS w),
              '>', 4000::bigint, 'the walks compared are not empty');
SELECT results_eq(
    $$SELECT node_id, depth, edge_id FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'r', 2, p_include_ended => true, p_limit => 6)$$,
    $$VALUES ('a1'::text, 1, 'ra1'::text), ('a2', 1, 'ra2'), ('a3', 1, 'ra3'), ('b32', 1, 'zz-ended'),
             ('c1', 1, 'c1r'), ('old', 1, 'rold')$$,
    'with ended facts: ids, depth and the edge, nearest first; an ended or future fact reaches a node no current one does');

-- Its own contract (3)
SELECT results_eq(
    $$SELECT node_id, depth, edge_id FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'old', NULL)$$,
    $$VALUES ('a2'::text, 1, 'a2old'::text)$$,
    'depth NULL is 1; the current edge is followed, the ended one (rold) is not');
SELECT is((SELECT count(*) FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'r', 500)),
          (SELECT count(*) FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'r', 20)),
          'depth above 20 is clamped');
SELECT is_empty($$SELECT 1 FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'b12', 20) WHERE node_id = 'b12'$$,
                'the start is never returned, a self-loop and a cycle through it notwithstanding');

-- Errors (5)
SELECT throws_ok($$SELECT * FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'nope')$$, 'P0002', NULL,
                 'an unknown node: P0002');
SELECT throws_ok($$SELECT * FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), NULL)$$, '22004', NULL,
                 'a NULL node id: 22004');
SELECT throws_ok($$SELECT * FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'r', 1, NULL, 'sideways')$$, '22023', NULL,
                 'an unknown direction: 22023');
SELECT throws_ok(format('SELECT * FROM memory.neighbor_ids(%L, %L, ''r'', 2, array_fill(''T''::text, ARRAY[1001]))', fx.tenant_a(), fx.sim_a()),
                 '54000', NULL, 'more edge types than a list holds: 54000');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_a(), 'r')$$, '42501', NULL,
                 'another tenant''s role: 42501, before anything is read');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
