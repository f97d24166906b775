-- 005_errors: every error of DESIGN.md by SQLSTATE. NULL where a value is required 22004;
-- unknown simulation or node P0002, the same for another tenant's; a bad value (wrong
-- dimension, zero vector, NaN, unknown direction, malformed batch item) class 22; a batch
-- that fails writes nothing and changes no row; tenant and grant errors of the admin API; no
-- oracle between another tenant's objects and unknown ones. Each error names the
-- bad value in its message and carries a hint.
BEGIN;
SELECT plan(352);
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
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
        '[{"id": "e0", "type": "T", "source_id": "shared", "target_id": "n1", "fact": "old fact"}]');
    PERFORM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), '[{"agent_id": 1, "platform": "twitter", "bio": "old bio"}]');
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

-- A refused batch: the call fails with the code, and the simulation's rows of the table are
-- exactly what they were (every column, read as the superuser by fx.digest).
CREATE FUNCTION fx.refused(p_fn text, p_batch jsonb, p_code text, p_table text, p_what text)
RETURNS SETOF text LANGUAGE plpgsql VOLATILE SECURITY INVOKER
AS $$
DECLARE
    v_before text := fx.digest(p_table, fx.tenant_a(), fx.sim_a());
BEGIN
    RETURN NEXT throws_ok(pg_catalog.format('SELECT * FROM memory.%I(%L, %L, %L)', p_fn, fx.tenant_a(), fx.sim_a(), p_batch),
                          p_code, NULL, p_fn || ': ' || p_what || ' is refused with ' || p_code);
    RETURN NEXT is(fx.digest(p_table, fx.tenant_a(), fx.sim_a()), v_before,
                   p_fn || ': ' || p_what || ': nothing of the batch was written, no row changed');
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

-- Direction (4)
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, 'sideways')$$,
                 '22023', NULL, 'neighbors with an unknown direction: 22023');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, '')$$,
                 '22023', NULL, 'neighbors with an empty direction: 22023');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, NULL)$$,
                 '22004', NULL, 'neighbors with a NULL direction: 22004');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, 'OUT')$$,
                 '22023', NULL, 'neighbors with a direction in the wrong case: 22023');

-- Query vectors (14)
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
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(),
                     ('[Infinity' || repeat(', 0.5', 383) || ']')::vector)$$,
                 '22000', NULL, 'search_episodes with infinity in a vector literal: 22000');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(),
                     ('[-Infinity' || repeat(', 0.5', 383) || ']')::vector)$$,
                 '22000', NULL, 'search_episodes with -infinity in a vector literal: 22000');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(),
                     ('[-Infinity' || repeat(', 0.5', 383) || ']')::vector)$$,
                 '22000', NULL, 'search_nodes with -infinity in a vector literal: 22000');
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

-- More malformed items (21 x 2). Each batch starts with a change to a row the simulation
-- holds: the change must not land either. Relative timestamps ('now', 'today', 'yesterday',
-- 'tomorrow') are refused as well: a replay of the batch would change the row.
SELECT fx.refused('upsert_nodes', '[{"id": "shared", "name": "changed"}, {"id": "x", "name": null}]', '22023', 'nodes', 'a name that is JSON null');
SELECT fx.refused('upsert_nodes', '[{"id": "shared", "name": "changed"}, {"id": "x", "name": "x", "type": 3}]', '22023', 'nodes', 'a type that is a number');
SELECT fx.refused('upsert_nodes', '[{"id": "shared", "name": "changed"}, {"id": "x", "name": "x", "labels": "Person"}]', '22023', 'nodes', 'labels that are a string');
SELECT fx.refused('upsert_nodes', '[{"id": "shared", "name": "changed"}, {"id": "x", "name": "x", "embedding_model": 5}]', '22023', 'nodes', 'an embedding_model that is a number');
SELECT fx.refused('upsert_nodes', jsonb_build_array('{"id": "shared", "name": "changed"}'::jsonb, jsonb_build_object('id', 'x', 'name', 'x', 'embedding', (SELECT jsonb_agg('0.1'::text) FROM generate_series(1, 384)))), '22023', 'nodes', 'an embedding of strings');
SELECT fx.refused('upsert_nodes', jsonb_build_array('{"id": "shared", "name": "changed"}'::jsonb, jsonb_build_object('id', 'x', 'name', 'x', 'embedding', fx.emb_with('1e39'))), '22023', 'nodes', 'an embedding value beyond real (1e39)');
SELECT fx.refused('upsert_nodes', jsonb_build_array('{"id": "shared", "name": "changed"}'::jsonb, jsonb_build_object('id', 'x', 'name', 'x', 'embedding', fx.emb_with('-4e38'))), '22023', 'nodes', 'an embedding value below real (-4e38)');
SELECT fx.refused('upsert_nodes', jsonb_build_array('{"id": "shared", "name": "changed"}'::jsonb, jsonb_build_object('id', 'x', 'name', 'x', 'type', repeat('t', 201))), '22023', 'nodes', 'a type of 201 characters');
SELECT fx.refused('upsert_edges', '[{"id": "e0", "type": "T", "source_id": "shared", "target_id": "n1", "fact": "changed"}, {"id": "x", "type": "T", "source_id": "shared", "target_id": ""}]', '22023', 'edges', 'an empty target_id');
SELECT fx.refused('upsert_edges', '[{"id": "e0", "type": "T", "source_id": "shared", "target_id": "n1", "fact": "changed"}, {"id": "x", "type": "T", "source_id": "shared", "target_id": "n1", "invalid_at": 12345}]', '22023', 'edges', 'an invalid_at that is a number');
SELECT fx.refused('upsert_edges', '[{"id": "e0", "type": "T", "source_id": "shared", "target_id": "n1", "fact": "changed"}, {"id": "x", "type": "T", "source_id": "shared", "target_id": "n1", "fact": ["not", "text"]}]', '22023', 'edges', 'a fact that is an array');
SELECT fx.refused('upsert_edges', '[{"id": "e0", "type": "T", "source_id": "shared", "target_id": "n1", "fact": "changed"}, {"id": "x", "type": "T", "source_id": "shared", "target_id": "n1", "valid_at": "yesterday"}]', '22023', 'edges', 'a valid_at of ''yesterday''');
SELECT fx.refused('upsert_edges', '[{"id": "e0", "type": "T", "source_id": "shared", "target_id": "n1", "fact": "changed"}, {"id": "x", "type": "T", "source_id": "shared", "target_id": "n1", "invalid_at": "TOMORROW"}]', '22023', 'edges', 'an invalid_at of ''TOMORROW''');
SELECT fx.refused('upsert_edges', '[{"id": "e0", "type": "T", "source_id": "shared", "target_id": "n1", "fact": "changed"}, {"id": "x", "type": "T", "source_id": "nobody-here", "target_id": "n1"}]', '23503', 'edges', 'an edge from an unknown node');
SELECT fx.refused('upsert_episodes', '[{"id": "e1", "action_type": "CREATE_POST", "content": "changed"}, {"id": "x", "action_type": "POST", "agent_id": 1.5}]', '22023', 'episodes', 'an agent_id that is not an integer');
SELECT fx.refused('upsert_episodes', '[{"id": "e1", "action_type": "CREATE_POST", "content": "changed"}, {"id": "x", "action_type": "POST", "round": 2147483648}]', '22023', 'episodes', 'a round beyond integer');
SELECT fx.refused('upsert_episodes', '[{"id": "e1", "action_type": "CREATE_POST", "content": "changed"}, {"id": "x", "action_type": "POST", "occurred_at": "2025-13-45"}]', '22023', 'episodes', 'an occurred_at of month 13');
SELECT fx.refused('upsert_episodes', '[{"id": "e1", "action_type": "CREATE_POST", "content": "changed"}, {"id": "x", "action_type": "POST", "occurred_at": "now"}]', '22023', 'episodes', 'an occurred_at of ''now''');
SELECT fx.refused('upsert_episodes', '[{"id": "e1", "action_type": "CREATE_POST", "content": "changed"}, {"id": "x", "action_type": "POST", "occurred_at": " Today 10:00"}]', '22023', 'episodes', 'an occurred_at of '' Today 10:00''');
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter", "bio": "changed"}, {"agent_id": 2, "platform": "twitter", "bio": {"a": 1}}]', '22023', 'profiles', 'a bio that is an object');
SELECT fx.refused('upsert_profiles', '[{"agent_id": 1, "platform": "twitter", "bio": "changed"}, {"agent_id": 2, "platform": "twitter", "attributes": "x"}]', '22023', 'profiles', 'attributes that are a string');

-- A batch that is JSON null (4 x 2)
SELECT fx.refused(f.fn, 'null'::jsonb, '22023', f.tbl, 'a batch that is JSON null')
  FROM (VALUES (1, 'upsert_nodes', 'nodes'), (2, 'upsert_edges', 'edges'), (3, 'upsert_episodes', 'episodes'),
               (4, 'upsert_profiles', 'profiles')) AS f(ord, fn, tbl) ORDER BY f.ord;

-- JSON has no NaN or infinity: a batch carrying one is not even a document (2)
SELECT throws_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n", "name": "n", "embedding": [NaN, 0.5]}]')$$,
                 '22P02', NULL, 'a NaN in a batch vector is refused (22P02, class 22)');
SELECT throws_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n", "name": "n", "embedding": [Infinity, 0.5]}]')$$,
                 '22P02', NULL, 'an infinity in a batch vector is refused (22P02, class 22)');

-- Other arguments of the writes (5)
SELECT throws_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'x', '[1, 2]')$$, '22023', NULL,
                 'upsert_simulation with metadata that is not an object: 22023');
SELECT throws_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'x', '"text"')$$, '22023', NULL,
                 'upsert_simulation with metadata that is a string: 22023');
SELECT throws_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'x', '3')$$, '22023', NULL,
                 'upsert_simulation with metadata that is a number: 22023');
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[]', NULL)$$, '22004', NULL,
                 'upsert_edges with a NULL p_skip_dangling: 22004');
SELECT results_eq($$SELECT name FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$, ARRAY['sim-a'],
                  'the refused upsert_simulation left the simulation as it was');
RESET ROLE;

-- Admin API (14)
SET LOCAL ROLE admin;
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-tenant-a', fx.unknown())$$, '23505', NULL,
                 'create_tenant with a name taken by another tenant id: 23505');
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-new-name', fx.tenant_b())$$, '23505', NULL,
                 'create_tenant with an id taken under another name: 23505');
SELECT is(memory.create_tenant('pgtap-tenant-a', fx.tenant_a()), fx.tenant_a(),
          'create_tenant repeated with the same name and id returns the tenant');
SELECT throws_ok($$SELECT memory.create_tenant(NULL)$$, '22004', NULL, 'create_tenant with a NULL name: 22004');
SELECT ok((SELECT e.code LIKE '22%' FROM fx.error($$SELECT memory.create_tenant('')$$) AS e),
          'create_tenant with an empty name: class 22');
SELECT throws_ok($$SELECT memory.grant_tenant('pgtap_no_such_role', fx.tenant_a())$$, '42704', NULL,
                 'grant_tenant to a role that does not exist: 42704');
SELECT throws_ok($$SELECT memory.grant_tenant('app_b', fx.unknown())$$, 'P0002', NULL,
                 'grant_tenant of an unknown tenant: P0002');
SELECT throws_ok($$SELECT memory.grant_tenant(NULL, fx.tenant_a())$$, '22004', NULL, 'grant_tenant with a NULL role: 22004');
SELECT throws_ok($$SELECT memory.grant_tenant('app_b', NULL)$$, '22004', NULL, 'grant_tenant with a NULL tenant: 22004');
SELECT throws_ok($$SELECT memory.revoke_tenant(NULL, fx.tenant_a())$$, '22004', NULL, 'revoke_tenant with a NULL role: 22004');
SELECT throws_ok($$SELECT memory.revoke_tenant('app_a', NULL)$$, '22004', NULL, 'revoke_tenant with a NULL tenant: 22004');
RESET ROLE;
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenants), (SELECT pg_catalog.count(*) FROM memory.tenants WHERE name NOT IN ('pgtap-new-name', '')),
          'the refused create_tenant calls wrote nothing');
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenants WHERE tenant_id = fx.unknown()), 0::bigint,
          'the refused create_tenant with a taken name did not create its id');
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenant_grants WHERE role_name = 'pgtap_no_such_role' OR tenant_id = fx.unknown()), 0::bigint,
          'the refused grants wrote nothing');

-- Messages name the value and carry a hint (2 per case)
CREATE TABLE fx.errors (ord integer PRIMARY KEY, who name, what text, sql text, fragments text[]);
GRANT SELECT ON fx.errors TO PUBLIC;
INSERT INTO fx.errors VALUES
    (1,  'app_a',  'no grant',              $$SELECT memory.simulation_stats(fx.tenant_b(), fx.sim_b())$$, '{bbbbbbbb-0000-4000-8000-000000000000,app_a}'),
    (2,  'nobody', 'no grant at all',       $$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a())$$, '{aaaaaaaa-0000-4000-8000-000000000000,nobody}'),
    (3,  'app_a',  'NULL tenant',           $$SELECT memory.simulation_stats(NULL, fx.sim_a())$$, '{p_tenant_id}'),
    (4,  'app_a',  'NULL simulation',       $$SELECT memory.simulation_stats(fx.tenant_a(), NULL)$$, '{p_simulation_id}'),
    (5,  'app_a',  'NULL simulation to delete', $$SELECT memory.delete_simulation(fx.tenant_a(), NULL)$$, '{p_simulation_id}'),
    (6,  'app_a',  'NULL node of get_node', $$SELECT memory.get_node(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_node_id}'),
    (7,  'app_a',  'NULL node of neighbors', $$SELECT memory.neighbors(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_node_id}'),
    (8,  'app_a',  'NULL direction',        $$SELECT memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, NULL)$$, '{p_direction}'),
    (9,  'app_a',  'NULL episode query',    $$SELECT memory.search_episodes(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_query}'),
    (10, 'app_a',  'NULL node query',       $$SELECT memory.search_nodes(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_query}'),
    (11, 'app_a',  'NULL node batch',       $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_nodes}'),
    (12, 'app_a',  'NULL edge batch',       $$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_edges}'),
    (13, 'app_a',  'NULL episode batch',    $$SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_episodes}'),
    (14, 'app_a',  'NULL profile batch',    $$SELECT memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), NULL)$$, '{p_profiles}'),
    (15, 'app_a',  'NULL p_skip_dangling',  $$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[]', NULL)$$, '{p_skip_dangling}'),
    (16, 'app_a',  'unknown simulation',    $$SELECT memory.simulation_stats(fx.tenant_a(), fx.unknown())$$, '{cccccccc-0000-4000-8000-000000000000}'),
    (17, 'app_a',  'unknown simulation of a write', $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.unknown(), '[]')$$, '{cccccccc-0000-4000-8000-000000000000}'),
    (18, 'app_a',  'unknown simulation to delete', $$SELECT memory.delete_simulation(fx.tenant_a(), fx.unknown())$$, '{cccccccc-0000-4000-8000-000000000000}'),
    (19, 'app_a',  'unknown node',          $$SELECT memory.get_node(fx.tenant_a(), fx.sim_a(), 'nope')$$, '{nope}'),
    (20, 'app_a',  'unknown node (ids are case-sensitive)', $$SELECT memory.get_node(fx.tenant_a(), fx.sim_a(), 'N1')$$, '{N1}'),
    (21, 'app_a',  'unknown start of a walk', $$SELECT memory.neighbors(fx.tenant_a(), fx.sim_a(), 'nope', 3)$$, '{nope}'),
    (22, 'app_a',  'unknown direction',     $$SELECT memory.neighbors(fx.tenant_a(), fx.sim_a(), 'n1', 1, NULL, 'sideways')$$, '{sideways}'),
    (23, 'app_a',  'wrong dimension (383)', $$SELECT memory.search_episodes(fx.tenant_a(), fx.sim_a(), array_fill(0.5::real, ARRAY[383])::vector)$$, '{383}'),
    (24, 'app_a',  'wrong dimension (512)', $$SELECT memory.search_nodes(fx.tenant_a(), fx.sim_a(), array_fill(0.5::real, ARRAY[512])::vector)$$, '{512}'),
    (25, 'app_a',  'zero vector',           $$SELECT memory.search_nodes(fx.tenant_a(), fx.sim_a(), array_fill(0::real, ARRAY[384])::vector)$$, '{zero}'),
    (26, 'app_a',  'batch not an array',    $$SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), '{}')$$, '{p_episodes,array}'),
    (27, 'app_a',  'item not an object',    $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "name": "a"}, {"id": "b", "name": "b"}, "x"]')$$, '{p_nodes[2]}'),
    (28, 'app_a',  'malformed node',        $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "v", "name": "v"}, {"name": "x"}]')$$, '{p_nodes[1]}'),
    (29, 'app_a',  'node without name',     $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "name": "a"}, {"id": "b"}]')$$, '{p_nodes[1],name}'),
    (30, 'app_a',  'the first malformed item is named', $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "name": "a"}, {"id": "b", "name": 5}, {"id": "", "name": "c"}]')$$, '{p_nodes[1].name}'),
    (31, 'app_a',  'malformed edge',        $$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "type": "T", "source_id": "n1", "target_id": "shared"}, {"id": "b", "type": "T", "source_id": "n1", "target_id": "shared"}, {"id": "c", "type": "T", "source_id": "n1", "target_id": "shared"}, {"id": "x", "source_id": "n1", "target_id": "shared"}]')$$, '{p_edges[3],type}'),
    (32, 'app_a',  'malformed episode',     $$SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "action_type": "P"}, {"id": "b", "action_type": "P"}, {"id": "c", "action_type": "P"}, {"id": "x", "action_type": "P", "round": "one"}]')$$, '{p_episodes[3],round}'),
    (33, 'app_a',  'malformed profile',     $$SELECT memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), '[{"agent_id": 5, "platform": "p"}, {"agent_id": 6, "platform": "p"}, {"agent_id": 7, "platform": "p"}, {"agent_id": 1}]')$$, '{p_profiles[3],platform}'),
    (34, 'app_a',  'embedding of 100 dimensions', $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), jsonb_build_array(jsonb_build_object('id', 'a', 'name', 'a', 'embedding', to_jsonb(array_fill(0.5, ARRAY[100])))))$$, '{p_nodes[0],embedding,100}'),
    (35, 'app_a',  'zero embedding',        $$SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), jsonb_build_array('{"id": "a", "action_type": "P"}'::jsonb, jsonb_build_object('id', 'b', 'action_type', 'P', 'embedding', to_jsonb(array_fill(0, ARRAY[384])))))$$, '{p_episodes[1],embedding}'),
    (36, 'app_a',  'type longer than 200',  $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), jsonb_build_array(jsonb_build_object('id', 'n', 'name', 'N', 'type', repeat('T', 201))))$$, '{p_nodes[0].type}'),
    (37, 'app_a',  'metadata not an object', $$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'x', '[]')$$, '{p_metadata}'),
    (38, 'app_a',  'node id twice',         $$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "name": "1"}, {"id": "b", "name": "2"}, {"id": "a", "name": "3"}]')$$, '{twice,0,2}'),
    (39, 'app_a',  'edge id twice',         $$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "type": "T", "source_id": "n1", "target_id": "shared"}, {"id": "b", "type": "T", "source_id": "n1", "target_id": "shared"}, {"id": "a", "type": "U", "source_id": "shared", "target_id": "n1"}]')$$, '{twice,0,2}'),
    (40, 'app_a',  'episode id twice',      $$SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a", "action_type": "P"}, {"id": "b", "action_type": "P"}, {"id": "a", "action_type": "Q"}]')$$, '{twice,0,2}'),
    (41, 'app_a',  'profile key twice',     $$SELECT memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), '[{"agent_id": 1, "platform": "p"}, {"agent_id": 1, "platform": "q"}, {"agent_id": 1, "platform": "p"}]')$$, '{twice,0,2}'),
    (42, 'app_a',  'dangling edge',         $$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "e9", "type": "T", "source_id": "n1", "target_id": "ghost"}]')$$, '{e9,ghost,[0]}'),
    (43, 'app_a',  'the first dangling edge is named', $$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "ok1", "type": "T", "source_id": "shared", "target_id": "n1"}, {"id": "bad1", "type": "T", "source_id": "ghost1", "target_id": "n1"}, {"id": "ok2", "type": "T", "source_id": "n1", "target_id": "shared"}, {"id": "bad2", "type": "T", "source_id": "shared", "target_id": "ghost2"}]')$$, '{[1],bad1,ghost1}'),
    (44, 'admin',  'tenant name taken',     $$SELECT memory.create_tenant('pgtap-tenant-a', fx.unknown())$$, '{pgtap-tenant-a}'),
    (45, 'admin',  'tenant id taken',       $$SELECT memory.create_tenant('pgtap-new-name', fx.tenant_a())$$, '{aaaaaaaa-0000-4000-8000-000000000000}'),
    (46, 'admin',  'NULL tenant name',      $$SELECT memory.create_tenant(NULL)$$, '{p_name}'),
    (47, 'admin',  'missing role',          $$SELECT memory.grant_tenant('pgtap_no_such_role', fx.tenant_a())$$, '{pgtap_no_such_role}'),
    (48, 'admin',  'grant of an unknown tenant', $$SELECT memory.grant_tenant('app_a', fx.unknown())$$, '{cccccccc-0000-4000-8000-000000000000}');

-- fx.checked_errors(who): for each case of that role, whether its message names every fragment
-- and whether it carries a hint (a call that raises nothing fails both).
CREATE FUNCTION fx.checked_errors(p_who name) RETURNS SETOF text LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
DECLARE
    x record;
    e record;
BEGIN
    FOR x IN SELECT * FROM fx.errors WHERE who = p_who ORDER BY ord LOOP
        SELECT * INTO e FROM fx.error(x.sql);
        RETURN NEXT ok(COALESCE((SELECT bool_and(strpos(e.message, f) > 0) FROM unnest(x.fragments) AS f), false),
                       pg_catalog.format('%s: the message names %s (%s)', x.what, array_to_string(x.fragments, ', '), e.message));
        RETURN NEXT ok(COALESCE(e.hint <> '', false), pg_catalog.format('%s: the error carries a hint', x.what));
    END LOOP;
END
$$;
SET LOCAL ROLE app_a;
SELECT fx.checked_errors('app_a');
RESET ROLE;
SET LOCAL ROLE nobody;
SELECT fx.checked_errors('nobody');
RESET ROLE;
SET LOCAL ROLE admin;
SELECT fx.checked_errors('admin');
RESET ROLE;

-- No oracle (2 + 11 + 12 + 2): another tenant's simulation fails exactly like an unknown one
-- (code, message, hint), and so do an ungranted existing tenant and an unknown one, and
-- another tenant's node and an unknown one, for every API function.
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
SELECT is((SELECT (e.code, replace(e.message, fx.sim_b()::text, '?'), e.hint)::text
             FROM fx.error(fx.sql(c.call, fx.tenant_a(), fx.sim_b())) AS e),
          (SELECT (e.code, replace(e.message, fx.unknown()::text, '?'), e.hint)::text
             FROM fx.error(fx.sql(c.call, fx.tenant_a(), fx.unknown())) AS e),
          c.fn || ': another tenant''s simulation fails exactly like an unknown one')
  FROM fx.calls AS c WHERE c.fn <> 'upsert_simulation' ORDER BY c.ord;
SELECT is((SELECT (e.code, replace(e.message, fx.tenant_b()::text, '?'), e.hint)::text
             FROM fx.error(fx.sql(c.call, fx.tenant_b(), fx.sim_b())) AS e),
          (SELECT (e.code, replace(e.message, fx.unknown()::text, '?'), e.hint)::text
             FROM fx.error(fx.sql(c.call, fx.unknown(), fx.sim_b())) AS e),
          c.fn || ': an existing ungranted tenant fails exactly like an unknown one')
  FROM fx.calls AS c ORDER BY c.ord;
SELECT is((SELECT (e.code, replace(e.message, 'b1', '?'), e.hint)::text
             FROM fx.error(pg_catalog.format('SELECT * FROM memory.%I(fx.tenant_a(), fx.sim_a(), %L)', f, 'b1')) AS e),
          (SELECT (e.code, replace(e.message, 'zz', '?'), e.hint)::text
             FROM fx.error(pg_catalog.format('SELECT * FROM memory.%I(fx.tenant_a(), fx.sim_a(), %L)', f, 'zz')) AS e),
          f || ': another tenant''s node fails exactly like an unknown one')
  FROM unnest(ARRAY['get_node', 'neighbors']) AS f;
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
