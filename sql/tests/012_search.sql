-- 012_search: search_episodes and search_nodes rank exactly like a brute-force cosine ranking
-- computed here in SQL from the stored arrays (not with pgvector's operators), with and
-- without the agent and type filters, for several top_k; similarity is 1 - cosine distance
-- whatever the vectors' lengths; equal similarities go by id; every column of the row comes
-- back; top_k is clamped to 1..100 (NULL and the default 10); an empty simulation returns
-- nothing and another simulation is never reached. Vectors are pseudo-random (setseed).
BEGIN;
SELECT plan(83);
\ir _fixtures.psql

CREATE FUNCTION fx.sim_nodes() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000a1'::uuid $$;
CREATE FUNCTION fx.sim_many() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000a2'::uuid $$;
CREATE FUNCTION fx.sim_empty() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000a3'::uuid $$;
CREATE FUNCTION fx.sim_other() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-5151-4000-8000-0000000000a4'::uuid $$;

-- Cosine similarity in double precision, by hand.
CREATE FUNCTION fx.cos(a real[], b real[]) RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
    SELECT sum(x::float8 * y::float8) / (sqrt(sum(x::float8 * x::float8)) * sqrt(sum(y::float8 * y::float8)))
      FROM unnest(a, b) AS u(x, y)
$$;
-- Pseudo-random vectors: set k, item i; components uniform in [-0.5, 0.5), times a scale.
SELECT setseed(0.42);
CREATE TABLE fx.rv (set_name text, i integer, v real[], PRIMARY KEY (set_name, i));
INSERT INTO fx.rv
SELECT s.set_name, s.i, array_agg((random() - 0.5)::real ORDER BY d)
  FROM (VALUES ('episodes', 60), ('nodes', 45), ('queries', 4), ('many', 150), ('scaled', 30)) AS n(set_name, cnt),
       LATERAL (SELECT n.set_name, i FROM generate_series(0, n.cnt - 1) AS i) AS s,
       generate_series(1, 384) AS d
 GROUP BY s.set_name, s.i;
-- 'scaled' rows get lengths from 0.1 to 50.
UPDATE fx.rv SET v = (SELECT array_agg(x * (0.1 + i * 1.7)::real ORDER BY o) FROM unnest(v) WITH ORDINALITY AS u(x, o))
 WHERE set_name = 'scaled';
GRANT SELECT ON fx.rv TO PUBLIC;
CREATE FUNCTION fx.q(p_i integer) RETURNS public.vector LANGUAGE sql STABLE
    AS $$ SELECT v::public.vector FROM fx.rv WHERE set_name = 'queries' AND i = p_i $$;

SET LOCAL ROLE app_a;
DO $$
BEGIN
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('ep%s', lpad(i::text, 4, '0')), 'agent_id', 1 + i % 5,
                                             'agent_name', format('agent %s', 1 + i % 5), 'platform', 'twitter', 'round', i % 7,
                                             'action_type', 'CREATE_POST', 'content', format('post %s', i),
                                             'occurred_at', format('2025-01-01T00:%s:00Z', lpad((i % 60)::text, 2, '0')),
                                             'embedding', to_jsonb(v)))
           FROM fx.rv WHERE set_name = 'episodes')
        || '[{"id": "none-1", "agent_id": 2, "action_type": "DO_NOTHING"}, {"id": "none-2", "agent_id": 5, "action_type": "DO_NOTHING"}]'::jsonb);
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_nodes(), 'nodes');
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_nodes(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('node-%s', lpad(i::text, 3, '0')), 'name', format('n%s', i),
                                             'type', (ARRAY['Person', 'Organization', 'Topic'])[1 + i % 3],
                                             'summary', format('summary %s', i), 'embedding', to_jsonb(v)))
           FROM fx.rv WHERE set_name = 'nodes')
        || '[{"id": "no-vector", "name": "no vector", "type": "Person"}]'::jsonb);
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_many(), 'many');
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_many(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('m%s', i), 'agent_id', 1, 'action_type', 'CREATE_POST', 'embedding', to_jsonb(v)))
           FROM fx.rv WHERE set_name = 'many'));
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_many(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('m%s', i), 'name', format('m%s', i), 'embedding', to_jsonb(v)))
           FROM fx.rv WHERE set_name = 'many'));
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_empty(), 'empty');
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_other(), 'other');
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_other(),
        (SELECT jsonb_agg(jsonb_build_object('id', format('scaled%s', i), 'agent_id', 1, 'action_type', 'CREATE_POST', 'embedding', to_jsonb(v)))
           FROM fx.rv WHERE set_name = 'scaled'));
END
$$;
RESET ROLE;

-- The brute-force answers (ids best first, ties by id, and similarities).
CREATE FUNCTION fx.expected_episodes(p_q integer, p_k integer, p_agent integer DEFAULT NULL)
RETURNS TABLE (episode_id text, similarity double precision) LANGUAGE sql STABLE AS $$
    SELECT format('ep%s', lpad(r.i::text, 4, '0')), fx.cos(r.v, q.v)
      FROM fx.rv AS r, fx.rv AS q
     WHERE r.set_name = 'episodes' AND q.set_name = 'queries' AND q.i = p_q AND (p_agent IS NULL OR 1 + r.i % 5 = p_agent)
     ORDER BY 2 DESC, 1 LIMIT p_k
$$;
CREATE FUNCTION fx.expected_nodes(p_q integer, p_k integer, p_type text DEFAULT NULL)
RETURNS TABLE (node_id text, similarity double precision) LANGUAGE sql STABLE AS $$
    SELECT format('node-%s', lpad(r.i::text, 3, '0')), fx.cos(r.v, q.v)
      FROM fx.rv AS r, fx.rv AS q
     WHERE r.set_name = 'nodes' AND q.set_name = 'queries' AND q.i = p_q
       AND (p_type IS NULL OR (ARRAY['Person', 'Organization', 'Topic'])[1 + r.i % 3] = p_type)
     ORDER BY 2 DESC, 1 LIMIT p_k
$$;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA fx TO PUBLIC;

SET LOCAL ROLE reader_a;

-- search_episodes equals the brute force (4 queries x 4 k = 16, 4 similarity checks, 4 x 2 agents = 8)
SELECT results_eq(format('SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.q(%s), %s)', q, k),
                  format('SELECT episode_id FROM fx.expected_episodes(%s, %s)', q, k),
                  format('search_episodes, query %s, top_k %s: the brute-force ranking', q, k))
  FROM generate_series(0, 3) AS q, unnest(ARRAY[1, 10, 60, 100]) AS k ORDER BY q, k;
SELECT ok((SELECT max(abs(s.similarity - e.similarity)) < 1e-5
             FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.q(q), 100) AS s
             JOIN fx.expected_episodes(q, 100) AS e USING (episode_id)),
          format('search_episodes, query %s: similarity is the cosine within 1e-5', q))
  FROM generate_series(0, 3) AS q;
SELECT results_eq(format('SELECT episode_id, round(similarity::numeric, 5) FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.q(%s), 100, %s)', q, a),
                  format('SELECT episode_id, round(similarity::numeric, 5) FROM fx.expected_episodes(%s, 100, %s)', q, a),
                  format('search_episodes, query %s, agent %s: only that agent''s 12 episodes, ranked', q, a))
  FROM generate_series(0, 3) AS q, unnest(ARRAY[2, 5]) AS a ORDER BY q, a;

-- search_nodes equals the brute force (3 queries x (4 k + 3 types + 1 unknown type) = 24)
SELECT results_eq(format('SELECT node_id FROM memory.search_nodes(fx.tenant_a(), fx.sim_nodes(), fx.q(%s), %s)', q, k),
                  format('SELECT node_id FROM fx.expected_nodes(%s, %s)', q, k),
                  format('search_nodes, query %s, top_k %s: the brute-force ranking', q, k))
  FROM generate_series(0, 2) AS q, unnest(ARRAY[1, 10, 45, 100]) AS k ORDER BY q, k;
SELECT results_eq(format('SELECT node_id, round(similarity::numeric, 5) FROM memory.search_nodes(fx.tenant_a(), fx.sim_nodes(), fx.q(%s), 100, %L)', q, t),
                  format('SELECT node_id, round(similarity::numeric, 5) FROM fx.expected_nodes(%s, 100, %L)', q, t),
                  format('search_nodes, query %s, type %s: only its 15 nodes, ranked', q, t))
  FROM generate_series(0, 2) AS q, unnest(ARRAY['Person', 'Organization', 'Topic']) AS t ORDER BY q, t;
SELECT is_empty(format('SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_nodes(), fx.q(%s), 10, ''NoSuchType'')', q),
                format('search_nodes, query %s, a type no node has: nothing', q))
  FROM generate_series(0, 2) AS q;

-- Columns (2)
SELECT results_eq($$SELECT episode_id, agent_id, agent_name, platform, round, action_type, content, occurred_at, abs(similarity - 1) < 1e-6
                      FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), (SELECT v::vector FROM fx.rv WHERE set_name = 'episodes' AND i = 3), 1)$$,
                  $$VALUES ('ep0003', 4, 'agent 4', 'twitter', 3, 'CREATE_POST', 'post 3', '2025-01-01T00:03:00Z'::timestamptz, true)$$,
                  'search_episodes returns every column of the row, similarity 1 for its own vector');
SELECT results_eq($$SELECT node_id, name, type, summary, abs(similarity - 1) < 1e-6
                      FROM memory.search_nodes(fx.tenant_a(), fx.sim_nodes(), (SELECT v::vector FROM fx.rv WHERE set_name = 'nodes' AND i = 4), 1)$$,
                  $$VALUES ('node-004', 'n4', 'Organization', 'summary 4', true)$$,
                  'search_nodes returns node_id, name, type, summary, similarity 1 for its own vector');

-- Lengths do not matter (1), ties go by id (1)
SELECT results_eq($$SELECT episode_id, round(similarity::numeric, 5)
                      FROM memory.search_episodes(fx.tenant_a(), fx.sim_other(), ((SELECT v FROM fx.rv WHERE set_name = 'queries' AND i = 1)::real[]::vector), 30)$$,
                  $$SELECT format('scaled%s', r.i), round(fx.cos(r.v, q.v)::numeric, 5) FROM fx.rv AS r, fx.rv AS q
                     WHERE r.set_name = 'scaled' AND q.set_name = 'queries' AND q.i = 1 ORDER BY fx.cos(r.v, q.v) DESC, 1$$,
                  'vectors of lengths 0.1 to 50: the ranking and similarity are the cosine''s');
RESET ROLE;
SET LOCAL ROLE app_a;
DO $$
BEGIN
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_empty(),
        (SELECT jsonb_agg(jsonb_build_object('id', t, 'action_type', 'CREATE_POST', 'embedding', fx.emb(7))) FROM unnest(ARRAY['tie-c', 'tie-a', 'tie-b']) AS t));
END
$$;
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_empty(), fx.q(0))$$,
                  ARRAY['tie-a', 'tie-b', 'tie-c'], 'equal similarities are ordered by id');
DO $$ BEGIN PERFORM memory.delete_simulation(fx.tenant_a(), fx.sim_empty()); PERFORM memory.upsert_simulation(fx.tenant_a(), fx.sim_empty(), 'empty'); END $$;
RESET ROLE;
SET LOCAL ROLE reader_a;

-- Empty simulation, other simulation (3)
SELECT is_empty($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_empty(), fx.q(0))$$, 'search_episodes in an empty simulation: nothing');
SELECT is_empty($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_empty(), fx.q(0))$$, 'search_nodes in an empty simulation: nothing');
SELECT is_empty($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), (SELECT v::vector FROM fx.rv WHERE set_name = 'scaled' AND i = 7), 100)
                   WHERE episode_id NOT LIKE 'ep%'$$,
                'search_episodes never returns an episode of another simulation of the tenant, even its exact vector');

-- top_k clamp over 150 rows (11 x 2 + 2 defaults = 24)
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_many(), fx.q(2), k)), x::bigint,
          format('search_episodes top_k %s of 150: %s', coalesce(k::text, 'NULL'), x))
  FROM (VALUES (1, NULL, 10), (2, -2147483648, 1), (3, -1, 1), (4, 0, 1), (5, 1, 1), (6, 2, 2), (7, 99, 99), (8, 100, 100),
               (9, 101, 100), (10, 1000, 100), (11, 2147483647, 100)) AS c(o, k, x) ORDER BY o;
SELECT is((SELECT count(*) FROM memory.search_nodes(fx.tenant_a(), fx.sim_many(), fx.q(2), k)), x::bigint,
          format('search_nodes top_k %s of 150: %s', coalesce(k::text, 'NULL'), x))
  FROM (VALUES (1, NULL, 10), (2, -2147483648, 1), (3, -1, 1), (4, 0, 1), (5, 1, 1), (6, 2, 2), (7, 99, 99), (8, 100, 100),
               (9, 101, 100), (10, 1000, 100), (11, 2147483647, 100)) AS c(o, k, x) ORDER BY o;
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_many(), fx.q(2))), 10::bigint, 'search_episodes default top_k of 150: 10');
SELECT is((SELECT count(*) FROM memory.search_nodes(fx.tenant_a(), fx.sim_many(), fx.q(2))), 10::bigint, 'search_nodes default top_k of 150: 10');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
