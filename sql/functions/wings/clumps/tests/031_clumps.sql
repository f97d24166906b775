-- 031_clumps: search_episodes' p_collapse (issue 13, item 2). A viral post (v0) with an
-- exact repost (r1) and three near-copies (n1..n3, cosine > 0.99 with it) by three agents,
-- and posts on other subjects; collapsing returns the clump as one row, its best hit, with
-- the copies and agents behind it, and leaves everything else as the plain search has it.
-- The call without p_collapse (positional, nine arguments) keeps its rows and order.
-- Then the same simulation through a clump build (memory._clump_build, V0026): the clump
-- found, the same rows as the exact search, another tenant's build invisible, and a row
-- written or deleted after the build found or never returned.
-- Index paths and real embeddings: tests/test_clumps.py.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(36);

-- fx.vec(1) with position p set to x: close to fx.vec(1) when x is small (0.04 at position
-- 2: cosine 0.9992)
CREATE FUNCTION fx.near(p integer, x real) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $$ SELECT pg_catalog.to_jsonb(pg_catalog.array_agg(CASE WHEN i = 1 THEN 1.0 WHEN i = p THEN x ELSE 0.01 END ORDER BY i))
            FROM pg_catalog.generate_series(1, 384) AS i $$;

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'v0', 'agent_id', 1, 'action_type', 'CREATE_POST', 'content', 'the viral post', 'round', 1, 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'r1', 'agent_id', 2, 'action_type', 'REPOST', 'content', 'the viral post', 'round', 2, 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'n1', 'agent_id', 2, 'action_type', 'QUOTE_POST', 'content', 'RT the viral post', 'round', 2, 'embedding', fx.near(2, 0.04)),
    pg_catalog.jsonb_build_object('id', 'n2', 'agent_id', 3, 'action_type', 'QUOTE_POST', 'content', 'the viral post!!', 'round', 3, 'embedding', fx.near(3, 0.05)),
    pg_catalog.jsonb_build_object('id', 'n3', 'action_type', 'QUOTE_POST', 'content', 'This. the viral post', 'round', 3, 'embedding', fx.near(4, 0.06)),
    pg_catalog.jsonb_build_object('id', 'far', 'agent_id', 4, 'action_type', 'CREATE_POST', 'content', 'close, not a copy', 'round', 3, 'embedding', fx.near(5, 0.3)),
    pg_catalog.jsonb_build_object('id', 'other', 'agent_id', 5, 'action_type', 'CREATE_POST', 'content', 'another subject', 'round', 4, 'embedding', fx.emb(7)),
    pg_catalog.jsonb_build_object('id', 'other2', 'agent_id', 6, 'action_type', 'CREATE_POST', 'content', 'another subject', 'round', 4, 'embedding', fx.emb(7))));
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION reader_a;
-- fixture checks (2)
SELECT ok((SELECT bool_and(1 - (a.embedding <=> b.embedding) > 0.99) FROM memory.episodes AS a, memory.episodes AS b
            WHERE a.tenant_id = fx.tenant_a() AND b.tenant_id = fx.tenant_a()
              AND a.episode_id IN ('v0', 'r1', 'n1', 'n2', 'n3') AND b.episode_id IN ('v0', 'r1', 'n1', 'n2', 'n3')),
          'fixture: v0, r1, n1, n2, n3 are pairwise above cosine 0.99');
SELECT ok((SELECT 1 - (a.embedding <=> b.embedding) < 0.99 FROM memory.episodes AS a, memory.episodes AS b
            WHERE a.tenant_id = fx.tenant_a() AND b.tenant_id = fx.tenant_a() AND a.episode_id = 'v0' AND b.episode_id = 'far'),
          'fixture: far is below cosine 0.99 of v0');

-- The plain search is unchanged: every row one copy (4)
SELECT results_eq($$SELECT episode_id, copies, agents FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10)$$,
                  $$VALUES ('r1'::text, 1, 1), ('v0', 1, 1), ('n1', 1, 1), ('n2', 1, 1), ('n3', 1, 0), ('far', 1, 1), ('other', 1, 1), ('other2', 1, 1)$$,
                  'without p_collapse: every hit, best first (ties by id), each one copy; a hit without an agent counts none');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, NULL, NULL, NULL, NULL, NULL)$$,
                  $$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, p_collapse => false)$$,
                  'the nine-argument call of before keeps its rows and order');
SELECT is((SELECT pg_catalog.count(*) FROM pg_catalog.pg_proc WHERE proname = 'search_episodes'
            AND pronamespace = 'memory'::regnamespace), 1::bigint,
          'one search_episodes: the old signature is gone, so a call without p_collapse names one function');
SELECT is((SELECT pg_catalog.count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 3)), 3::bigint,
          'without p_collapse: top_k rows, copies or not');

-- Collapsed (6)
SELECT results_eq($$SELECT episode_id, copies, agents FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, p_collapse => true)$$,
                  $$VALUES ('r1'::text, 5, 3), ('far', 1, 1), ('other', 2, 2)$$,
                  'collapsed: the viral clump as one row (its best hit, 5 copies by agents 1, 2, 3; n3 has no agent), far on its own, the two identical others as one');
SELECT is_empty($$SELECT episode_id, similarity FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, p_collapse => true)
                  EXCEPT SELECT episode_id, similarity FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10)$$,
                'collapsed: each row is a hit of the plain search, with its similarity');
SELECT results_eq($$SELECT episode_id, copies FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 1, p_collapse => true)$$,
                  $$VALUES ('r1'::text, 5)$$,
                  'collapsed, top_k 1: the clump''s row still counts all its copies');
SELECT results_eq($$SELECT episode_id, copies, agents FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, 2, p_collapse => true)$$,
                  $$VALUES ('r1'::text, 2, 1)$$,
                  'collapsed with p_agent_id: agent 2''s repost and near-copy are one row, one agent');
SELECT results_eq($$SELECT episode_id, copies, agents FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, NULL, 3, 3, p_collapse => true)$$,
                  $$VALUES ('n2'::text, 2, 1), ('far', 1, 1)$$,
                  'collapsed within round 3: n2 and n3 one row (one known agent), far its own');
SELECT results_eq($$SELECT episode_id, copies FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(7), 10, p_collapse => true)$$,
                  $$VALUES ('other'::text, 2), ('far', 1), ('n3', 5)$$,
                  'collapsed, another question: its own clump first, then far, then the viral clump as its best hit for this question (n3)');
SELECT is((SELECT pg_catalog.sum(copies) FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 100, p_collapse => true)),
          (SELECT pg_catalog.count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 100)),
          'collapsed: the copies add up to the rows of the plain search');
RESET SESSION AUTHORIZATION;

-- An empty simulation (1)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), fx.unknown(), 'empty');
SELECT is_empty($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.unknown(), fx.vec(1), 10, p_collapse => true)$$,
                'collapsed, a simulation without episodes: no row');
RESET SESSION AUTHORIZATION;

-- Isolation and errors as before (2)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, p_collapse => true)$$,
                 '42501', NULL, 'collapsed: another tenant''s role is refused');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), NULL, 10, p_collapse => true)$$,
                 '22004', NULL, 'collapsed: a NULL query is 22004');
RESET SESSION AUTHORIZATION;

-- A clump build of the simulation (17). The sample is every row: v0 has four others within
-- cosine 0.99 (r1, n1, n2, n3), so they are one clump; far and other / other2 (one vector,
-- two episodes) are the representatives.
CREATE TEMP TABLE fx_exact AS
SELECT q.k, s.episode_id, s.similarity
  FROM (VALUES (1), (7)) AS q(k)
 CROSS JOIN LATERAL memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(q.k), 10) AS s;
GRANT SELECT ON fx_exact TO PUBLIC;
CREATE FUNCTION fx.sim_no_a() RETURNS bigint LANGUAGE sql STABLE SECURITY DEFINER
    AS $$ SELECT sim_no FROM memory.simulations WHERE tenant_id = fx.tenant_a() AND simulation_id = fx.sim_a() $$;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory._clump_build(fx.tenant_a(), fx.sim_no_a())$$, '42501', NULL,
                 'a tenant''s writer may not build clumps (memory_admin only)');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT results_eq($$SELECT episodes, points, clumps, clumped, indexed FROM memory._clump_build(fx.tenant_a(), fx.sim_no_a(), 'clump', 8, 32)$$,
                  $$VALUES (8::bigint, 2::bigint, 1, 5::bigint, true)$$,
                  'the build: 8 episodes, 1 clump of 5, 2 representatives (far; other and other2 are one vector)');
SELECT results_eq($$SELECT tenant_id, sim_no, action FROM memory._clump_plan(5, 8, 32) WHERE tenant_id = fx.tenant_a()$$,
                  $$VALUES (fx.tenant_a(), fx.sim_no_a(), 'keep'::text)$$,
                  'the plan keeps a fresh build made with the same parameters');
SELECT throws_ok($$SELECT * FROM memory._clump_build(fx.tenant_a(), fx.sim_no_a(), 'truncate')$$, '22023', NULL,
                 'an unknown clump action is 22023');
SELECT throws_ok($$SELECT * FROM memory._clump_build(fx.tenant_a(), -1)$$, 'P0002', NULL,
                 'an unknown simulation number is P0002');
RESET SESSION AUTHORIZATION;
SELECT ok(pg_catalog.to_regclass('memory.' || memory._clump_index_name(fx.sim_no_a(), b.build_no)) IS NOT NULL,
          'the build''s representatives have their index, named by numbers only')
  FROM memory.search_builds AS b WHERE b.tenant_id = fx.tenant_a();

SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT fresh, index_ok FROM memory._clump_state(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES (true, true)$$, 'the build is fresh: search_episodes uses it');
SELECT results_eq($$SELECT c.members, c.vectors, c.agent_ids FROM memory.search_clumps AS c$$,
                  $$VALUES (5, 4, '{1,2,3}'::integer[])$$,
                  'the clump: 5 episodes, 4 distinct vectors (r1 copies v0), agents 1, 2, 3');
SELECT results_eq($$SELECT (h.hit).episode_id, h.hit_clump > 0
                      FROM memory._clump_search(fx.tenant_a(), fx.sim_a(), (SELECT build_no FROM memory.search_builds), 2, fx.vec(1), 10) AS h$$,
                  $$VALUES ('r1'::text, true), ('v0', true), ('n1', true), ('n2', true), ('n3', true), ('far', false), ('other', false), ('other2', false)$$,
                  'through the build: the clump read whole, the representatives by their index, ranked exactly (ties by id)');
SELECT results_eq($$SELECT q.k, s.episode_id, s.similarity FROM (VALUES (1), (7)) AS q(k)
                     CROSS JOIN LATERAL memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(q.k), 10) AS s$$,
                  $$SELECT k, episode_id, similarity FROM fx_exact$$,
                  'search_episodes through the build returns the exact search''s rows, order and similarities');
SELECT results_eq($$SELECT episode_id, copies, agents FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, p_collapse => true)$$,
                  $$VALUES ('r1'::text, 5, 3), ('far', 1, 1), ('other', 2, 2)$$,
                  'collapsed through the build: the clump one row with all its copies and agents');
SELECT results_eq($$SELECT episode_id, copies FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 1, p_collapse => true)$$,
                  $$VALUES ('r1'::text, 5)$$, 'collapsed through the build, top_k 1: all the clump''s copies');
RESET SESSION AUTHORIZATION;

-- Another tenant sees nothing of the build (3)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT pg_catalog.count(*) FROM memory.search_builds) + (SELECT pg_catalog.count(*) FROM memory.search_points)
          + (SELECT pg_catalog.count(*) FROM memory.search_clumps) + (SELECT pg_catalog.count(*) FROM memory.search_clump_chunks),
          0::bigint, 'another tenant''s role sees no build, representative, clump or chunk of A');
SELECT is_empty($$SELECT * FROM memory._clump_state(fx.tenant_a(), fx.sim_a())$$,
                'nor A''s build state');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT throws_ok($$SELECT * FROM memory._clump_search(fx.tenant_a(), fx.sim_a(), 1, 2, fx.vec(1), 10)$$, '42501', NULL,
                 'an administrator may not read a tenant''s build');
RESET SESSION AUTHORIZATION;

-- Stale-safe (4): a row deleted behind the API's back is never returned; a row written after
-- the build is found (the feed makes the build stale and search_episodes searches as before).
DELETE FROM memory.episodes WHERE tenant_id = fx.tenant_a() AND episode_id = 'n1';
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10)$$,
                  $$SELECT episode_id FROM fx_exact WHERE k = 1 AND episode_id <> 'n1'$$,
                  'a deleted row is never returned, and the others are');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'late', 'agent_id', 9, 'action_type', 'CREATE_POST', 'content', 'written after the build', 'embedding', fx.emb(9))));
SELECT is((SELECT fresh FROM memory._clump_state(fx.tenant_a(), fx.sim_a())), false,
          'an upsert after the build makes it stale');
SELECT is_empty($$SELECT 1 FROM memory._clump_search(fx.tenant_a(), fx.sim_a(), (SELECT build_no FROM memory.search_builds), 2, fx.vec(9), 10) AS h
                   WHERE (h.hit).episode_id = 'late'$$,
                'the stale build does not hold the new row');
SELECT results_eq($$SELECT episode_id, similarity FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(9), 1)$$,
                  $$VALUES ('late'::text, 1::double precision)$$,
                  'search_episodes finds the row written after the build');
RESET SESSION AUTHORIZATION;

-- The breadth of the build's index search (1): a hundred-and-fortieth of the points from 200 to
-- 1,000; for a top 10 or fewer, a thirtieth of a build under 6,000 points, at least 100; 200
-- for an unknown size or top k.
SELECT results_eq(
    $$SELECT p, k, memory._clump_breadth(p, k)
        FROM (VALUES (1344::bigint, 10), (1344, 5), (3367, 10), (5999, 10), (6000, 10), (6754, 10),
                     (28000, 10), (34704, 10), (161931, 10), (1344, 11), (1344, 50), (34704, 50),
                     (1344, NULL), (NULL, 10), (0, 10), (-5, 10)) AS v(p, k)$$,
    $$VALUES (1344::bigint, 10, 100), (1344, 5, 100), (3367, 10, 112), (5999, 10, 199), (6000, 10, 200),
             (6754, 10, 200), (28000, 10, 200), (34704, 10, 247), (161931, 10, 1000), (1344, 11, 200),
             (1344, 50, 200), (34704, 50, 247), (1344, NULL, 200), (NULL, 10, 200), (0, 10, 200), (-5, 10, 200)$$,
    '_clump_breadth: points / 140 from 200 to 1,000; for a top 10 from a small build points / 30, at least 100');

SELECT * FROM finish();
ROLLBACK;
