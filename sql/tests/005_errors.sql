-- 005_errors: every error of DESIGN.md by SQLSTATE. NULL where a value is required 22004;
-- unknown simulation or node P0002, the same for another tenant's; a bad value (wrong
-- dimension, zero vector, NaN, unknown direction, malformed batch item) class 22; a batch
-- that fails writes nothing; tenant and grant errors of the admin API. Each error names the
-- bad value in its message and carries a hint.
BEGIN;
SELECT plan(192);
\ir _fixtures.psql

SET LOCAL ROLE app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
        jsonb_build_array(jsonb_build_object('id', 'shared', 'name', 'shared', 'type', 'Person', 'embedding', fx.emb(1)),
                          jsonb_build_object('id', 'n1', 'name', 'one', 'type', 'Person')));
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
        jsonb_build_array(jsonb_build_object('id', 'e1', 'action_type', 'CREATE_POST', 'content', 'hi',
                                             'embedding', fx.emb(1))));
END
$$;
RESET ROLE;
SET LOCAL ROLE app_b;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_b(), fx.sim_b(),
        '[{"id": "b1", "name": "beta one"}, {"id": "shared", "name": "shared of B"}]');
END
$$;
RESET ROLE;

-- A refused batch: the call fails with the code, and the table holds as many rows of the
-- simulation afterwards as before (counted as the superuser by fx.stored).
CREATE FUNCTION fx.refused(p_fn text, p_batch jsonb, p_code text, p_table text, p_what text)
RETURNS SETOF text LANGUAGE plpgsql VOLATILE SECURITY INVOKER
AS $$
DECLARE
    v_before bigint := fx.stored(p_table, fx.tenant_a(), fx.sim_a());
BEGIN
    RETURN NEXT throws_ok(pg_catalog.format('SELECT * FROM memory.%I(%L, %L, %L)', p_fn, fx.tenant_a(), fx.sim_a(), p_batch),
                          p_code, NULL, p_fn || ': ' || p_what || ' is refused with ' || p_code);
    RETURN NEXT is(fx.stored(p_table, fx.tenant_a(), fx.sim_a()), v_before,
                   p_fn || ': ' || p_what || ': nothing of the batch was written');
END
$$;

-- A 384-number array with one element replaced (jsonb), for embeddings that are almost right.
CREATE FUNCTION fx.emb_with(p_last jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $$ SELECT (SELECT jsonb_agg(x) FROM (SELECT jsonb_array_elements(fx.emb(1)) AS x LIMIT 383) AS s) || jsonb_build_array(p_last) $$;

SET LOCAL ROLE app_a;

-- NULL tenant (12) and NULL simulation (12): 22004 from every API function
SELECT throws_ok(fx.sql(c.call, NULL, fx.sim_a()), '22004', NULL, c.fn || ' with a NULL tenant: 22004')
  FROM fx.calls AS c ORDER BY c.ord;
SELECT throws_ok(fx.sql(c.call, fx.tenant_a(), NULL), '22004', NULL, c.fn || ' with a NULL simulation: 22004')
  FROM fx.calls AS c ORDER BY c.ord;

-- Unknown simulation (11) and another tenant's simulation (11): P0002 alike
SELECT throws_ok(fx.sql(c.call, fx.tenant_a(), fx.unknown()), 'P0002', NULL, c.fn || ' with an unknown simulation: P0002')
  FROM fx.calls AS c WHERE c.fn <> 'upsert_simulation' ORDER BY c.ord;
SELECT throws_ok(fx.sql(c.call, fx.tenant_a(), fx.sim_b()), 'P0002', NULL,
                 c.fn || ' with the simulation id of tenant B: P0002, as if unknown')
  FROM fx.calls AS c WHERE c.fn <> 'upsert_simulation' ORDER BY c.ord;

-- Unknown node (4), NULL node (2): P0002 whether absent or another tenant's
SELECT throws_ok($$SELECT * FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'nope')$$, 'P0002', NULL,
                 'get_node of an unknown node: P0002');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'nope')$$, 'P0002', NULL,
                 'neighbors of an unknown node: P0002');
SELECT throws_ok($$SELECT * FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'b1')$$, 'P0002', NULL,
                 'get_node of the node id of tenant B: P0002, as if unknown');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'b1')$$, 'P0002', NULL,
                 'neighbors of the node id of tenant B: P0002, as if unknown');
SELECT throws_ok($$SELECT * FROM memory.get_node(fx.tenant_a(), fx.sim_a(), NULL)$$, '22004', NULL,
                 'get_node with a NULL node id: 22004');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), NULL)$$, '22004', NULL,
                 'neighbors with a NULL node id: 22004');

-- Direction (3)
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, 'sideways')$$,
                 '22023', NULL, 'neighbors with an unknown direction: 22023');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, '')$$,
                 '22023', NULL, 'neighbors with an empty direction: 22023');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, NULL)$$,
                 '22004', NULL, 'neighbors with a NULL direction: 22004');

-- Query vectors (11)
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), '[1, 2, 3]'::vector)$$,
                 '22023', NULL, 'search_episodes with a 3-dimensional query: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), '[1, 2, 3]'::vector)$$,
                 '22023', NULL, 'search_nodes with a 3-dimensional query: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), array_fill(1::real, ARRAY[385])::vector)$$,
                 '22023', NULL, 'search_episodes with a 385-dimensional query: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), array_fill(0::real, ARRAY[384])::vector)$$,
                 '22023', NULL, 'search_episodes with the zero vector: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), array_fill(0::real, ARRAY[384])::vector)$$,
                 '22023', NULL, 'search_nodes with the zero vector: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), NULL)$$,
                 '22004', NULL, 'search_episodes with a NULL query: 22004');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), NULL)$$,
                 '22004', NULL, 'search_nodes with a NULL query: 22004');
-- pgvector refuses NaN and infinity on input with data_exception (22000).
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(),
                     ('[NaN' || repeat(', 0.5', 383) || ']')::vector)$$,
                 '22000', NULL, 'search_episodes with NaN in a vector literal: 22000');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(),
                     (SELECT array_agg(CASE WHEN i = 7 THEN 'NaN'::real ELSE 0.5::real END) FROM generate_series(1, 384) AS i)::vector)$$,
                 '22000', NULL, 'search_nodes with NaN in a real[] cast to vector: 22000');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(),
                     ('[Infinity' || repeat(', 0.5', 383) || ']')::vector)$$,
                 '22000', NULL, 'search_nodes with infinity in a vector literal: 22000');
SELECT is((SELECT pg_catalog.count(*) FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(1))), 1::bigint,
          'control: search_nodes with a valid 384-dimensional query works');

-- Malformed node batches (15 x 2)
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"name": "no id"}]', '22023', 'nodes', 'an item without id');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": 42, "name": "numeric id"}]', '22023', 'nodes', 'an id that is a number');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": "", "name": "empty id"}]', '22023', 'nodes', 'an empty id');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": "n"}]', '22023', 'nodes', 'an item without name');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": "n", "name": "x", "embedding": [0.1, 0.2, 0.3]}]', '22023', 'nodes', 'an embedding of 3 dimensions');
SELECT fx.refused('upsert_nodes', jsonb_build_array('{"id": "v", "name": "valid"}'::jsonb, jsonb_build_object('id', 'n', 'name', 'x', 'embedding', fx.emb(1) || '[0.5]'::jsonb)), '22023', 'nodes', 'an embedding of 385 dimensions');
SELECT fx.refused('upsert_nodes', jsonb_build_array('{"id": "v", "name": "valid"}'::jsonb, jsonb_build_object('id', 'n', 'name', 'x', 'embedding', fx.emb_with('"NaN"'))), '22023', 'nodes', 'an embedding holding the string NaN');
SELECT fx.refused('upsert_nodes', jsonb_build_array('{"id": "v", "name": "valid"}'::jsonb, jsonb_build_object('id', 'n', 'name', 'x', 'embedding', to_jsonb(array_fill(0, ARRAY[384])))), '22023', 'nodes', 'the zero embedding');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": "n", "name": "x", "embedding": "[1, 2]"}]', '22023', 'nodes', 'an embedding that is a string');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": "n", "name": "x", "labels": [1, 2]}]', '22023', 'nodes', 'labels that are not strings');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": "n", "name": "x", "attributes": [1]}]', '22023', 'nodes', 'attributes that are not an object');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, "n"]', '22023', 'nodes', 'an item that is not an object');
SELECT fx.refused('upsert_nodes', '{"id": "v", "name": "valid"}', '22023', 'nodes', 'a batch that is an object, not an array');
SELECT fx.refused('upsert_nodes', NULL, '22004', 'nodes', 'a NULL batch');
SELECT fx.refused('upsert_nodes', '[{"id": "v", "name": "valid"}, {"id": "w", "name": "other"}, {"id": "v", "name": "again"}]', '22023', 'nodes', 'the same id twice in one batch');

-- Malformed edge batches (10 x 2)
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, {"id": "e2", "type": "T", "target_id": "n1"}]', '22023', 'edges', 'an edge without source_id');
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, {"id": "e2", "source_id": "shared", "target_id": "n1"}]', '22023', 'edges', 'an edge without type');
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, {"type": "T", "source_id": "shared", "target_id": "n1"}]', '22023', 'edges', 'an edge without id');
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, {"id": "e2", "type": "T", "source_id": "shared", "target_id": "n1", "valid_at": "last tuesday-ish"}]', '22023', 'edges', 'a valid_at that is not a timestamp');
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, {"id": "e2", "type": "T", "source_id": "shared", "target_id": "n1", "embedding": [1, 2]}]', '22023', 'edges', 'an embedding of 2 dimensions');
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, 17]', '22023', 'edges', 'an item that is a number');
SELECT fx.refused('upsert_edges', '"not a batch"', '22023', 'edges', 'a batch that is a string');
SELECT fx.refused('upsert_edges', NULL, '22004', 'edges', 'a NULL batch');
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, {"id": "ev", "type": "U", "source_id": "n1", "target_id": "shared"}]', '22023', 'edges', 'the same id twice in one batch');
SELECT fx.refused('upsert_edges', '[{"id": "ev", "type": "T", "source_id": "shared", "target_id": "n1"}, {"id": "e2", "type": "T", "source_id": "shared", "target_id": "ghost"}]', '23503', 'edges', 'an edge to an unknown node');

-- Malformed episode batches (11 x 2)
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, {"action_type": "CREATE_POST"}]', '22023', 'episodes', 'an episode without id');
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, {"id": "p2"}]', '22023', 'episodes', 'an episode without action_type');
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, {"id": "p2", "action_type": "LIKE_POST", "agent_id": "7"}]', '22023', 'episodes', 'an agent_id that is a string');
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, {"id": "p2", "action_type": "LIKE_POST", "round": 1.5}]', '22023', 'episodes', 'a round that is not an integer');
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, {"id": "p2", "action_type": "LIKE_POST", "occurred_at": "yesterday at noon-ish"}]', '22023', 'episodes', 'an occurred_at that is not a timestamp');
SELECT fx.refused('upsert_episodes', jsonb_build_array('{"id": "pv", "action_type": "CREATE_POST"}'::jsonb, jsonb_build_object('id', 'p2', 'action_type', 'LIKE_POST', 'embedding', fx.emb(1) - 0)), '22023', 'episodes', 'an embedding of 383 dimensions');
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, {"id": "p2", "action_type": "LIKE_POST", "metadata": "x"}]', '22023', 'episodes', 'metadata that is not an object');
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, [1, 2]]', '22023', 'episodes', 'an item that is an array');
SELECT fx.refused('upsert_episodes', '42', '22023', 'episodes', 'a batch that is a number');
SELECT fx.refused('upsert_episodes', NULL, '22004', 'episodes', 'a NULL batch');
SELECT fx.refused('upsert_episodes', '[{"id": "pv", "action_type": "CREATE_POST"}, {"id": "pv", "action_type": "LIKE_POST"}]', '22023', 'episodes', 'the same id twice in one batch');

-- Malformed profile batches (8 x 2)
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter"}, {"platform": "twitter"}]', '22023', 'profiles', 'a profile without agent_id');
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter"}, {"agent_id": 2}]', '22023', 'profiles', 'a profile without platform');
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter"}, {"agent_id": "two", "platform": "twitter"}]', '22023', 'profiles', 'an agent_id that is a string');
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter"}, {"agent_id": 4294967296, "platform": "twitter"}]', '22023', 'profiles', 'an agent_id beyond integer');
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter"}, null]', '22023', 'profiles', 'an item that is JSON null');
SELECT fx.refused('upsert_profiles', '{}', '22023', 'profiles', 'a batch that is an empty object');
SELECT fx.refused('upsert_profiles', NULL, '22004', 'profiles', 'a NULL batch');
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter"}, {"agent_id": 2, "platform": "reddit"}, {"agent_id": 1, "platform": "twitter", "name": "again"}]', '22023', 'profiles', 'the same platform and agent twice in one batch');

-- Other arguments of the writes (3)
SELECT throws_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'x', '[1, 2]')$$, '22023', NULL,
                 'upsert_simulation with metadata that is not an object: 22023');
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[]', NULL)$$, '22004', NULL,
                 'upsert_edges with a NULL p_skip_dangling: 22004');
SELECT results_eq($$SELECT name FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$, ARRAY['sim-a'],
                  'the refused upsert_simulation left the simulation as it was');
RESET ROLE;

-- Admin API (9)
SET LOCAL ROLE admin;
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-tenant-a', fx.unknown())$$, '23505', NULL,
                 'create_tenant with a name taken by another tenant id: 23505');
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-new-name', fx.tenant_b())$$, '23505', NULL,
                 'create_tenant with an id taken under another name: 23505');
SELECT is(memory.create_tenant('pgtap-tenant-a', fx.tenant_a()), fx.tenant_a(),
          'create_tenant repeated with the same name and id returns the tenant');
SELECT throws_ok($$SELECT memory.create_tenant(NULL)$$, '22004', NULL, 'create_tenant with a NULL name: 22004');
SELECT throws_ok($$SELECT memory.grant_tenant('pgtap_no_such_role', fx.tenant_a())$$, '42704', NULL,
                 'grant_tenant to a role that does not exist: 42704');
SELECT throws_ok($$SELECT memory.grant_tenant('app_b', fx.unknown())$$, 'P0002', NULL,
                 'grant_tenant of an unknown tenant: P0002');
SELECT throws_ok($$SELECT memory.grant_tenant(NULL, fx.tenant_a())$$, '22004', NULL, 'grant_tenant with a NULL role: 22004');
SELECT throws_ok($$SELECT memory.revoke_tenant('app_a', NULL)$$, '22004', NULL, 'revoke_tenant with a NULL tenant: 22004');
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenant_grants WHERE role_name = 'pgtap_no_such_role'), 0::bigint,
          'the refused grant wrote nothing');
RESET ROLE;

-- Messages name the value and carry a hint (24)
CREATE TABLE fx.errors (ord integer PRIMARY KEY, who name, what text, sql text, fragment text);
GRANT SELECT ON fx.errors TO PUBLIC;
INSERT INTO fx.errors VALUES
    (1,  'app_a', 'no grant',            $$SELECT memory.simulation_stats(fx.tenant_b(), fx.sim_b())$$, 'bbbbbbbb-0000-4000-8000-000000000000'),
    (2,  'app_a', 'NULL tenant',         $$SELECT memory.simulation_stats(NULL, fx.sim_a())$$, 'p_tenant_id'),
    (3,  'app_a', 'NULL simulation',     $$SELECT memory.simulation_stats(fx.tenant_a(), NULL)$$, 'p_simulation_id'),
    (4,  'app_a', 'unknown simulation',  $$SELECT memory.simulation_stats(fx.tenant_a(), fx.unknown())$$, 'cccccccc-0000-4000-8000-000000000000'),
    (5,  'app_a', 'unknown node',        $$SELECT memory.get_node(fx.tenant_a(), fx.sim_a(), 'nope')$$, 'nope'),
    (6,  'app_a', 'unknown direction',   $$SELECT memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, 'sideways')$$, 'sideways'),
    (7,  'app_a', 'wrong dimension',     $$SELECT memory.search_nodes(fx.tenant_a(), fx.sim_a(), '[1, 2, 3]'::vector)$$, '3'),
    (8,  'app_a', 'zero vector',         $$SELECT memory.search_nodes(fx.tenant_a(), fx.sim_a(), array_fill(0::real, ARRAY[384])::vector)$$, 'zero'),
    (9,  'app_a', 'malformed item',      $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "v", "name": "v"}, {"name": "x"}]')$$, 'p_nodes[1]'),
    (10, 'app_a', 'dangling edge',       $$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "e9", "type": "T", "source_id": "n1", "target_id": "ghost"}]')$$, 'ghost'),
    (11, 'admin', 'tenant name taken',   $$SELECT memory.create_tenant('pgtap-tenant-a', fx.unknown())$$, 'pgtap-tenant-a'),
    (12, 'admin', 'missing role',        $$SELECT memory.grant_tenant('pgtap_no_such_role', fx.tenant_a())$$, 'pgtap_no_such_role');

SET LOCAL ROLE app_a;
SELECT ok(COALESCE((SELECT strpos(e.message, x.fragment) > 0 FROM fx.error(x.sql) AS e), false),
          pg_catalog.format('%s: the message names %s', x.what, x.fragment))
  FROM fx.errors AS x WHERE x.who = 'app_a' ORDER BY x.ord;
SELECT ok(COALESCE((SELECT e.hint <> '' FROM fx.error(x.sql) AS e), false),
          pg_catalog.format('%s: the error carries a hint', x.what))
  FROM fx.errors AS x WHERE x.who = 'app_a' ORDER BY x.ord;
RESET ROLE;
SET LOCAL ROLE admin;
SELECT ok(COALESCE((SELECT strpos(e.message, x.fragment) > 0 FROM fx.error(x.sql) AS e), false),
          pg_catalog.format('%s: the message names %s', x.what, x.fragment))
  FROM fx.errors AS x WHERE x.who = 'admin' ORDER BY x.ord;
SELECT ok(COALESCE((SELECT e.hint <> '' FROM fx.error(x.sql) AS e), false),
          pg_catalog.format('%s: the error carries a hint', x.what))
  FROM fx.errors AS x WHERE x.who = 'admin' ORDER BY x.ord;
RESET ROLE;

-- No oracle (2): another tenant's simulation and an unknown one fail alike, and so do an
-- ungranted existing tenant and an unknown one.
SET LOCAL ROLE app_a;
SELECT is((SELECT (e.code, replace(e.message, fx.sim_b()::text, '?'), e.hint)::text
             FROM fx.error($$SELECT memory.simulation_stats(fx.tenant_a(), fx.sim_b())$$) AS e),
          (SELECT (e.code, replace(e.message, fx.unknown()::text, '?'), e.hint)::text
             FROM fx.error($$SELECT memory.simulation_stats(fx.tenant_a(), fx.unknown())$$) AS e),
          'another tenant''s simulation id fails exactly like an unknown one');
SELECT is((SELECT (e.code, replace(e.message, fx.tenant_b()::text, '?'), e.hint)::text
             FROM fx.error($$SELECT memory.simulation_stats(fx.tenant_b(), fx.sim_b())$$) AS e),
          (SELECT (e.code, replace(e.message, fx.unknown()::text, '?'), e.hint)::text
             FROM fx.error($$SELECT memory.simulation_stats(fx.unknown(), fx.sim_b())$$) AS e),
          'an existing ungranted tenant fails exactly like an unknown one');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
