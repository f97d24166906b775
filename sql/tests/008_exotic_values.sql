-- 008_exotic_values: ids, names, types, facts, contents and profiles with quotes, semicolons,
-- backslashes, emoji, whitespace and 10 kB strings are stored and returned exactly by the
-- reads (get_node, nodes_by_type, neighbors, search_episodes, search_nodes, simulation_stats),
-- and a replay of them changes nothing. This file is ASCII: the emoji come from chr() and U&'' escapes.
BEGIN;
SELECT plan(43);
\ir _fixtures.psql

-- The exotic values. k orders them along a chain of edges; each also gets an embedding.
CREATE TABLE fx.exotic (k integer PRIMARY KEY, label text NOT NULL, val text NOT NULL);
GRANT SELECT ON fx.exotic TO PUBLIC;
INSERT INTO fx.exotic VALUES
    (1, 'quotes',      $v$it's a "quote" and `ticks`$v$),
    (2, 'semicolons',  $v$x'); DROP TABLE memory.nodes; --;$v$),
    (3, 'backslashes', $v$C:\new\table\\ and \' and \" and \u0041$v$),
    (4, 'emoji',       chr(128512) || ' ' || U&'\+01F680' || ' caf' || chr(233) || ' ' || chr(27700) || chr(23383)),
    (5, 'whitespace',  E'  leading, inner\ttab,\nnewline and trailing  '),
    (6, 'json-ish',    $v${"id": "not an object", "x": [1, 2]}$v$),
    (7, 'percent',     $v$100% _like_ %s %I %L $1$v$);

-- 10 kB of text that does not compress away (320 md5 digests), and the same with an emoji.
CREATE FUNCTION fx.ten_kb(p_seed text) RETURNS text LANGUAGE sql IMMUTABLE
    AS $$ SELECT string_agg(md5(p_seed || i::text), '' ORDER BY i) FROM generate_series(1, 320) AS i $$;

CREATE FUNCTION fx.sim_long() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000e1'::uuid $$;

CREATE FUNCTION fx.exotic_nodes() RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_agg(jsonb_build_object('id', x.val, 'name', 'name: ' || x.val, 'type', 'Type ' || x.val,
                                        'labels', jsonb_build_array(x.val, x.label),
                                        'summary', x.val || fx.ten_kb(x.label),
                                        'attributes', jsonb_build_object(x.val, x.val),
                                        'embedding', fx.emb(x.k)) ORDER BY x.k)
             || jsonb_build_array(jsonb_build_object('id', 'long', 'name', 'the long one', 'type', 'Long',
                                                     'summary', fx.ten_kb('summary') || chr(128512), 'embedding', fx.emb(20)))
      FROM fx.exotic AS x
$$;
CREATE FUNCTION fx.exotic_edges() RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_agg(jsonb_build_object('id', 'edge ' || x.val, 'type', 'REL ' || x.val,
                                        'source_id', x.val, 'target_id', coalesce(n.val, 'long'),
                                        'fact', x.val || ' -> ' || coalesce(n.val, fx.ten_kb('fact')),
                                        'attributes', jsonb_build_object('note', x.val)) ORDER BY x.k)
      FROM fx.exotic AS x LEFT JOIN fx.exotic AS n ON n.k = x.k + 1
$$;
CREATE FUNCTION fx.exotic_episodes() RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_agg(jsonb_build_object('id', x.val, 'agent_id', x.k, 'agent_name', x.val, 'platform', x.val,
                                        'action_type', 'ACT ' || x.val, 'content', x.val || fx.ten_kb(x.label),
                                        'metadata', jsonb_build_object(x.val, jsonb_build_array(x.val)),
                                        'embedding', fx.emb(x.k)) ORDER BY x.k)
      FROM fx.exotic AS x
$$;

SET LOCAL ROLE app_a;

-- Writes (3)
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), fx.exotic_nodes())$$,
                  $$VALUES (8, 0, 0)$$, 'exotic nodes are written');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int, skipped::int FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), fx.exotic_edges())$$,
                  $$VALUES (7, 0, 0, 0)$$, 'exotic edges are written, none taken for dangling');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), fx.exotic_episodes())$$,
                  $$VALUES (7, 0, 0)$$, 'exotic episodes are written');

-- Nodes come back exactly (7 + 4)
SELECT results_eq(
    pg_catalog.format('SELECT node_id, name, type, labels, summary, attributes FROM memory.get_node(fx.tenant_a(), fx.sim_a(), %L)', x.val),
    pg_catalog.format('SELECT %L::text, %L::text, %L::text, ARRAY[%L, %L]::text[], %L::text, %L::jsonb',
                      x.val, 'name: ' || x.val, 'Type ' || x.val, x.val, x.label, x.val || fx.ten_kb(x.label),
                      jsonb_build_object(x.val, x.val)),
    'get_node returns the node with ' || x.label || ' exactly')
  FROM fx.exotic AS x ORDER BY x.k;
SELECT results_eq($$SELECT name, summary FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'long')$$,
                  $$SELECT 'the long one', fx.ten_kb('summary') || chr(128512)$$,
                  'get_node returns a 10 kB summary (ending in an emoji) exactly');
SELECT set_eq($$SELECT node_id, name FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL, 1000)$$,
              $$SELECT val, 'name: ' || val FROM fx.exotic UNION ALL SELECT 'long', 'the long one'$$,
              'nodes_by_type returns every exotic id and name exactly');
SELECT results_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), 'Type ' || (SELECT val FROM fx.exotic WHERE k = 2))$$,
                  $$SELECT val FROM fx.exotic WHERE k = 2$$,
                  'nodes_by_type finds a type with quotes and semicolons');
SELECT results_eq($$SELECT node_types -> ('Type ' || (SELECT val FROM fx.exotic WHERE k = 4)) FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('1'::jsonb)$$,
                  'simulation_stats counts an emoji type under its exact name');

-- Edges come back exactly through neighbors (3)
SELECT results_eq(
    $$SELECT node_id, depth, path, edge_id, edge_type, fact
        FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), (SELECT val FROM fx.exotic WHERE k = 1), 20, NULL, 'out')
       ORDER BY depth$$,
    $$SELECT coalesce(n.val, 'long'), x.k,
             ARRAY(SELECT p.val FROM fx.exotic AS p WHERE p.k <= x.k ORDER BY p.k) || coalesce(n.val, 'long'),
             'edge ' || x.val, 'REL ' || x.val, x.val || ' -> ' || coalesce(n.val, fx.ten_kb('fact'))
        FROM fx.exotic AS x LEFT JOIN fx.exotic AS n ON n.k = x.k + 1
       ORDER BY x.k$$,
    'neighbors walks the exotic chain: ids, paths, edge ids, edge types and facts exactly');
SELECT results_eq(
    $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), (SELECT val FROM fx.exotic WHERE k = 3), 1,
                                          ARRAY[(SELECT 'REL ' || val FROM fx.exotic WHERE k = 3)], 'out')$$,
    $$SELECT val FROM fx.exotic WHERE k = 4$$,
    'neighbors filters on an edge type with backslashes');
SELECT results_eq(
    $$SELECT node_id, path FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'long', 1, NULL, 'in')$$,
    $$SELECT val, ARRAY['long', val] FROM fx.exotic WHERE k = 7$$,
    'neighbors against the edges from the long node');

-- Episodes come back exactly through search_episodes (2)
SELECT set_eq(
    $$SELECT episode_id, agent_id, agent_name, platform, action_type, content
        FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 100)$$,
    $$SELECT val AS episode_id, k AS agent_id, val AS agent_name, val AS platform, 'ACT ' || val AS action_type,
             val || fx.ten_kb(label) AS content FROM fx.exotic$$,
    'search_episodes returns every exotic episode exactly');
SELECT results_eq(
    $$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(4), 1)$$,
    $$SELECT val FROM fx.exotic WHERE k = 4$$,
    'search_episodes finds the emoji episode by its embedding');

-- Nodes through search_nodes (1)
SELECT results_eq(
    $$SELECT node_id, name, type FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(20), 1)$$,
    $$SELECT 'long', 'the long one', 'Long'$$,
    'search_nodes returns the node of the 10 kB summary');

-- Stored bytes, as the superuser (2)
RESET ROLE;
SELECT is((SELECT octet_length(summary) FROM memory.nodes WHERE tenant_id = fx.tenant_a() AND node_id = 'long'), 10244,
          'the 10 kB summary is stored whole: 10240 ASCII bytes and a 4-byte emoji');
SELECT is((SELECT metadata FROM memory.episodes WHERE tenant_id = fx.tenant_a() AND episode_id = (SELECT val FROM fx.exotic WHERE k = 3)),
          jsonb_build_object((SELECT val FROM fx.exotic WHERE k = 3), jsonb_build_array((SELECT val FROM fx.exotic WHERE k = 3))),
          'metadata with backslashes in its keys and values is stored exactly');
SET LOCAL ROLE app_a;

-- Profiles, edge types and platforms (3): profiles have no read function yet, so they are
-- read as the superuser.
SET LOCAL ROLE app_a;
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(),
                      (SELECT jsonb_agg(jsonb_build_object('agent_id', k, 'platform', val, 'name', val, 'bio', val || fx.ten_kb(label),
                                                           'persona', fx.ten_kb(val)) ORDER BY k) FROM fx.exotic))$$,
                  $$VALUES (7, 0, 0)$$, 'exotic profiles with 10 kB bios and personas are written');
SELECT results_eq($$SELECT edge_types -> ('REL ' || (SELECT val FROM fx.exotic WHERE k = 1)), platforms -> (SELECT val FROM fx.exotic WHERE k = 5)
                      FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('1'::jsonb, '1'::jsonb)$$,
                  'simulation_stats counts an edge type with quotes and a platform with whitespace under their exact names');
RESET ROLE;
SELECT set_eq($$SELECT agent_id, platform, name, bio, persona FROM memory.profiles WHERE tenant_id = fx.tenant_a()$$,
              $$SELECT k AS agent_id, val AS platform, val AS name, val || fx.ten_kb(label) AS bio, fx.ten_kb(val) AS persona FROM fx.exotic$$,
              'every exotic profile is stored exactly');

-- A 10 kB simulation name and metadata (2)
SET LOCAL ROLE app_a;
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), fx.ten_kb('sim name') || chr(128512),
                                                  jsonb_build_object('notes', fx.ten_kb('notes') || chr(27700)))$$,
                'a simulation with a 10 kB name and metadata can be written');
SELECT results_eq($$SELECT name, metadata -> 'notes' FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$SELECT fx.ten_kb('sim name') || chr(128512), to_jsonb(fx.ten_kb('notes') || chr(27700))$$,
                  'simulation_stats returns the 10 kB name and metadata exactly');
RESET ROLE;

-- Replays change nothing (3)
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), fx.exotic_nodes())$$,
                  $$VALUES (0, 0, 8)$$, 'replaying the exotic nodes: all unchanged');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int, skipped::int FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), fx.exotic_edges())$$,
                  $$VALUES (0, 0, 7, 0)$$, 'replaying the exotic edges: all unchanged');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), fx.exotic_episodes())$$,
                  $$VALUES (0, 0, 7)$$, 'replaying the exotic episodes: all unchanged');

-- 10 kB names and ids (11): an upstream id or a name is text of any length (DESIGN.md sets
-- no limit). 10 kB that do not compress, each write on its own, in a simulation of its own;
-- the reads that check them raise nothing when the write failed.
DO $$
BEGIN
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_long(), 'long values');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_long(), '[{"id": "short", "name": "short"}, {"id": "short2", "name": "short2"}]');
END
$$;
SELECT lives_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_long(),
                    jsonb_build_array(jsonb_build_object('id', 'long name', 'name', fx.ten_kb('name') || chr(128512))))$$,
                'a node with a 10 kB name can be written');
SELECT ok(EXISTS (SELECT 1 FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_long(), NULL)
                    WHERE node_id = 'long name' AND name = fx.ten_kb('name') || chr(128512)),
          'nodes_by_type returns the 10 kB name (ending in an emoji) exactly');
SELECT lives_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_long(),
                    jsonb_build_array(jsonb_build_object('id', fx.ten_kb('node id'), 'name', 'long id')))$$,
                'a node with a 10 kB id can be written');
SELECT ok(EXISTS (SELECT 1 FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_long(), NULL)
                    WHERE name = 'long id' AND node_id = fx.ten_kb('node id')),
          'nodes_by_type returns the 10 kB node id exactly');
SELECT lives_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_long(),
                    jsonb_build_array(jsonb_build_object('id', fx.ten_kb('edge id'), 'type', 'T',
                                                         'source_id', 'short', 'target_id', 'short2')))$$,
                'an edge with a 10 kB id can be written');
SELECT ok(EXISTS (SELECT 1 FROM memory.neighbors(fx.tenant_a(), fx.sim_long(), 'short')
                    WHERE node_id = 'short2' AND edge_id = fx.ten_kb('edge id')),
          'neighbors returns the 10 kB edge id exactly');
SELECT lives_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_long(),
                    jsonb_build_array(jsonb_build_object('id', fx.ten_kb('edge id 2'), 'type', 'T',
                                                         'source_id', 'short', 'target_id', fx.ten_kb('node id'))))$$,
                'an edge with a 10 kB id to a node with a 10 kB id can be written');
SELECT set_eq($$SELECT node_id, depth, edge_id FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_long(), 'short')$$,
              $$VALUES ('short2'::text, 1, fx.ten_kb('edge id')), (fx.ten_kb('node id'), 1, fx.ten_kb('edge id 2'))$$,
              'neighbor_ids returns the 10 kB node and edge ids exactly');
SELECT results_eq($$SELECT node_id = 'short', depth, edge_id = fx.ten_kb('edge id 2')
                      FROM memory.neighbor_ids(fx.tenant_a(), fx.sim_long(), fx.ten_kb('node id'), 2, NULL, 'in')$$,
                  $$VALUES (true, 1, true)$$,
                  'a walk from the node with the 10 kB id reaches its neighbour by the 10 kB edge');
SELECT lives_ok($$SELECT * FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_long(),
                    jsonb_build_array(jsonb_build_object('id', fx.ten_kb('episode id'), 'action_type', 'CREATE_POST',
                                                         'embedding', fx.emb(1))))$$,
                'an episode with a 10 kB id can be written');
SELECT ok(EXISTS (SELECT 1 FROM memory.search_episodes(fx.tenant_a(), fx.sim_long(), fx.vec(1))
                    WHERE episode_id = fx.ten_kb('episode id')),
          'search_episodes returns the 10 kB episode id exactly');
RESET ROLE;

-- A type label longer than 200 characters written without the API (2): the table refuses it
-- (23514), so it can never outgrow the indexes that hold it.
SET LOCAL ROLE app_a;
SELECT throws_ok(
    $$INSERT INTO memory.nodes (tenant_id, simulation_id, sim_no, node_id, name, type)
      VALUES (fx.tenant_a(), fx.sim_a(),
              (SELECT s.sim_no FROM memory.simulations AS s
                WHERE s.tenant_id = fx.tenant_a() AND s.simulation_id = fx.sim_a()),
              'long-type', 'n', repeat('t', 201))$$,
    '23514', NULL, 'a direct insert of a node with a 201-character type: 23514');
SELECT lives_ok(
    $$INSERT INTO memory.nodes (tenant_id, simulation_id, sim_no, node_id, name, type)
      VALUES (fx.tenant_a(), fx.sim_a(),
              (SELECT s.sim_no FROM memory.simulations AS s
                WHERE s.tenant_id = fx.tenant_a() AND s.simulation_id = fx.sim_a()),
              'long-type', 'n', repeat(chr(128512), 200))$$,
    'a direct insert of a node with a 200-character type (4-byte characters) is stored');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
