/* pgmigrate-encoding: utf-8 */
-- 020_graph_pages: every node and every edge of a simulation, a page at a time (issue 10,
-- point 9: what `swarm-memory export` reads): ordered by id, keyset paging after the last
-- id, an unknown cursor P0002, the limit clamped, edges with every field get_edge gives.
BEGIN;
\ir _fixtures.psql
SELECT plan(16);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
    'id', 'n' || pg_catalog.lpad(i::text, 4, '0'), 'name', '节点 ' || i, 'type', 'Person',
    'labels', pg_catalog.jsonb_build_array('Entity', 'Person'), 'summary', '摘要 ' || i,
    'attributes', pg_catalog.jsonb_build_object('k', i))))
  FROM pg_catalog.generate_series(1, 1005) AS i;
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e2", "type": "KNOWS", "source_id": "n0002", "target_id": "n0001"},
      {"id": "e1", "type": "SUPPORTS", "source_id": "n0001", "target_id": "n0002", "fact": "甲 支持 乙",
       "valid_at": "2026-03-01T09:00:00Z", "invalid_at": "2026-03-05T09:00:00Z",
       "attributes": {"fact_type": "SUPPORTS", "created_at": "2026-03-01T10:00:00",
                      "expired_at": "2026-03-05T10:00:00Z", "episodes": ["ep-1", "ep-2"]}},
      {"id": "E3", "type": "KNOWS", "source_id": "n0003", "target_id": "n0001"}]');

SELECT is((SELECT pg_catalog.count(*) FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a())), 1000::bigint,
          'graph_nodes: a page holds 1000 nodes by default');
SELECT results_eq($$SELECT node_id FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a(), 2)$$,
                  $$VALUES ('n0001'::text), ('n0002')$$, 'ordered by id');
SELECT results_eq($$SELECT node_id FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a(), 1000, 'n1000')$$,
                  $$VALUES ('n1001'::text), ('n1002'), ('n1003'), ('n1004'), ('n1005')$$,
                  'the next page starts after the last id');
SELECT results_eq($$SELECT name, type, labels, summary, attributes, source
                      FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a(), 1, 'n0006')$$,
                  $$VALUES ('节点 7'::text, 'Person'::text, ARRAY['Entity', 'Person'], '摘要 7'::text,
                            '{"k": 7}'::jsonb, 'api'::text)$$,
                  'every stored field of a node');
SELECT is((SELECT pg_catalog.count(*) FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a(), 5000)), 1000::bigint,
          'a limit over 1000 is clamped, not refused');
SELECT is((SELECT pg_catalog.count(*) FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a(), 0)), 1::bigint,
          'a limit under 1 is clamped to 1');
SELECT is((SELECT pg_catalog.count(*) FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a(), NULL)), 1000::bigint,
          'a NULL limit means 1000');
SELECT throws_ok($$SELECT * FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a(), 10, 'n9999')$$,
                 'P0002', NULL, 'an unknown node cursor is P0002');

SELECT results_eq($$SELECT edge_id FROM memory.graph_edges(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('E3'::text), ('e1'), ('e2')$$, 'graph_edges: ordered by id, byte order');
SELECT results_eq($$SELECT edge_id FROM memory.graph_edges(fx.tenant_a(), fx.sim_a(), 1, 'e1')$$,
                  $$VALUES ('e2'::text)$$, 'the next page starts after the last id');
SELECT results_eq($$SELECT g.* FROM memory.graph_edges(fx.tenant_a(), fx.sim_a(), 1, 'E3') AS g$$,
                  $$SELECT e.* FROM memory.get_edge(fx.tenant_a(), fx.sim_a(), 'e1') AS e$$,
                  'every field memory.get_edge gives');
SELECT throws_ok($$SELECT * FROM memory.graph_edges(fx.tenant_a(), fx.sim_a(), 10, 'e404')$$,
                 'P0002', NULL, 'an unknown edge cursor is P0002');
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.graph_nodes(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'another tenant''s nodes are refused');
SELECT throws_ok($$SELECT * FROM memory.graph_edges(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'another tenant''s edges are refused');
SELECT is_empty($$SELECT * FROM memory.graph_nodes(fx.tenant_b(), fx.sim_b())$$,
                'one''s own empty simulation has no nodes');
SELECT is_empty($$SELECT * FROM memory.graph_edges(fx.tenant_b(), fx.sim_b())$$,
                'and no edges');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
