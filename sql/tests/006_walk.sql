-- 006_walk: memory.neighbors() as DESIGN.md specifies it: breadth-first, each node once at
-- its least depth, cycle-safe, self-loops harmless, the start node never returned, the path
-- of node ids from the start, edge-type and direction filters, depth clamped to 1..20 (NULL
-- means 1), ties between shortest paths to the edge of the least key, the walk kept to its
-- simulation and tenant, and a dense graph costs what its edges cost.
BEGIN;
SELECT plan(40);
\ir _fixtures.psql

CREATE FUNCTION fx.sim_chain() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000c1'::uuid $$;
CREATE FUNCTION fx.sim_k15() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000c2'::uuid $$;
CREATE FUNCTION fx.sim_other() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000c3'::uuid $$;
CREATE FUNCTION fx.sim_ties() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000c4'::uuid $$;

-- Graph of sim_a:
--   s -> a -> b -> s (KNOWS: a cycle)      s -> s (KNOWS: a self-loop)
--   a -> s (MENTIONS: back along e1)       c -> s (LIKES)      y -> c (REPLIES)
--   b -> d (KNOWS)                         s -> x (FOLLOWS)
--   lonely -> lonely (KNOWS: its only edge)
-- Tenant B has a node 's' too, with an edge s -> z: never reached from A.
SET LOCAL ROLE app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
        '[{"id": "s", "name": "start", "type": "Person"}, {"id": "a", "name": "A", "type": "Person"},
          {"id": "b", "name": "B", "type": "Person"}, {"id": "c", "name": "C", "type": "Org"},
          {"id": "d", "name": "D", "type": "Org"}, {"id": "x", "name": "X", "type": "Topic"},
          {"id": "y", "name": "Y", "type": "Person"}, {"id": "lonely", "name": "Lonely", "type": "Person"},
          {"id": "iso", "name": "Isolated", "type": "Person"}]');
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
        '[{"id": "e1", "type": "KNOWS", "source_id": "s", "target_id": "a", "fact": "s knows a"},
          {"id": "e2", "type": "KNOWS", "source_id": "a", "target_id": "b", "fact": "a knows b"},
          {"id": "e3", "type": "KNOWS", "source_id": "b", "target_id": "s", "fact": "b knows s"},
          {"id": "e4", "type": "LIKES", "source_id": "c", "target_id": "s", "fact": "c likes s"},
          {"id": "e5", "type": "KNOWS", "source_id": "s", "target_id": "s", "fact": "s knows itself"},
          {"id": "e6", "type": "KNOWS", "source_id": "b", "target_id": "d", "fact": "b knows d"},
          {"id": "e7", "type": "FOLLOWS", "source_id": "s", "target_id": "x", "fact": "s follows x"},
          {"id": "e9", "type": "MENTIONS", "source_id": "a", "target_id": "s", "fact": "a mentions s"},
          {"id": "e10", "type": "REPLIES", "source_id": "y", "target_id": "c", "fact": "y replies to c"},
          {"id": "e11", "type": "KNOWS", "source_id": "lonely", "target_id": "lonely", "fact": "alone"}]');

    -- A chain c00 -> c01 -> ... -> c21 (22 nodes).
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_chain(), 'chain');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_chain(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('c%s', lpad(i::text, 2, '0')), 'name', format('chain %s', i)))
           FROM generate_series(0, 21) AS i));
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_chain(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('l%s', i), 'type', 'NEXT',
                                             'source_id', format('c%s', lpad(i::text, 2, '0')),
                                             'target_id', format('c%s', lpad((i + 1)::text, 2, '0'))))
           FROM generate_series(0, 20) AS i));

    -- K15: the complete directed graph on 15 nodes, all 210 edges.
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_k15(), 'k15');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_k15(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('k%s', lpad(i::text, 2, '0')), 'name', format('k %s', i)))
           FROM generate_series(1, 15) AS i));
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_k15(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('k%s-%s', i, j), 'type', 'LINK',
                                             'source_id', format('k%s', lpad(i::text, 2, '0')),
                                             'target_id', format('k%s', lpad(j::text, 2, '0'))))
           FROM generate_series(1, 15) AS i, generate_series(1, 15) AS j WHERE i <> j));

    -- Another simulation of A with the same ids s and a, and an edge s -> q of its own.
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_other(), 'other');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_other(),
        '[{"id": "s", "name": "other s"}, {"id": "a", "name": "other a"}, {"id": "q", "name": "Q"}]');
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_other(), '[{"id": "e1", "type": "KNOWS", "source_id": "s", "target_id": "q"}]');

    -- Ties: d is two steps from s along four paths (through a, b, c, and c's parallel edge).
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_ties(), 'ties');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_ties(),
        '[{"id": "s", "name": "s"}, {"id": "a", "name": "a"}, {"id": "b", "name": "b"}, {"id": "c", "name": "c"}, {"id": "d", "name": "d"}]');
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_ties(),
        '[{"id": "sa", "type": "KNOWS", "source_id": "s", "target_id": "a"}, {"id": "sb", "type": "KNOWS", "source_id": "s", "target_id": "b"},
          {"id": "sc", "type": "KNOWS", "source_id": "s", "target_id": "c"}, {"id": "ad", "type": "KNOWS", "source_id": "a", "target_id": "d"},
          {"id": "bd", "type": "KNOWS", "source_id": "b", "target_id": "d"}, {"id": "cd", "type": "KNOWS", "source_id": "c", "target_id": "d"},
          {"id": "cd-again", "type": "KNOWS", "source_id": "c", "target_id": "d"}]');
END
$$;
RESET ROLE;
SET LOCAL ROLE app_b;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_b(), fx.sim_b(),
        '[{"id": "s", "name": "start of B"}, {"id": "z", "name": "Z of B"}]');
    PERFORM memory.upsert_edges(fx.tenant_b(), fx.sim_b(),
        '[{"id": "e1", "type": "KNOWS", "source_id": "s", "target_id": "z"}]');
END
$$;
RESET ROLE;

SET LOCAL ROLE reader_a;

-- Both directions, depth 1 and 2 (6)
SELECT results_eq(
    $$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's') ORDER BY depth, node_id$$,
    $$VALUES ('a', 1, ARRAY['s', 'a']), ('b', 1, ARRAY['s', 'b']), ('c', 1, ARRAY['s', 'c']), ('x', 1, ARRAY['s', 'x'])$$,
    'depth 1, both directions (the default): every neighbour once, the start node not returned despite its self-loop');
SELECT results_eq(
    $$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 2) ORDER BY depth, node_id$$,
    $$VALUES ('a', 1, ARRAY['s', 'a']), ('b', 1, ARRAY['s', 'b']), ('c', 1, ARRAY['s', 'c']), ('x', 1, ARRAY['s', 'x']),
             ('d', 2, ARRAY['s', 'b', 'd']), ('y', 2, ARRAY['s', 'c', 'y'])$$,
    'depth 2, both directions: nodes at their least depth with the path from the start');
SELECT is((SELECT count(*) - count(DISTINCT node_id) FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 20)), 0::bigint,
          'depth 20 on a graph with cycles: each node once');
SELECT set_eq($$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 20)$$,
              ARRAY['a', 'b', 'c', 'd', 'x', 'y'],
              'depth 20: exactly the reachable nodes of the tenant''s simulation (not lonely, not B''s z)');
SELECT results_eq(
    $$SELECT edge_id, edge_type, fact, name, type FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 1, NULL, 'both') WHERE node_id = 'x'$$,
    $$VALUES ('e7', 'FOLLOWS', 's follows x', 'X', 'Topic')$$,
    'a neighbour carries the edge that reached it and its own name and type');
SELECT results_eq(
    $$SELECT edge_id, edge_type FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 2) WHERE node_id = 'd'$$,
    $$VALUES ('e6', 'KNOWS')$$,
    'a node at depth 2 carries the edge of its last step');

-- Directions (4)
SELECT results_eq(
    $$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 3, NULL, 'out') ORDER BY depth, node_id$$,
    $$VALUES ('a', 1, ARRAY['s', 'a']), ('x', 1, ARRAY['s', 'x']), ('b', 2, ARRAY['s', 'a', 'b']), ('d', 3, ARRAY['s', 'a', 'b', 'd'])$$,
    'direction out, depth 3: along the edges only, the cycle back to s ends there');
SELECT results_eq(
    $$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 3, NULL, 'in') ORDER BY depth, node_id$$,
    $$VALUES ('a', 1, ARRAY['s', 'a']), ('b', 1, ARRAY['s', 'b']), ('c', 1, ARRAY['s', 'c']), ('y', 2, ARRAY['s', 'c', 'y'])$$,
    'direction in, depth 3: against the edges only');
SELECT results_eq(
    $$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'd', 1, NULL, 'out')$$,
    $$SELECT NULL::text, NULL::integer WHERE false$$,
    'direction out from a node without outgoing edges: nothing');
SELECT results_eq(
    $$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'd', 20, NULL, 'in') ORDER BY depth, node_id$$,
    $$VALUES ('b', 1, ARRAY['d', 'b']), ('a', 2, ARRAY['d', 'b', 'a']), ('s', 3, ARRAY['d', 'b', 'a', 's']),
             ('c', 4, ARRAY['d', 'b', 'a', 's', 'c']), ('y', 5, ARRAY['d', 'b', 'a', 's', 'c', 'y'])$$,
    'direction in from d, depth 20: the whole chain of predecessors with its paths');

-- Edge-type filter (4)
SELECT results_eq(
    $$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 5, ARRAY['KNOWS'], 'out') ORDER BY depth, node_id$$,
    $$VALUES ('a', 1, ARRAY['s', 'a']), ('b', 2, ARRAY['s', 'a', 'b']), ('d', 3, ARRAY['s', 'a', 'b', 'd'])$$,
    'edge types {KNOWS}, out: FOLLOWS to x is left out');
SELECT results_eq(
    $$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 5, ARRAY['FOLLOWS']) ORDER BY depth, node_id$$,
    $$VALUES ('x', 1)$$,
    'edge types {FOLLOWS}: only x');
SELECT results_eq(
    $$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 5, ARRAY['LIKES', 'REPLIES'], 'both') ORDER BY depth, node_id$$,
    $$VALUES ('c', 1), ('y', 2)$$,
    'edge types {LIKES, REPLIES}, both directions: c, then y through c');
SELECT is_empty($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 5, ARRAY['NO_SUCH_TYPE'])$$,
                'an edge type no edge has: nothing');

-- Self-loop (2)
SELECT is_empty($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'lonely', 20)$$,
                'a node whose only edge is a self-loop has no neighbours');
SELECT is_empty($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'lonely', 20, NULL, 'out')$$,
                'a self-loop, direction out: nothing either');

-- Depth clamp on the 22-node chain (10)
SELECT results_eq($$SELECT node_id, depth, path FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 0, NULL, 'out')$$,
                  $$VALUES ('c01', 1, ARRAY['c00', 'c01'])$$, 'depth 0 behaves as 1');
SELECT results_eq($$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', -5, NULL, 'out')$$,
                  $$VALUES ('c01', 1)$$, 'depth -5 behaves as 1');
SELECT results_eq($$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', NULL, NULL, 'out')$$,
                  $$VALUES ('c01', 1)$$, 'depth NULL behaves as 1');
SELECT results_eq($$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c05')$$,
                  $$VALUES ('c04', 1), ('c06', 1)$$, 'the default depth is 1 (both directions)');
SELECT results_eq($$SELECT count(*), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 20, NULL, 'out')$$,
                  $$VALUES (20::bigint, 20)$$, 'depth 20 reaches 20 nodes of the chain');
SELECT results_eq($$SELECT count(*), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 21, NULL, 'out')$$,
                  $$VALUES (20::bigint, 20)$$, 'depth 21 behaves as 20');
SELECT results_eq($$SELECT count(*), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 25)$$,
                  $$VALUES (20::bigint, 20)$$, 'depth 25 behaves as 20: the deepest node returned is at depth 20');
SELECT is_empty($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 2147483647) WHERE node_id = 'c21'$$,
                'the largest integer depth behaves as 20: c21 stays out of reach');
SELECT results_eq($$SELECT path FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 25) WHERE node_id = 'c20'$$,
                  $$SELECT ARRAY(SELECT format('c%s', lpad(i::text, 2, '0')) FROM generate_series(0, 20) AS i)$$,
                  'the path to depth 20 lists the 21 node ids from the start');
SELECT results_eq($$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c21', 3, NULL, 'both') ORDER BY depth$$,
                  $$VALUES ('c20', 1), ('c19', 2), ('c18', 3)$$,
                  'from the end of the chain, both directions, depth 3');

-- K15 (3)
SELECT results_eq($$SELECT count(*), min(depth), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_k15(), 'k01', 20)$$,
                  $$VALUES (14::bigint, 1, 1)$$,
                  'K15 at depth 20, both directions: exactly 14 rows, all at depth 1');
SELECT results_eq($$SELECT count(*), min(depth), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_k15(), 'k07', 20, NULL, 'out')$$,
                  $$VALUES (14::bigint, 1, 1)$$,
                  'K15 at depth 20, direction out: exactly 14 rows, all at depth 1');
SELECT is_empty($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_k15(), 'k01', 20)
                   WHERE node_id = 'k01' OR cardinality(path) <> 2 OR path[1] <> 'k01' OR path[2] <> node_id$$,
                'K15: each path is the start and the node, and the start is not returned');

-- More filters, depths and graphs (10)
SELECT is_empty($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 5, '{}'::text[])$$,
                'an empty array of edge types: no edge allowed, nothing');
SELECT results_eq($$SELECT count(*), min(depth), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_k15(), 'k09', 20, NULL, 'in')$$,
                  $$VALUES (14::bigint, 1, 1)$$, 'K15 at depth 20, direction in: exactly 14 rows, all at depth 1');
SELECT results_eq($$SELECT node_id, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', -2147483648, NULL, 'out')$$,
                  $$VALUES ('c01', 1)$$, 'the least integer depth behaves as 1');
SELECT results_eq($$SELECT count(*), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 2, NULL, 'out')$$,
                  $$VALUES (2::bigint, 2)$$, 'depth 2 reaches 2 nodes of the chain');
SELECT results_eq($$SELECT count(*), max(depth) FROM memory.neighbors(fx.tenant_a(), fx.sim_chain(), 'c00', 19, NULL, 'out')$$,
                  $$VALUES (19::bigint, 19)$$, 'depth 19 reaches 19 nodes of the chain');
SELECT is_empty($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'iso', 20)$$,
                'a node without any edge has no neighbours');
SELECT set_eq($$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 's', 20)$$, ARRAY['a', 'b', 'c', 'd', 'x', 'y'],
              'the walk stays in its simulation: the other simulation''s edge s -> q is not followed');
SELECT results_eq($$SELECT node_id, path FROM memory.neighbors(fx.tenant_a(), fx.sim_other(), 's', 20)$$,
                  $$VALUES ('q', ARRAY['s', 'q'])$$, 'the other simulation''s walk from its own s sees only its own edge');
SELECT results_eq($$SELECT edge_id, path, depth FROM memory.neighbors(fx.tenant_a(), fx.sim_ties(), 's', 2, NULL, 'out') WHERE node_id = 'd'$$,
                  $$SELECT e, ARRAY['s', left(e, 1), 'd'], 2 FROM unnest(ARRAY['ad', 'bd', 'cd', 'cd-again']) AS e
                     ORDER BY md5(e)::uuid LIMIT 1$$,
                  'four shortest paths to d: the walk takes the edge with the least key (md5 of its id)');
SELECT results_eq($$SELECT edge_id FROM memory.neighbors(fx.tenant_a(), fx.sim_ties(), 'd', 1, NULL, 'in') ORDER BY node_id$$,
                  $$VALUES ('ad'), ('bd'), (CASE WHEN md5('cd')::uuid < md5('cd-again')::uuid THEN 'cd' ELSE 'cd-again' END)$$,
                  'two parallel edges between the same nodes: the one with the least key');

-- Tenant boundary (1)
RESET ROLE;
SET LOCAL ROLE app_b;
SELECT results_eq($$SELECT node_id, depth FROM memory.neighbors(fx.tenant_b(), fx.sim_b(), 's', 20)$$,
                  $$VALUES ('z', 1)$$, 'tenant B''s walk from its own s sees only its own graph');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
