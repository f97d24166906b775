-- 007_upserts: what the writes report and what they leave behind (first write, replay,
-- changed items, dangling edges, delete_simulation, simulation_stats), and the clamps and
-- ordering of the reads (nodes_by_type limit, search top_k, similarity best first).
BEGIN;
SELECT plan(78);
\ir _fixtures.psql

CREATE FUNCTION fx.sim_3() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000d3'::uuid $$;
CREATE FUNCTION fx.sim_bulk() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000d4'::uuid $$;
CREATE FUNCTION fx.sim_doomed() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000d5'::uuid $$;

-- The node batch of the first write, and the same batch with node n2 renamed.
CREATE FUNCTION fx.nodes(p_n2_name text DEFAULT 'two') RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_array(
        jsonb_build_object('id', 'n1', 'name', 'one', 'type', 'Person', 'labels', jsonb_build_array('Entity', 'Person'),
                           'summary', 'the first', 'attributes', jsonb_build_object('age', 41), 'embedding', fx.emb(1)),
        jsonb_build_object('id', 'n2', 'name', p_n2_name, 'type', 'Person', 'embedding', fx.emb(2)),
        jsonb_build_object('id', 'n3', 'name', 'three', 'type', 'Org'))
$$;
CREATE FUNCTION fx.edges() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_array(
        jsonb_build_object('id', 'e1', 'type', 'KNOWS', 'source_id', 'n1', 'target_id', 'n2', 'fact', 'one knows two',
                           'valid_at', '2024-05-01T10:00:00Z', 'embedding', fx.emb(3)),
        jsonb_build_object('id', 'e2', 'type', 'WORKS_AT', 'source_id', 'n2', 'target_id', 'n3', 'fact', 'two works at three'),
        jsonb_build_object('id', 'e3', 'type', 'KNOWS', 'source_id', 'n1', 'target_id', 'ghost', 'fact', 'dangling'))
$$;
CREATE FUNCTION fx.episodes() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_array(
        jsonb_build_object('id', 'p1', 'agent_id', 1, 'agent_name', 'ann', 'platform', 'twitter', 'round', 1,
                           'action_type', 'CREATE_POST', 'content', 'hello', 'metadata', jsonb_build_object('likes', 2),
                           'occurred_at', '2024-05-01T10:00:00Z', 'embedding', fx.emb(1)),
        jsonb_build_object('id', 'p2', 'agent_id', 2, 'agent_name', 'bob', 'platform', 'twitter', 'round', 2,
                           'action_type', 'LIKE_POST', 'occurred_at', '2024-05-01T11:00:00Z'),
        jsonb_build_object('id', 'p3', 'agent_id', 1, 'agent_name', 'ann', 'platform', 'reddit', 'round', 3,
                           'action_type', 'CREATE_COMMENT', 'content', 'a comment', 'occurred_at', '2024-05-01T12:30:00Z'))
$$;
CREATE FUNCTION fx.profiles() RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT '[{"agent_id": 1, "platform": "twitter", "name": "Ann", "username": "ann", "bio": "b", "persona": "p"},
             {"agent_id": 2, "platform": "twitter", "name": "Bob"}]'::jsonb
$$;
-- Backdate every row of a simulation, as the superuser, so that a write in this transaction
-- shows in updated_at (now() is the transaction's start time).
CREATE FUNCTION fx.backdate(p_simulation_id uuid) RETURNS void LANGUAGE sql SECURITY DEFINER AS $$
    UPDATE memory.simulations SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.nodes SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.edges SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.episodes SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
    UPDATE memory.profiles SET created_at = '2000-01-01', updated_at = '2000-01-01' WHERE simulation_id = p_simulation_id;
$$;
-- Rows of a table of sim_a whose updated_at moved since the backdate (superuser).
CREATE FUNCTION fx.touched(p_table text) RETURNS text[] LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    v_ids text[];
BEGIN
    EXECUTE format('SELECT coalesce(array_agg(%I ORDER BY %I), ''{}'') FROM memory.%I
                     WHERE tenant_id = $1 AND simulation_id = $2 AND updated_at > ''2000-01-01''',
                   CASE p_table WHEN 'nodes' THEN 'node_id' WHEN 'edges' THEN 'edge_id'
                                WHEN 'episodes' THEN 'episode_id' ELSE 'agent_id' END,
                   CASE p_table WHEN 'nodes' THEN 'node_id' WHEN 'edges' THEN 'edge_id'
                                WHEN 'episodes' THEN 'episode_id' ELSE 'agent_id' END,
                   p_table)
       INTO v_ids USING fx.tenant_a(), fx.sim_a();
    RETURN v_ids;
END
$$;

SET LOCAL ROLE app_a;

-- Nodes (10)
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), fx.nodes())$$,
                  $$VALUES (3, 0, 0)$$, 'upsert_nodes, first write: 3 inserted');
SELECT results_eq($$SELECT node_id, name, type, labels, summary, attributes, embedding_model FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'n1')$$,
                  $$VALUES ('n1', 'one', 'Person', ARRAY['Entity', 'Person'], 'the first', '{"age": 41}'::jsonb,
                            'sentence-transformers/all-MiniLM-L6-v2')$$,
                  'get_node returns every field written, and the default embedding model');
SELECT results_eq($$SELECT type, labels, summary, attributes, embedding_model FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'n3')$$,
                  $$VALUES ('Org', '{}'::text[], NULL::text, '{}'::jsonb, NULL::text)$$,
                  'absent optional fields are stored as their defaults');
DO $$ BEGIN PERFORM fx.backdate(fx.sim_a()); END $$;
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), fx.nodes())$$,
                  $$VALUES (0, 0, 3)$$, 'upsert_nodes, replay: 3 unchanged');
SELECT is(fx.touched('nodes'), '{}'::text[], 'upsert_nodes, replay: no updated_at moved');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), fx.nodes('two, renamed'))$$,
                  $$VALUES (0, 1, 2)$$, 'upsert_nodes with one item changed: 1 updated, 2 unchanged');
SELECT is(fx.touched('nodes'), ARRAY['n2'], 'upsert_nodes with one item changed: only its updated_at moved');
SELECT results_eq($$SELECT name FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'n2')$$, ARRAY['two, renamed'],
                  'the changed item is stored');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
                       jsonb_build_array(jsonb_build_object('id', 'n4', 'name', 'four'),
                                         jsonb_build_object('id', 'n1', 'name', 'one', 'type', 'Person', 'labels', jsonb_build_array('Entity', 'Person'),
                                                            'summary', 'the first', 'attributes', jsonb_build_object('age', 41), 'embedding', fx.emb(5)),
                                         jsonb_build_object('id', 'n3', 'name', 'three', 'type', 'Org')))$$,
                  $$VALUES (1, 1, 1)$$, 'a mixed batch (new, new embedding, same): 1 inserted, 1 updated, 1 unchanged');
RESET ROLE;
SELECT is((SELECT created_at FROM memory.nodes WHERE tenant_id = fx.tenant_a() AND node_id = 'n2'), '2000-01-01'::timestamptz,
          'an update keeps created_at');
SET LOCAL ROLE app_a;

-- Empty batches (2)
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[]')$$,
                  $$VALUES (0, 0, 0)$$, 'upsert_nodes with an empty batch: all zero');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int, skipped::int FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[]')$$,
                  $$VALUES (0, 0, 0, 0)$$, 'upsert_edges with an empty batch: all zero');

-- Edges (8)
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), fx.edges())$$, '23503', NULL,
                 'upsert_edges with a dangling edge and no skip: 23503');
SELECT is(fx.stored('edges', fx.tenant_a(), fx.sim_a()), 0::bigint, 'the refused edge batch wrote nothing');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int, skipped::int FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), fx.edges(), true)$$,
                  $$VALUES (2, 0, 0, 1)$$, 'upsert_edges with p_skip_dangling: 2 inserted, 1 skipped');
SELECT is(fx.stored('edges', fx.tenant_a(), fx.sim_a()), 2::bigint, 'the skipped edge is not stored');
DO $$ BEGIN PERFORM fx.backdate(fx.sim_a()); END $$;
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int, skipped::int FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), fx.edges(), true)$$,
                  $$VALUES (0, 0, 2, 1)$$, 'upsert_edges replay: 2 unchanged, 1 skipped again');
SELECT is(fx.touched('edges'), '{}'::text[], 'upsert_edges replay: no updated_at moved');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int, skipped::int FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
                       '[{"id": "e2", "type": "WORKS_AT", "source_id": "n2", "target_id": "n3", "fact": "two left three"}]')$$,
                  $$VALUES (0, 1, 0, 0)$$, 'upsert_edges with a changed fact: 1 updated');
SELECT is(fx.touched('edges'), ARRAY['e2'], 'upsert_edges with a changed fact: only its updated_at moved');

-- Episodes (5)
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), fx.episodes())$$,
                  $$VALUES (3, 0, 0)$$, 'upsert_episodes, first write: 3 inserted');
DO $$ BEGIN PERFORM fx.backdate(fx.sim_a()); END $$;
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), fx.episodes())$$,
                  $$VALUES (0, 0, 3)$$, 'upsert_episodes, replay: 3 unchanged');
SELECT is(fx.touched('episodes'), '{}'::text[], 'upsert_episodes, replay: no updated_at moved');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
                       jsonb_set(fx.episodes(), '{2,content}', '"an edited comment"'))$$,
                  $$VALUES (0, 1, 2)$$, 'upsert_episodes with one content changed: 1 updated');
SELECT is(fx.touched('episodes'), ARRAY['p3'], 'upsert_episodes with one content changed: only its updated_at moved');

-- Profiles (5)
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), fx.profiles())$$,
                  $$VALUES (2, 0, 0)$$, 'upsert_profiles, first write: 2 inserted');
DO $$ BEGIN PERFORM fx.backdate(fx.sim_a()); END $$;
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), fx.profiles())$$,
                  $$VALUES (0, 0, 2)$$, 'upsert_profiles, replay: 2 unchanged');
SELECT is(fx.touched('profiles'), '{}'::text[], 'upsert_profiles, replay: no updated_at moved');
SELECT results_eq($$SELECT inserted::int, updated::int, unchanged::int FROM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(),
                       '[{"agent_id": 2, "platform": "twitter", "name": "Bob", "bio": "new bio"},
                         {"agent_id": 2, "platform": "reddit", "name": "Bob"}]')$$,
                  $$VALUES (1, 1, 0)$$, 'upsert_profiles: the same agent on another platform is a new profile');
SELECT is(fx.touched('profiles'), ARRAY['2', '2'], 'upsert_profiles: only agent 2''s two rows moved');

-- Simulation (5)
DO $$ BEGIN PERFORM fx.backdate(fx.sim_a()); END $$;
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'sim-a')$$, 'upsert_simulation replay runs');
RESET ROLE;
SELECT is((SELECT updated_at FROM memory.simulations WHERE simulation_id = fx.sim_a()), '2000-01-01'::timestamptz,
          'upsert_simulation replay: updated_at unchanged');
SET LOCAL ROLE app_a;
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), NULL, '{"rounds": 8}')$$,
                'upsert_simulation with metadata and no name');
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), NULL, '{"seed": 1}')$$,
                'upsert_simulation with more metadata');
SELECT results_eq($$SELECT name, metadata FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('sim-a', '{"rounds": 8, "seed": 1}'::jsonb)$$,
                  'a NULL name keeps the stored name; metadata is merged');

-- simulation_stats (2)
SELECT results_eq(
    $$SELECT nodes::int, edges::int, episodes::int, profiles::int, node_types, edge_types, platforms, agents::int, rounds
        FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
    $$VALUES (4, 2, 3, 3, '{"Person": 2, "Org": 1, "Entity": 1}'::jsonb, '{"KNOWS": 1, "WORKS_AT": 1}'::jsonb,
              '{"twitter": 2, "reddit": 1}'::jsonb, 2, 3)$$,
    'simulation_stats counts rows, types, platforms, agents and rounds');
SELECT results_eq($$SELECT first_at, last_at FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('2024-05-01T10:00:00Z'::timestamptz, '2024-05-01T12:30:00Z'::timestamptz)$$,
                  'simulation_stats gives the time span of the actions');

-- delete_simulation (8)
DO $$
BEGIN
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_doomed(), 'doomed');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_doomed(), fx.nodes());
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_doomed(), fx.edges(), true);
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_doomed(), fx.episodes());
    PERFORM memory.upsert_profiles(fx.tenant_a(), fx.sim_doomed(), fx.profiles());
END
$$;
SELECT results_eq($$SELECT nodes::int, edges::int, episodes::int, profiles::int FROM memory.delete_simulation(fx.tenant_a(), fx.sim_doomed())$$,
                  $$VALUES (3, 2, 3, 2)$$, 'delete_simulation reports what it deleted');
SELECT is(fx.stored('nodes', fx.tenant_a(), fx.sim_doomed()) + fx.stored('edges', fx.tenant_a(), fx.sim_doomed())
          + fx.stored('episodes', fx.tenant_a(), fx.sim_doomed()) + fx.stored('profiles', fx.tenant_a(), fx.sim_doomed()),
          0::bigint, 'delete_simulation leaves no node, edge, episode or profile of the simulation');
SELECT is(fx.stored('simulations', fx.tenant_a(), fx.sim_doomed()), 0::bigint, 'delete_simulation removes the simulation');
SELECT throws_ok($$SELECT * FROM memory.simulation_stats(fx.tenant_a(), fx.sim_doomed())$$, 'P0002', NULL,
                 'a deleted simulation is unknown');
SELECT throws_ok($$SELECT * FROM memory.delete_simulation(fx.tenant_a(), fx.sim_doomed())$$, 'P0002', NULL,
                 'deleting it again: P0002');
SELECT results_eq($$SELECT nodes::int, edges::int, episodes::int, profiles::int FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES (4, 2, 3, 3)$$, 'the other simulation of the tenant is untouched');
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_doomed(), 'again')$$, 'a deleted simulation id can be used again');
SELECT results_eq($$SELECT nodes::int, edges::int, episodes::int, profiles::int FROM memory.delete_simulation(fx.tenant_a(), fx.sim_doomed())$$,
                  $$VALUES (0, 0, 0, 0)$$, 'deleting an empty simulation reports zeros');

-- nodes_by_type: order, type filter and limit clamp (13)
DO $$
BEGIN
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_bulk(), 'bulk');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_bulk(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('b%s', i), 'name', format('bulk %s', lpad(i::text, 4, '0')), 'type', 'Bulk'))
           FROM generate_series(1, 1005) AS i));
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_bulk(), '[{"id": "o1", "name": "zed", "type": "Other"}, {"id": "o2", "name": "amy", "type": "Other"}]');
END
$$;
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', 0)), 1::bigint, 'nodes_by_type limit 0 behaves as 1');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', -7)), 1::bigint, 'nodes_by_type limit -7 behaves as 1');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', 5000)), 1000::bigint, 'nodes_by_type limit 5000 behaves as 1000');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', 1000)), 1000::bigint, 'nodes_by_type limit 1000 returns 1000');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', NULL)), 100::bigint, 'nodes_by_type limit NULL behaves as 100');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk')), 100::bigint, 'nodes_by_type default limit is 100');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', 1)), 1::bigint, 'nodes_by_type limit 1 returns 1');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', -2147483648)), 1::bigint, 'nodes_by_type with the least integer limit returns 1');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', 2147483647)), 1000::bigint, 'nodes_by_type with the largest integer limit returns 1000');
SELECT is((SELECT count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', 999)), 999::bigint, 'nodes_by_type limit 999 returns 999');
SELECT results_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Other')$$, ARRAY['o2', 'o1'],
                  'nodes_by_type: one type, ordered by name');
SELECT results_eq($$SELECT name FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'Bulk', 3)$$,
                  ARRAY['bulk 0001', 'bulk 0002', 'bulk 0003'], 'nodes_by_type: the first of a type by name');
SELECT is_empty($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_bulk(), 'NoSuchType')$$,
                'nodes_by_type of a type no node has: nothing');

-- search_episodes: top_k clamp and ordering (14)
DO $$
BEGIN
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_3(), 'three episodes');
    -- far: like the query only in the background; mid: half query, half another axis; best: the query.
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_3(), jsonb_build_array(
        jsonb_build_object('id', 'far', 'agent_id', 1, 'action_type', 'CREATE_POST', 'embedding', fx.emb(2)),
        jsonb_build_object('id', 'best', 'agent_id', 2, 'action_type', 'CREATE_POST', 'embedding', fx.emb(1)),
        jsonb_build_object('id', 'mid', 'agent_id', 1, 'action_type', 'CREATE_POST',
                           'embedding', (SELECT jsonb_agg(CASE WHEN i IN (1, 2) THEN 1.0 ELSE 0.01 END ORDER BY i)
                                           FROM generate_series(1, 384) AS i))));
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_bulk(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('q%s', i), 'action_type', 'CREATE_POST', 'embedding', fx.emb(i)))
           FROM generate_series(1, 105) AS i)
        || '[{"id": "unembedded", "action_type": "DO_NOTHING", "content": "no embedding"}]'::jsonb);
END
$$;
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1))$$,
                  ARRAY['best', 'mid', 'far'], 'search_episodes: best first');
SELECT ok((SELECT bool_and(s.similarity >= s.next) FROM (SELECT similarity, lead(similarity, 1, -1.0::float8) OVER (ORDER BY ord) AS next
                FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1)) WITH ORDINALITY AS r(episode_id, agent_id, agent_name, platform, round, action_type, content, occurred_at, similarity, ord)) AS s),
          'search_episodes: similarity never increases down the list');
SELECT ok((SELECT abs(similarity - 1) < 1e-6 FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1)) WHERE episode_id = 'best'),
          'search_episodes: the identical vector has similarity 1');
SELECT ok((SELECT abs(similarity - 0.0582 / 1.0383) < 1e-5 FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1)) WHERE episode_id = 'far'),
          'search_episodes: similarity is 1 - cosine distance (0.0582 / 1.0383 for the far one)');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1), 0)), 1::bigint, 'search_episodes top_k 0 behaves as 1');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1), 2)), 2::bigint, 'search_episodes top_k 2 of 3 episodes: 2');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1), NULL)), 3::bigint, 'search_episodes top_k NULL of 3 episodes: 3 (min of 10 and 3)');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1), 500)), 3::bigint, 'search_episodes top_k 500 of 3 episodes: 3');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_3(), fx.vec(1), 10, 1)$$,
                  ARRAY['mid', 'far'], 'search_episodes with p_agent_id: only that agent''s episodes, best first');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_bulk(), fx.vec(1), 0)), 1::bigint, 'search_episodes top_k 0 of 105: 1');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_bulk(), fx.vec(1), NULL)), 10::bigint, 'search_episodes top_k NULL of 105: 10');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_bulk(), fx.vec(1))), 10::bigint, 'search_episodes default top_k of 105: 10');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_bulk(), fx.vec(1), 500)), 100::bigint, 'search_episodes top_k 500 of 105: 100');
SELECT is_empty($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_bulk(), fx.vec(1), 100) WHERE episode_id = 'unembedded'$$,
                'search_episodes never returns an episode without an embedding');

-- search_nodes: ordering, type filter, clamp (6)
SELECT results_eq($$SELECT node_id FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(2))$$,
                  ARRAY['n2', 'n1'], 'search_nodes: best first, nodes without embedding left out');
SELECT ok((SELECT abs(similarity - 1) < 1e-6 FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(2)) WHERE node_id = 'n2'),
          'search_nodes: the identical vector has similarity 1');
SELECT is((SELECT count(*) FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 0)), 1::bigint, 'search_nodes top_k 0 behaves as 1');
SELECT is((SELECT count(*) FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), NULL)), 2::bigint, 'search_nodes top_k NULL: min(10, 2)');
SELECT is_empty($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, 'Org')$$,
                'search_nodes with a type none of the embedded nodes has: nothing');
SELECT results_eq($$SELECT node_id FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, 'Person')$$,
                  ARRAY['n2', 'n1'], 'search_nodes with p_type Person');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
