-- 015_limits: bounded work and echo, and vectors checked as stored (issue 9). Every cap of
-- memory._limit() refused with 54000 (program_limit_exceeded) just over it, the message
-- naming the limit and the value and short, nothing written; accepted at or just under it.
-- A vector that is zero or has no finite length as stored in 4-byte floats (384 components
-- of 1e-46 underflow to the zero vector) refused in batches, staged rows and queries (22023).
-- A refused huge value is quoted in at most about 200 characters.
BEGIN;
SELECT plan(107);
\ir _fixtures.psql

SET LOCAL ROLE app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
        jsonb_build_array(jsonb_build_object('id', 'n1', 'name', 'one', 'embedding', fx.emb(1))));
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
        jsonb_build_array(jsonb_build_object('id', 'e1', 'action_type', 'P', 'content', 'hi', 'embedding', fx.emb(1))));
END
$$;
RESET ROLE;

-- fx.capped(sql, table, limit, value, what): the statement fails with 54000, its message names
-- the limit and the value in at most 300 characters, and the simulation's rows of the table
-- are exactly what they were (3 tests).
CREATE FUNCTION fx.capped(p_sql text, p_table text, p_limit text, p_value text, p_what text)
RETURNS SETOF text LANGUAGE plpgsql VOLATILE SECURITY INVOKER
AS $$
DECLARE
    v_before text := fx.digest(p_table, fx.tenant_a(), fx.sim_a());
    v_error  record;
BEGIN
    SELECT * INTO v_error FROM fx.error(p_sql);
    RETURN NEXT is(v_error.code, '54000', p_what || ': refused with 54000');
    RETURN NEXT ok(COALESCE(strpos(v_error.message, p_limit) > 0 AND strpos(v_error.message, p_value) > 0
                            AND length(v_error.message) <= 300 AND v_error.hint <> '', false),
                   pg_catalog.format('%s: the message names %s and %s, short, with a hint (%s)', p_what, p_limit,
                                     p_value, left(v_error.message, 300)));
    RETURN NEXT is(fx.digest(p_table, fx.tenant_a(), fx.sim_a()), v_before, p_what || ': nothing was written');
END
$$;

-- fx.short_error(sql, code, fragment, what): the statement fails with the code, and its message
-- quotes the fragment of the bad value in at most 300 characters (1 test).
CREATE FUNCTION fx.short_error(p_sql text, p_code text, p_fragment text, p_what text)
RETURNS text LANGUAGE plpgsql VOLATILE SECURITY INVOKER
AS $$
DECLARE
    v_error record;
BEGIN
    SELECT * INTO v_error FROM fx.error(p_sql);
    RETURN ok(COALESCE(v_error.code = p_code AND strpos(v_error.message, p_fragment) > 0
                       AND length(v_error.message) <= 300, false),
              pg_catalog.format('%s: %s, quoting at most 300 characters (%s: %s characters: %s)', p_what, p_code,
                                v_error.code, length(v_error.message), left(v_error.message, 300)));
END
$$;

-- fx.items(n, item): a batch of n copies of an item whose "id" (or "agent_id") is its index.
CREATE FUNCTION fx.items(p_n integer, p_item jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $$ SELECT jsonb_agg(p_item || jsonb_build_object('id', i::text, 'agent_id', i) ORDER BY i)
            FROM generate_series(1, p_n) AS i $$;
-- fx.emb_all(x): a 384-number embedding of x everywhere (jsonb); fx.vec_all(x) as a vector.
CREATE FUNCTION fx.emb_all(p_x numeric) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $$ SELECT to_jsonb(array_fill(p_x, ARRAY[384])) $$;
CREATE FUNCTION fx.vec_all(p_x text) RETURNS public.vector LANGUAGE sql IMMUTABLE
    AS $$ SELECT ('[' || repeat(p_x || ',', 383) || p_x || ']')::public.vector $$;
-- An episodes batch of n items carrying 1,000,000 bytes of content each.
CREATE FUNCTION fx.heavy(p_n integer) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $$ SELECT jsonb_agg(jsonb_build_object('id', i::text, 'action_type', 'P', 'content', repeat('x', 1000000)))
            FROM generate_series(1, p_n) AS i $$;

-- The caps, defined once (6)
SELECT is(memory._limit('batch_rows'), 10000::bigint, 'batch_rows is 10,000 items');
SELECT is(memory._limit('batch_bytes'), (64 * 1024 * 1024)::bigint, 'batch_bytes is 64 MB');
SELECT is(memory._limit('object_bytes'), (1024 * 1024)::bigint, 'object_bytes is 1 MB');
SELECT is(memory._limit('string_bytes'), (1024 * 1024)::bigint, 'string_bytes is 1 MB');
SELECT is(memory._limit('list_elements'), 1000::bigint, 'list_elements is 1,000');
SELECT throws_ok($$SELECT memory._limit('no_such_limit')$$, '22023', NULL, 'an unknown limit is an error, not no limit');

SET LOCAL ROLE app_a;

-- Rows per batch: every kind over (4 x 3), one kind at the cap (2)
SELECT fx.capped(format('SELECT * FROM memory.upsert_nodes(%L, %L, fx.items(10001, %L))', fx.tenant_a(), fx.sim_a(), '{"name": "n"}'),
                 'nodes', 'batch_rows', '10001', 'upsert_nodes with 10,001 items');
SELECT fx.capped(format('SELECT * FROM memory.upsert_edges(%L, %L, fx.items(10001, %L))', fx.tenant_a(), fx.sim_a(), '{"type": "T", "source_id": "n1", "target_id": "n1"}'),
                 'edges', 'batch_rows', '10001', 'upsert_edges with 10,001 items');
SELECT fx.capped(format('SELECT * FROM memory.upsert_episodes(%L, %L, fx.items(10001, %L))', fx.tenant_a(), fx.sim_a(), '{"action_type": "P"}'),
                 'episodes', 'batch_rows', '10001', 'upsert_episodes with 10,001 items');
SELECT fx.capped(format('SELECT * FROM memory.upsert_profiles(%L, %L, fx.items(10001, %L))', fx.tenant_a(), fx.sim_a(), '{"platform": "p"}'),
                 'profiles', 'batch_rows', '10001', 'upsert_profiles with 10,001 items');
SELECT lives_ok(format('SELECT * FROM memory.upsert_profiles(%L, %L, fx.items(10000, %L))', fx.tenant_a(), fx.sim_a(), '{"platform": "p"}'),
                'upsert_profiles with 10,000 items (the cap) is accepted');
SELECT is(fx.stored('profiles', fx.tenant_a(), fx.sim_a()), 10000::bigint, 'and all 10,000 profiles are stored');

-- Bytes per batch (2 premises, 3 over, 1 under)
SELECT ok(pg_column_size(fx.heavy(68)) > memory._limit('batch_bytes'), 'premise: 68 items of 1,000,000 bytes are over 64 MB');
SELECT ok(pg_column_size(fx.heavy(67)) <= memory._limit('batch_bytes'), 'premise: 67 of them are not');
SELECT fx.capped(format('SELECT * FROM memory.upsert_episodes(%L, %L, fx.heavy(68))', fx.tenant_a(), fx.sim_a()),
                 'episodes', 'batch_bytes', pg_column_size(fx.heavy(68))::text, 'an episode batch of 68 MB');
SELECT lives_ok($$SELECT memory._check_batch('p_episodes', fx.heavy(67), k.batch_spec, k.batch_key) FROM memory._kind('episodes') AS k$$,
                'an episode batch of 67 items of 1,000,000 bytes passes the batch checks');

-- String fields: one byte over in every kind, bytes not characters (6 x 3), at the cap (1)
SELECT fx.capped(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''big'', ''name'', repeat(''x'', 1048577))))', fx.tenant_a(), fx.sim_a()),
                 'nodes', 'string_bytes', '1048577', 'a node name of 1 MB + 1 byte');
SELECT fx.capped(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''big'', ''name'', repeat(chr(233), 524289))))', fx.tenant_a(), fx.sim_a()),
                 'nodes', 'string_bytes', '1048578', 'a node name of 524,289 two-byte characters (bytes are counted)');
SELECT fx.capped(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', repeat(''i'', 1048577), ''name'', ''n'')))', fx.tenant_a(), fx.sim_a()),
                 'nodes', 'string_bytes', 'p_nodes[0].id', 'a node id of 1 MB + 1 byte');
SELECT fx.capped(format('SELECT * FROM memory.upsert_edges(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''big'', ''type'', ''T'', ''source_id'', ''n1'', ''target_id'', ''n1'', ''fact'', repeat(''x'', 1048577))))', fx.tenant_a(), fx.sim_a()),
                 'edges', 'string_bytes', 'p_edges[0].fact', 'an edge fact of 1 MB + 1 byte');
SELECT fx.capped(format('SELECT * FROM memory.upsert_episodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''big'', ''action_type'', ''P'', ''content'', repeat(''x'', 1048577))))', fx.tenant_a(), fx.sim_a()),
                 'episodes', 'string_bytes', 'p_episodes[0].content', 'an episode content of 1 MB + 1 byte');
SELECT fx.capped(format('SELECT * FROM memory.upsert_profiles(%L, %L, jsonb_build_array(jsonb_build_object(''agent_id'', 1, ''platform'', ''p'', ''bio'', repeat(''x'', 1048577))))', fx.tenant_a(), fx.sim_a()),
                 'profiles', 'string_bytes', 'p_profiles[0].bio', 'a profile bio of 1 MB + 1 byte');
SELECT lives_ok(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''big'', ''name'', ''n'', ''summary'', repeat(''x'', 1048576))))', fx.tenant_a(), fx.sim_a()),
                'a node summary of exactly 1 MB is accepted');

-- Object fields and arguments: over (5 x 3), under (2)
SELECT fx.capped(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''obj'', ''name'', ''n'', ''attributes'', jsonb_build_object(''k'', repeat(''x'', 1048576)))))', fx.tenant_a(), fx.sim_a()),
                 'nodes', 'object_bytes', 'p_nodes[0].attributes', 'node attributes over 1 MB');
SELECT fx.capped(format('SELECT * FROM memory.upsert_episodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''obj'', ''action_type'', ''P'', ''metadata'', jsonb_build_object(''k'', repeat(''x'', 1048576)))))', fx.tenant_a(), fx.sim_a()),
                 'episodes', 'object_bytes', 'p_episodes[0].metadata', 'episode metadata over 1 MB');
SELECT fx.capped(format('SELECT memory.upsert_simulation(%L, %L, NULL, jsonb_build_object(''k'', repeat(''x'', 1048576)))', fx.tenant_a(), fx.sim_a()),
                 'simulations', 'object_bytes', 'p_metadata', 'simulation metadata over 1 MB');
SELECT fx.capped(format('SELECT memory.upsert_simulation(%L, %L, repeat(''x'', 1048577))', fx.tenant_a(), fx.sim_a()),
                 'simulations', 'string_bytes', 'p_name', 'a simulation name of 1 MB + 1 byte');
SELECT fx.capped(format('SELECT memory.begin_import(%L, %L, jsonb_build_object(''nodes'', repeat(''9'', 1048576)))', fx.tenant_a(), fx.sim_a()),
                 'import_attempts', 'object_bytes', 'p_declared', 'begin_import with p_declared over 1 MB');
SELECT fx.capped(format('SELECT memory.begin_import(%L, %L, NULL, false, jsonb_build_object(''k'', repeat(''x'', 1048576)))', fx.tenant_a(), fx.sim_a()),
                 'import_attempts', 'object_bytes', 'p_metadata', 'begin_import with p_metadata over 1 MB');
SELECT lives_ok(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''obj'', ''name'', ''n'', ''attributes'', jsonb_build_object(''k'', repeat(''x'', 1048000)))))', fx.tenant_a(), fx.sim_a()),
                'node attributes just under 1 MB are accepted');
SELECT lives_ok(format('SELECT memory.upsert_simulation(%L, %L, NULL, jsonb_build_object(''k'', repeat(''x'', 1048000)))', fx.tenant_a(), fx.sim_a()),
                'simulation metadata just under 1 MB is accepted');

-- Lists: p_edge_types and labels over (1 + 2 + 3), at the cap (2)
SELECT throws_ok(format('SELECT * FROM memory.neighbors(%L, %L, ''n1'', 2, array_fill(''T''::text, ARRAY[1001]))', fx.tenant_a(), fx.sim_a()),
                 '54000', NULL, 'neighbors with 1,001 edge types: 54000');
SELECT fx.short_error(format('SELECT * FROM memory.neighbors(%L, %L, ''n1'', 2, array_fill(''T''::text, ARRAY[1001]))', fx.tenant_a(), fx.sim_a()),
                      '54000', 'list_elements', 'neighbors names the limit list_elements');
SELECT fx.short_error(format('SELECT * FROM memory.neighbors(%L, %L, ''n1'', 2, array_fill(''T''::text, ARRAY[1001]))', fx.tenant_a(), fx.sim_a()),
                      '54000', '1001', 'neighbors names the number of edge types');
SELECT lives_ok(format('SELECT * FROM memory.neighbors(%L, %L, ''n1'', 2, array_fill(''T''::text, ARRAY[1000]))', fx.tenant_a(), fx.sim_a()),
                'neighbors with 1,000 edge types is answered');
SELECT fx.capped(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''lab'', ''name'', ''n'', ''labels'', to_jsonb(array_fill(''L''::text, ARRAY[1001])))))', fx.tenant_a(), fx.sim_a()),
                 'nodes', 'list_elements', '1001', 'a node with 1,001 labels');
SELECT lives_ok(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''lab'', ''name'', ''n'', ''labels'', to_jsonb(array_fill(''L''::text, ARRAY[1000])))))', fx.tenant_a(), fx.sim_a()),
                'a node with 1,000 labels is accepted');

-- Staged rows (bulk path): a value over a cap refused by stage_rows with 54000 (3 + 1),
-- a zero vector as stored with 22023 (1), at the caps accepted (1)
RESET ROLE;
CREATE FUNCTION fx.stage(p_sql text) RETURNS SETOF text LANGUAGE plpgsql VOLATILE SECURITY INVOKER
AS $$
BEGIN
    DELETE FROM pg_temp.stage_nodes;
    EXECUTE p_sql;
    RETURN QUERY SELECT pg_catalog.format('SELECT * FROM memory.stage_rows(%L, %L)', fx.tenant_a(), a.attempt_id)
                   FROM memory.import_attempts AS a
                  WHERE a.tenant_id = fx.tenant_a() AND a.simulation_id = fx.sim_a() AND a.state = 'loading';
END
$$;
SET LOCAL ROLE app_a;
SELECT ok(memory.begin_import(fx.tenant_a(), fx.sim_a()) IS NOT NULL, 'an import attempt begins');
DO $$ BEGIN PERFORM memory.open_staging(); END $$;
SELECT fx.short_error((SELECT fx.stage($$INSERT INTO pg_temp.stage_nodes (position, node_id, name, type, summary) VALUES (7, 's1', 'S', 'T', repeat('x', 1048577))$$)),
                      '54000', 'node at position 7: summary exceeds the limit string_bytes: 1048577', 'a staged summary of 1 MB + 1 byte');
SELECT fx.short_error((SELECT fx.stage($$INSERT INTO pg_temp.stage_nodes (position, node_id, name, type, attributes) VALUES (7, 's1', 'S', 'T', jsonb_build_object('k', repeat('x', 1048576)))$$)),
                      '54000', 'attributes exceeds the limit object_bytes', 'staged attributes over 1 MB');
SELECT fx.short_error((SELECT fx.stage($$INSERT INTO pg_temp.stage_nodes (position, node_id, name, type, labels) VALUES (7, 's1', 'S', 'T', array_fill('L'::text, ARRAY[1001]))$$)),
                      '54000', 'labels exceeds the limit list_elements: 1001', 'staged labels over 1,000');
SELECT fx.short_error((SELECT fx.stage($$INSERT INTO pg_temp.stage_nodes (position, node_id, name, type) VALUES (7, repeat('i', 1048577), 'S', 'T')$$)),
                      '54000', 'node_id exceeds the limit string_bytes', 'a staged id of 1 MB + 1 byte');
SELECT fx.short_error((SELECT fx.stage($$INSERT INTO pg_temp.stage_nodes (position, node_id, name, type, embedding) VALUES (7, 's1', 'S', 'T', fx.vec_all('1e-46'))$$)),
                      '22023', 'zero vector', 'a staged embedding of 384 x 1e-46 (the zero vector as stored)');
SELECT lives_ok((SELECT fx.stage($$INSERT INTO pg_temp.stage_nodes (position, node_id, name, type, summary, labels, embedding) VALUES (7, 's1', 'S', 'T', repeat('x', 1048576), array_fill('L'::text, ARRAY[1000]), fx.vec_all('1e-15'))$$)),
                'a staged row at the caps, with a small but comparable vector, is staged');

-- Vectors as stored, in batches: refused (5 x 2), accepted (2)
RESET ROLE;
CREATE FUNCTION fx.vector_refused(p_fn text, p_item jsonb, p_table text, p_what text)
RETURNS SETOF text LANGUAGE plpgsql VOLATILE SECURITY INVOKER
AS $$
DECLARE
    v_before text := fx.digest(p_table, fx.tenant_a(), fx.sim_a());
BEGIN
    RETURN NEXT throws_ok(pg_catalog.format('SELECT * FROM memory.%I(%L, %L, %L)', p_fn, fx.tenant_a(), fx.sim_a(),
                                            jsonb_build_array(p_item)),
                          '22023', NULL, p_fn || ': ' || p_what || ' is refused with 22023');
    RETURN NEXT is(fx.digest(p_table, fx.tenant_a(), fx.sim_a()), v_before, p_fn || ': ' || p_what || ': nothing was written');
END
$$;
SET LOCAL ROLE app_a;
SELECT fx.vector_refused('upsert_nodes', jsonb_build_object('id', 'z', 'name', 'z', 'embedding', fx.emb_all(1e-46)), 'nodes', 'an embedding of 384 x 1e-46 (underflows to zero)');
SELECT fx.vector_refused('upsert_edges', jsonb_build_object('id', 'z', 'type', 'T', 'source_id', 'n1', 'target_id', 'n1', 'embedding', fx.emb_all(1e-46)), 'edges', 'an embedding of 384 x 1e-46');
SELECT fx.vector_refused('upsert_episodes', jsonb_build_object('id', 'z', 'action_type', 'P', 'embedding', fx.emb_all(1e-46)), 'episodes', 'an embedding of 384 x 1e-46');
SELECT fx.vector_refused('upsert_nodes', jsonb_build_object('id', 'z', 'name', 'z', 'embedding', fx.emb_all(1e-30)), 'nodes', 'an embedding of 384 x 1e-30 (its squared length underflows)');
SELECT fx.vector_refused('upsert_nodes', jsonb_build_object('id', 'z', 'name', 'z', 'embedding', fx.emb_all(1e19)), 'nodes', 'an embedding of 384 x 1e19 (its squared length overflows)');
SELECT lives_ok(format('SELECT * FROM memory.upsert_episodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''z'', ''action_type'', ''P'', ''embedding'', (fx.emb_all(1e-46) - 0) || ''[1]''::jsonb)))', fx.tenant_a(), fx.sim_a()),
                'an embedding of 383 x 1e-46 and a 1 (a direction as stored) is accepted');
SELECT lives_ok(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''tiny'', ''name'', ''t'', ''embedding'', fx.emb_all(1e-15))))', fx.tenant_a(), fx.sim_a()),
                'an embedding of 384 x 1e-15 (small, comparable as stored) is accepted');

-- Vectors as stored, in queries: refused (6), the message says why (1), accepted (1)
SELECT throws_ok(format('SELECT * FROM memory.search_nodes(%L, %L, fx.vec_all(''1e-46''))', fx.tenant_a(), fx.sim_a()),
                 '22023', NULL, 'search_nodes with 384 x 1e-46: 22023');
SELECT throws_ok(format('SELECT * FROM memory.search_episodes(%L, %L, fx.vec_all(''1e-46''))', fx.tenant_a(), fx.sim_a()),
                 '22023', NULL, 'search_episodes with 384 x 1e-46: 22023');
SELECT throws_ok(format('SELECT * FROM memory.search_nodes(%L, %L, fx.vec_all(''1e-30''))', fx.tenant_a(), fx.sim_a()),
                 '22023', NULL, 'search_nodes with 384 x 1e-30 (squared length underflows): 22023');
SELECT throws_ok(format('SELECT * FROM memory.search_episodes(%L, %L, fx.vec_all(''1e-30''))', fx.tenant_a(), fx.sim_a()),
                 '22023', NULL, 'search_episodes with 384 x 1e-30: 22023');
SELECT throws_ok(format('SELECT * FROM memory.search_nodes(%L, %L, fx.vec_all(''1e19''))', fx.tenant_a(), fx.sim_a()),
                 '22023', NULL, 'search_nodes with 384 x 1e19 (squared length overflows): 22023');
SELECT throws_ok(format('SELECT * FROM memory.search_episodes(%L, %L, fx.vec_all(''1e19''))', fx.tenant_a(), fx.sim_a()),
                 '22023', NULL, 'search_episodes with 384 x 1e19: 22023');
SELECT fx.short_error(format('SELECT * FROM memory.search_nodes(%L, %L, fx.vec_all(''1e-46''))', fx.tenant_a(), fx.sim_a()),
                      '22023', 'zero vector', 'the refusal of 384 x 1e-46 says it is the zero vector');
SELECT ok((SELECT bool_and(s.similarity = s.similarity) FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec_all('1e-15')) AS s),
          'a query of 384 x 1e-15 is answered, with no NaN similarity');

-- Echo: a refused huge value is quoted in at most about 200 characters (7)
SELECT fx.short_error(format('SELECT * FROM memory.get_node(%L, %L, repeat(''q'', 1000000))', fx.tenant_a(), fx.sim_a()),
                      'P0002', 'qqqq', 'get_node of an unknown 1,000,000-character id');
SELECT fx.short_error(format('SELECT * FROM memory.neighbors(%L, %L, repeat(''q'', 1000000))', fx.tenant_a(), fx.sim_a()),
                      'P0002', 'qqqq', 'neighbors from an unknown 1,000,000-character id');
SELECT fx.short_error(format('SELECT * FROM memory.neighbors(%L, %L, ''n1'', 1, NULL, repeat(''s'', 1000000))', fx.tenant_a(), fx.sim_a()),
                      '22023', 'ssss', 'neighbors with a 1,000,000-character direction');
SELECT fx.short_error(format('SELECT * FROM memory.upsert_nodes(%L, %L, jsonb_build_array(jsonb_build_object(''id'', repeat(''d'', 1000000), ''name'', ''a''), jsonb_build_object(''id'', repeat(''d'', 1000000), ''name'', ''b'')))', fx.tenant_a(), fx.sim_a()),
                      '22023', 'dddd', 'a 1,000,000-character node id twice in a batch');
SELECT fx.short_error(format('SELECT * FROM memory.upsert_edges(%L, %L, jsonb_build_array(jsonb_build_object(''id'', ''e9'', ''type'', ''T'', ''source_id'', repeat(''g'', 1000000), ''target_id'', ''n1'')))', fx.tenant_a(), fx.sim_a()),
                      '23503', 'gggg', 'an edge from an unknown 1,000,000-character node id');
SELECT fx.short_error(format('SELECT memory.begin_import(%L, %L, jsonb_build_object(''nodes'', repeat(''z'', 1000000)))', fx.tenant_a(), fx.sim_a()),
                      '22023', 'zzzz', 'begin_import with a p_declared of 1,000,000 characters');
RESET ROLE;
SET LOCAL ROLE admin;
DO $$ BEGIN PERFORM memory.create_tenant(repeat('t', 2000)); END $$;
SELECT fx.short_error(format('SELECT memory.create_tenant(repeat(''t'', 2000), %L)', fx.unknown()), '23505', 'tttt', 'a 2,000-character tenant name taken');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
