-- 011_stored_fields: what the writes store, field by field, and what counts as a change.
-- Every field of every kind is stored as given and absent ones as their defaults; a change
-- to any one field is one update of that row only (updated_at moves, created_at stays); an
-- item replaces the stored row whole; counts stay right when a row changes several times
-- in one transaction; upsert_simulation merges metadata key by key; an edge cannot reach a
-- node of another simulation. The plain reads: nodes_by_type's order and filter, an empty
-- simulation's stats.
BEGIN;
SELECT plan(58);
\ir _fixtures.psql

CREATE FUNCTION fx.sim_other() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000f1'::uuid $$;
CREATE FUNCTION fx.sim_run() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000f2'::uuid $$;
CREATE FUNCTION fx.sim_bare() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000f3'::uuid $$;

CREATE FUNCTION fx.nodes() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_array(
        jsonb_build_object('id', 'alice', 'name', 'Alice', 'type', 'Person', 'labels', jsonb_build_array('Entity', 'Person'),
                           'summary', 'a student', 'attributes', '{"age": 20, "tags": ["x"]}'::jsonb, 'embedding', fx.emb(1)),
        jsonb_build_object('id', 'bob', 'name', 'Bob', 'type', 'Person', 'embedding', fx.emb(2), 'embedding_model', 'sentence-transformers/all-MiniLM-L6-v2'),
        jsonb_build_object('id', 'acme', 'name', 'ACME', 'type', 'Organization', 'attributes', '{}'::jsonb))
$$;
CREATE FUNCTION fx.edges() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_array(
        jsonb_build_object('id', 'e1', 'type', 'KNOWS', 'source_id', 'alice', 'target_id', 'bob', 'fact', 'Alice knows Bob',
                           'attributes', '{"since": 2020}'::jsonb, 'valid_at', '2024-01-01T00:00:00Z', 'invalid_at', NULL,
                           'embedding', fx.emb(3)),
        jsonb_build_object('id', 'e2', 'type', 'WORKS_AT', 'source_id', 'bob', 'target_id', 'acme'))
$$;
CREATE FUNCTION fx.episodes() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_array(
        jsonb_build_object('id', 'ep1', 'agent_id', 1, 'agent_name', 'alice', 'platform', 'twitter', 'round', 1,
                           'action_type', 'CREATE_POST', 'content', 'hello', 'metadata', '{"likes": 3}'::jsonb,
                           'occurred_at', '2025-03-01T10:00:00+00:00', 'embedding', fx.emb(4)),
        jsonb_build_object('id', 'ep2', 'agent_id', 2, 'agent_name', 'bob', 'platform', 'reddit', 'round', 4,
                           'action_type', 'LIKE_POST', 'occurred_at', '2025-03-01T12:30:00+00:00'),
        jsonb_build_object('id', 'ep3', 'agent_id', 1, 'platform', 'twitter', 'round', 2, 'action_type', 'DO_NOTHING'))
$$;
CREATE FUNCTION fx.profiles() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT '[{"agent_id": 1, "platform": "twitter", "name": "Alice", "username": "alice01", "bio": "bio",
              "persona": "curious", "attributes": {"followers": 10}},
             {"agent_id": 1, "platform": "reddit", "name": "Alice R"},
             {"agent_id": 2, "platform": "twitter"}]'::jsonb
$$;
-- Backdate every row of a simulation (superuser), so that a write in this transaction shows
-- in updated_at (now() is the transaction's start time).
CREATE FUNCTION fx.backdate(p_simulation_id uuid) RETURNS void LANGUAGE sql SECURITY DEFINER AS $$
    UPDATE memory.simulations SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.nodes SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.edges SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.episodes SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.profiles SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
$$;
-- The key of each row of a table of sim_a whose updated_at moved since the backdate, and
-- whether every such row kept its created_at (superuser).
CREATE FUNCTION fx.touched(p_table text, OUT ids text[], OUT created_kept boolean) LANGUAGE plpgsql SECURITY DEFINER AS $$
BEGIN
    EXECUTE format('SELECT coalesce(array_agg(%1$s ORDER BY %1$s), ''{}''), coalesce(bool_and(created_at = ''2000-01-01''), true)
                      FROM memory.%2$I WHERE tenant_id = $1 AND simulation_id = $2 AND updated_at > ''2000-01-01''',
                   CASE p_table WHEN 'nodes' THEN 'node_id' WHEN 'edges' THEN 'edge_id'
                                WHEN 'episodes' THEN 'episode_id' ELSE 'platform || '':'' || agent_id' END, p_table)
       INTO ids, created_kept USING fx.tenant_a(), fx.sim_a();
END
$$;
-- Write the base batch of a kind, backdate, write it again with one change: the counts, and
-- the rows that moved (3 tests).
CREATE FUNCTION fx.one_change(p_fn text, p_base jsonb, p_changed jsonb, p_table text, p_id text, p_what text)
RETURNS SETOF text LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
DECLARE
    v_counts text;
    v_touched record;
BEGIN
    EXECUTE format('SELECT * FROM memory.%I(%L, %L, %L)', p_fn, fx.tenant_a(), fx.sim_a(), p_base);
    PERFORM fx.backdate(fx.sim_a());
    EXECUTE format('SELECT inserted || '','' || updated || '','' || unchanged FROM memory.%I(%L, %L, %L)', p_fn, fx.tenant_a(), fx.sim_a(), p_changed)
       INTO v_counts;
    v_touched := fx.touched(p_table);
    RETURN NEXT is(v_counts, format('0,1,%s', jsonb_array_length(p_base) - 1), p_what || ': 1 updated, the rest unchanged');
    RETURN NEXT is(v_touched.ids, ARRAY[p_id], p_what || ': only that row''s updated_at moved');
    RETURN NEXT ok(v_touched.created_kept, p_what || ': its created_at stayed');
END
$$;

SET LOCAL ROLE app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), fx.nodes() || '[{"id": "x", "name": "X"}]'::jsonb);
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), fx.edges());
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), fx.episodes());
    PERFORM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), fx.profiles());
END
$$;

-- Every field stored (6 + 5 as the superuser)
SELECT results_eq($$SELECT embedding_model FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'bob')$$, ARRAY['sentence-transformers/all-MiniLM-L6-v2'],
                  'an item''s own embedding_model is stored (it must be the simulation''s: 030_models)');
SELECT results_eq($$SELECT type, labels, summary, attributes, embedding_model FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'x')$$,
                  $$VALUES ('Entity', '{}'::text[], NULL::text, '{}'::jsonb, NULL::text)$$,
                  'a node without type is an Entity; the other absent fields are their defaults');
SELECT ok((SELECT created_at <= updated_at FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'alice')),
          'get_node returns created_at and updated_at, in that order of time');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), '[]')$$,
                  $$VALUES (0, 0, 0)$$, 'upsert_episodes with an empty batch: all zero');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), '[]')$$,
                  $$VALUES (0, 0, 0)$$, 'upsert_profiles with an empty batch: all zero');
SELECT is(fx.stored('episodes', fx.tenant_a(), fx.sim_a()) + fx.stored('profiles', fx.tenant_a(), fx.sim_a()), 6::bigint,
          'the empty batches changed no row count');
RESET ROLE;
SELECT ok((SELECT embedding = fx.vec(1) FROM memory.nodes WHERE tenant_id = fx.tenant_a() AND node_id = 'alice'),
          'a node''s embedding is stored exactly');
SELECT results_eq(
    $$SELECT type, source_id, target_id, fact, attributes, valid_at, invalid_at, embedding_model, embedding = fx.vec(3)
        FROM memory.edges WHERE tenant_id = fx.tenant_a() ORDER BY edge_id$$,
    $$VALUES ('KNOWS', 'alice', 'bob', 'Alice knows Bob', '{"since": 2020}'::jsonb, '2024-01-01T00:00:00Z'::timestamptz,
              NULL::timestamptz, 'sentence-transformers/all-MiniLM-L6-v2', true),
             ('WORKS_AT', 'bob', 'acme', NULL, '{}'::jsonb, NULL, NULL, NULL, NULL)$$,
    'every field of an edge is stored as given, absent ones as their defaults');
SELECT results_eq(
    $$SELECT episode_id, agent_id, agent_name, platform, round, action_type, content, metadata, occurred_at, embedding_model
        FROM memory.episodes WHERE tenant_id = fx.tenant_a() ORDER BY episode_id$$,
    $$VALUES ('ep1', 1, 'alice', 'twitter', 1, 'CREATE_POST', 'hello', '{"likes": 3}'::jsonb, '2025-03-01T10:00:00Z'::timestamptz,
              'sentence-transformers/all-MiniLM-L6-v2'),
             ('ep2', 2, 'bob', 'reddit', 4, 'LIKE_POST', NULL, '{}'::jsonb, '2025-03-01T12:30:00Z'::timestamptz, NULL),
             ('ep3', 1, NULL, 'twitter', 2, 'DO_NOTHING', NULL, '{}'::jsonb, NULL, NULL)$$,
    'every field of an episode is stored as given, absent ones as their defaults');
SELECT ok((SELECT embedding = fx.vec(4) FROM memory.episodes WHERE tenant_id = fx.tenant_a() AND episode_id = 'ep1'),
          'an episode''s embedding is stored exactly');
SELECT results_eq(
    $$SELECT platform, agent_id, name, username, bio, persona, attributes FROM memory.profiles
       WHERE tenant_id = fx.tenant_a() ORDER BY platform, agent_id$$,
    $$VALUES ('reddit', 1, 'Alice R', NULL, NULL, NULL, '{}'::jsonb),
             ('twitter', 1, 'Alice', 'alice01', 'bio', 'curious', '{"followers": 10}'::jsonb),
             ('twitter', 2, NULL, NULL, NULL, NULL, '{}'::jsonb)$$,
    'every field of a profile is stored as given, absent ones as their defaults');

-- One changed field is one update of that row (9 x 3; a vector's model changes by a re-embed only:
-- an upsert of another model's vectors is refused, 030_models)
SET LOCAL ROLE app_a;
SELECT fx.one_change('upsert_nodes', fx.nodes(), jsonb_set(fx.nodes(), '{0,summary}', '"a teacher"'), 'nodes', 'alice', 'a node''s summary changed');
SELECT fx.one_change('upsert_nodes', fx.nodes(), jsonb_set(fx.nodes(), '{0,embedding}', fx.emb(99)), 'nodes', 'alice', 'a node''s embedding changed');
SELECT fx.one_change('upsert_nodes', fx.nodes(), jsonb_set(fx.nodes(), '{0,labels}', '["Person", "Entity"]'), 'nodes', 'alice', 'a node''s labels reordered');
SELECT fx.one_change('upsert_nodes', fx.nodes(), jsonb_set(fx.nodes(), '{2,attributes}', '{"k": 1}'), 'nodes', 'acme', 'a node''s attributes changed');
SELECT fx.one_change('upsert_edges', fx.edges(), jsonb_set(fx.edges(), '{0,target_id}', '"acme"'), 'edges', 'e1', 'an edge''s target changed');
SELECT fx.one_change('upsert_edges', fx.edges(), jsonb_set(fx.edges(), '{1,invalid_at}', '"2025-01-01T00:00:00Z"'), 'edges', 'e2', 'an edge''s invalid_at set');
SELECT fx.one_change('upsert_episodes', fx.episodes(), jsonb_set(fx.episodes(), '{1,round}', '5'), 'episodes', 'ep2', 'an episode''s round changed');
SELECT fx.one_change('upsert_episodes', fx.episodes(), jsonb_set(fx.episodes(), '{0,metadata}', '{"likes": 4}'), 'episodes', 'ep1', 'an episode''s metadata changed');
SELECT fx.one_change('upsert_profiles', fx.profiles(), jsonb_set(fx.profiles(), '{2,bio}', '"new bio"'), 'profiles', 'twitter:2', 'a profile''s bio changed');

-- An item replaces the stored row whole (2)
DO $$ BEGIN PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), fx.nodes()); END $$;
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "alice", "name": "Alice"}]')$$,
                  $$VALUES (0, 1, 0)$$, 'alice written again with only id and name: 1 updated');
SELECT results_eq($$SELECT type, labels, summary, attributes, embedding_model FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'alice')$$,
                  $$VALUES ('Entity', '{}'::text[], NULL::text, '{}'::jsonb, NULL::text)$$,
                  'the fields left out are reset to their defaults, not kept');

-- Counts when a row changes several times in one transaction (4)
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n", "name": "one"}]')$$,
                  $$VALUES (1, 0, 0)$$, 'in one transaction: a new node is inserted');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n", "name": "two"}]')$$,
                  $$VALUES (0, 1, 0)$$, 'then renamed: updated');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n", "name": "two"}]')$$,
                  $$VALUES (0, 0, 1)$$, 'then the same again: unchanged');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n", "name": "one"}]')$$,
                  $$VALUES (0, 1, 0)$$, 'then back to the first name: updated');

-- An edge to a node of another simulation of the tenant is dangling (2)
DO $$
BEGIN
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_other(), 'other');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_other(), '[{"id": "o1", "name": "o1"}, {"id": "o2", "name": "o2"}]');
END
$$;
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "oo", "type": "T", "source_id": "o1", "target_id": "o2"}]')$$,
                 '23503', NULL, 'an edge between nodes of another simulation: 23503');
SELECT lives_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_other(), '[{"id": "oo", "type": "T", "source_id": "o1", "target_id": "o2"}]')$$,
                'control: the same edge in its own simulation is written');

-- upsert_simulation (7)
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_run(), 'run', '{"rounds": 8, "platforms": ["twitter"]}')$$,
                'upsert_simulation of a new simulation with name and metadata');
SELECT results_eq($$SELECT name, metadata FROM memory.simulation_stats(fx.tenant_a(), fx.sim_run())$$,
                  $$VALUES ('run', '{"rounds": 8, "platforms": ["twitter"]}'::jsonb)$$, 'name and metadata are stored');
DO $$ BEGIN PERFORM fx.backdate(fx.sim_run()); PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_run(), 'run', '{"rounds": 8}'); END $$;
RESET ROLE;
SELECT is((SELECT updated_at FROM memory.simulations WHERE simulation_id = fx.sim_run()), '2000-01-01'::timestamptz,
          'the same name and a metadata key of the same value change nothing, not even updated_at');
SET LOCAL ROLE app_a;
DO $$ BEGIN PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_run(), NULL, '{"rounds": 9, "seed": 1}'); END $$;
SELECT results_eq($$SELECT name, metadata FROM memory.simulation_stats(fx.tenant_a(), fx.sim_run())$$,
                  $$VALUES ('run', '{"rounds": 9, "seed": 1, "platforms": ["twitter"]}'::jsonb)$$,
                  'a NULL name keeps the name; metadata is merged key by key, a given key overwritten');
RESET ROLE;
SELECT results_eq($$SELECT created_at, updated_at > '2000-01-01' FROM memory.simulations WHERE simulation_id = fx.sim_run()$$,
                  $$VALUES ('2000-01-01'::timestamptz, true)$$, 'the change moved updated_at and kept created_at');
SET LOCAL ROLE app_a;
DO $$ BEGIN PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_run(), 'renamed', NULL); END $$;
SELECT results_eq($$SELECT name, metadata FROM memory.simulation_stats(fx.tenant_a(), fx.sim_run())$$,
                  $$VALUES ('renamed', '{"rounds": 9, "seed": 1, "platforms": ["twitter"]}'::jsonb)$$,
                  'a new name with NULL metadata renames and keeps the metadata');
DO $$ BEGIN PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_bare()); END $$;
SELECT results_eq($$SELECT name, metadata FROM memory.simulation_stats(fx.tenant_a(), fx.sim_bare())$$,
                  $$VALUES (NULL::text, '{}'::jsonb)$$, 'a simulation made without name or metadata has none');

-- An empty simulation's stats (1)
SELECT results_eq(
    $$SELECT name, metadata, nodes::int, edges::int, episodes::int, profiles::int, node_types, edge_types, platforms,
             agents::int, rounds, first_at, last_at FROM memory.simulation_stats(fx.tenant_a(), fx.sim_bare())$$,
    $$VALUES (NULL::text, '{}'::jsonb, 0, 0, 0, 0, '{}'::jsonb, '{}'::jsonb, '{}'::jsonb, 0, NULL::integer, NULL::timestamptz, NULL::timestamptz)$$,
    'simulation_stats of an empty simulation: zeros, empty objects, no rounds and no time span');

-- nodes_by_type: order, filter, columns (4)
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_bare(),
        '[{"id": "id0", "name": "zed", "type": "Person"}, {"id": "id2", "name": "amy", "type": "Person"},
          {"id": "id1", "name": "amy", "type": "Person", "labels": ["L"], "summary": "s", "attributes": {"a": 1}},
          {"id": "id3", "name": "mid", "type": "Person"}, {"id": "id4", "name": "corp", "type": "Organization"}]');
END
$$;
SELECT results_eq($$SELECT node_id, name, type, labels, summary, attributes FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bare(), 'Person')$$,
                  $$VALUES ('id1', 'amy', 'Person', ARRAY['L'], 's', '{"a": 1}'::jsonb), ('id2', 'amy', 'Person', '{}', NULL, '{}'),
                           ('id3', 'mid', 'Person', '{}', NULL, '{}'), ('id0', 'zed', 'Person', '{}', NULL, '{}')$$,
                  'nodes_by_type: one type, by name, equal names by id, with labels, summary and attributes');
SELECT results_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bare(), NULL)$$,
                  ARRAY['id4', 'id1', 'id2', 'id3', 'id0'], 'nodes_by_type with a NULL type: every node, by name');
SELECT is_empty($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bare(), 'person')$$,
                'nodes_by_type matches the type exactly: person is not Person');
SELECT results_eq($$SELECT node_id FROM memory.get_node(fx.tenant_a(), fx.sim_bare(), 'id1')$$, ARRAY['id1'],
                  'control: get_node finds the node by its exact id');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
