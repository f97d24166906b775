/* pgmigrate-encoding: utf-8 */
-- 024_evidence_timeline: the evidence behind a fact, an entity's timeline, and episodes
-- searched within a round range and a time window (issue 11, items 5 to 7). Crafted data:
-- Chinese names in Chinese posts (no word boundaries), an alias, a fact superseded at an
-- instant (one bound inclusive, the other not), open intervals, an action without a time,
-- a one-letter name; evidence kept current when an action changes; tenants isolated; the
-- per-simulation HNSW path with a window returns the exact top k within it.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(43);

-- 李华 (alias 小李) supported the plan until 2025-06-01 (e2) and opposes it from then (e1,
-- open end; its source list names a Graphiti episode twice and one action the memory holds);
-- the chamber (alias "the Chamber") funds the paper, no time known (e3); 李华 knows X, whose
-- one-letter name matches nothing (e4).
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "li", "name": "李华", "type": "Person", "attributes": {"aliases": ["小李", ""]}},
      {"id": "plan", "name": "河滨路改造计划", "type": "Policy"},
      {"id": "chamber", "name": "Chamber of Commerce", "type": "Organization", "attributes": {"alias": "the Chamber"}},
      {"id": "paper", "name": "Riverside Gazette", "type": "Media"},
      {"id": "x", "name": "X", "type": "Person"}]');
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "OPPOSES", "source_id": "li", "target_id": "plan", "fact": "李华反对河滨路改造计划",
       "valid_at": "2025-06-01T00:00:00Z", "attributes": {"episodes": ["g1", "ep3", "g1"]}},
      {"id": "e2", "type": "SUPPORTS", "source_id": "li", "target_id": "plan", "fact": "李华支持河滨路改造计划",
       "valid_at": "2025-01-01T00:00:00Z", "invalid_at": "2025-06-01T00:00:00Z"},
      {"id": "e3", "type": "FUNDS", "source_id": "chamber", "target_id": "paper", "fact": "The chamber funds the paper"},
      {"id": "e4", "type": "KNOWS", "source_id": "li", "target_id": "x", "fact": "李华 knows X"}]');
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), jsonb_build_array(
    jsonb_build_object('id', 'ep1', 'agent_id', 1, 'agent_name', '小李', 'round', 1, 'action_type', 'CREATE_POST',
                       'content', '小李说：我支持河滨路改造计划！', 'occurred_at', '2025-03-01T00:00:00Z', 'embedding', fx.emb(1)),
    jsonb_build_object('id', 'ep2', 'agent_id', 2, 'round', 2, 'action_type', 'CREATE_POST',
                       'content', '李华：河滨路改造计划必须停止', 'occurred_at', '2025-07-01T00:00:00Z', 'embedding', fx.emb(2)),
    jsonb_build_object('id', 'ep3', 'agent_id', 1, 'round', 2, 'action_type', 'CREATE_COMMENT',
                       'content', '今天李华谈河滨路改造计划', 'occurred_at', '2025-06-01T00:00:00Z', 'embedding', fx.emb(3)),
    jsonb_build_object('id', 'ep4', 'agent_id', 3, 'action_type', 'CREATE_POST',
                       'content', 'THE CHAMBER OF COMMERCE bought ads in the riverside gazette', 'embedding', fx.emb(4)),
    jsonb_build_object('id', 'ep5', 'agent_id', 3, 'round', 3, 'action_type', 'CREATE_POST',
                       'content', '李华 visited X', 'occurred_at', '2025-08-01T00:00:00Z', 'embedding', fx.emb(5)),
    jsonb_build_object('id', 'ep6', 'agent_id', 2, 'round', 3, 'action_type', 'CREATE_POST',
                       'content', '河滨路改造计划 only', 'occurred_at', '2025-07-02T00:00:00Z', 'embedding', fx.emb(6))));

-- Evidence follows imports: rows written through upserts have none until link_evidence (3)
SELECT is_empty($$SELECT * FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'e1')$$,
                'upserted edges have no evidence before memory.link_evidence');
SELECT results_eq($$SELECT sources, mentions, added, removed FROM memory.link_evidence(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES (2::bigint, 4::bigint, 6::bigint, 0::bigint)$$,
                  'link_evidence links 2 sources (a repeated id once) and 4 actions');
SELECT results_eq($$SELECT sources, mentions, added, removed FROM memory.link_evidence(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES (2::bigint, 4::bigint, 0::bigint, 0::bigint)$$,
                  'link_evidence again writes nothing');

-- What evidence() returns (6)
SELECT results_eq($$SELECT kind, episode_id, resolved, list_position, matched, content
                      FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'e1')$$,
                  $$VALUES ('source', 'g1', false, 1, NULL::text[], NULL::text),
                           ('source', 'ep3', true, 2, NULL, '今天李华谈河滨路改造计划'),
                           ('mention', 'ep3', true, NULL, '{李华,河滨路改造计划}', '今天李华谈河滨路改造计划'),
                           ('mention', 'ep2', true, NULL, '{李华,河滨路改造计划}', '李华：河滨路改造计划必须停止')$$,
                  'e1: its sources in list order (resolved or not), then the actions in its window from valid_at (inclusive) on, in time order');
SELECT results_eq($$SELECT kind, episode_id, matched, agent_name, occurred_at
                      FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'e2')$$,
                  $$VALUES ('mention', 'ep1', '{小李,河滨路改造计划}'::text[], '小李', '2025-03-01T00:00:00Z'::timestamptz)$$,
                  'e2: the action matched by an alias in a Chinese post; not the one at its invalid_at (exclusive)');
SELECT results_eq($$SELECT kind, episode_id, matched, occurred_at FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'e3')$$,
                  $$VALUES ('mention', 'ep4', '{"Chamber of Commerce","the Chamber","Riverside Gazette"}'::text[], NULL::timestamptz)$$,
                  'e3: any case, every name found; an action without a time supports a fact without bounds');
SELECT is_empty($$SELECT * FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'e4')$$,
                'e4: a one-letter name matches nothing');
SELECT throws_ok($$SELECT * FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'nope')$$, 'P0002', NULL,
                 'evidence of an unknown edge: P0002');
SELECT throws_ok($$SELECT * FROM memory.evidence(fx.tenant_a(), fx.sim_a(), NULL)$$, '22004', NULL,
                 'evidence of NULL: 22004');

-- Timeline (5)
SELECT results_eq($$SELECT at, event, COALESCE(edge_id, episode_id), other_name
                      FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'li')$$,
                  $$VALUES ('2025-01-01T00:00:00Z'::timestamptz, 'fact_began', 'e2', '河滨路改造计划'),
                           ('2025-03-01T00:00:00Z', 'action', 'ep1', NULL),
                           ('2025-06-01T00:00:00Z', 'fact_ended', 'e2', '河滨路改造计划'),
                           ('2025-06-01T00:00:00Z', 'fact_began', 'e1', '河滨路改造计划'),
                           ('2025-06-01T00:00:00Z', 'action', 'ep3', NULL),
                           ('2025-07-01T00:00:00Z', 'action', 'ep2', NULL),
                           ('2025-08-01T00:00:00Z', 'action', 'ep5', NULL)$$,
                  'timeline of 李华: facts that began and ended (ended first at an instant), actions naming her or her alias, in time order');
SELECT results_eq($$SELECT event, edge_id, content, other_node_id FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'plan', 2)$$,
                  $$VALUES ('fact_began', 'e2', '李华支持河滨路改造计划', 'li'), ('action', NULL, '小李说：我支持河滨路改造计划！', NULL)$$,
                  'timeline of the plan, first 2 events: the fact text and the entity at its other end');
SELECT is_empty($$SELECT * FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'paper')$$,
                'a fact without times and an action without a time are not on a timeline');
SELECT throws_ok($$SELECT * FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'li', -1)$$, '22023', NULL,
                 'timeline with a negative limit: 22023');
SELECT throws_ok($$SELECT * FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'nope')$$, 'P0002', NULL,
                 'timeline of an unknown node: P0002');

-- A changed action changes the evidence (3)
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
    jsonb_build_array(jsonb_build_object('id', 'ep2', 'agent_id', 2, 'round', 2, 'action_type', 'CREATE_POST',
        'content', '河滨路改造计划必须停止', 'occurred_at', '2025-07-01T00:00:00Z', 'embedding', fx.emb(2))));
SELECT results_eq($$SELECT sources, mentions, added, removed FROM memory.link_evidence(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES (2::bigint, 3::bigint, 0::bigint, 1::bigint)$$,
                  'an action that no longer names 李华: its link goes, nothing else is written');
SELECT results_eq($$SELECT episode_id FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'e1') WHERE kind = 'mention'$$,
                  $$VALUES ('ep3')$$, 'e1 keeps only the action that still names both');
SELECT is((SELECT count(*) FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'li') WHERE episode_id = 'ep2'), 0::bigint,
          'the timeline of 李华 no longer shows it');
RESET SESSION AUTHORIZATION;

-- Isolation and privileges (7)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.evidence(fx.tenant_a(), fx.sim_a(), 'e1')$$, '42501', NULL, 'app_b: evidence of tenant A is 42501');
SELECT throws_ok($$SELECT * FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'li')$$, '42501', NULL, 'app_b: timeline of tenant A is 42501');
SELECT throws_ok($$SELECT * FROM memory.link_evidence(fx.tenant_a(), fx.sim_a())$$, '42501', NULL, 'app_b: link_evidence of tenant A is 42501');
SELECT throws_ok($$SELECT * FROM memory._link_evidence(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'app_b: the definer checks the session user''s grant too');
SELECT throws_ok($$SELECT * FROM memory.evidence(fx.tenant_b(), fx.sim_a(), 'e1')$$, 'P0002', NULL,
                 'app_b: A''s simulation under its own tenant is P0002');
SELECT is((SELECT count(*) FROM memory.edge_evidence), 0::bigint, 'app_b reads no evidence row of A directly');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$INSERT INTO memory.edge_evidence (tenant_id, simulation_id, edge_key, kind, episode_id, position)
                   VALUES (fx.tenant_a(), fx.sim_a(), md5('e4')::uuid, 'source', 'forged', 1)$$, '42501', NULL,
                 'a writer may not forge a link of its own tenant');
RESET SESSION AUTHORIZATION;

-- search_episodes within a round range and a time window, exact path (6)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, NULL, 2, 3)$$,
                  $$VALUES ('ep2'), ('ep3'), ('ep5'), ('ep6')$$,
                  'rounds 2 to 3 (inclusive): only those episodes, ranked; episodes without a round are outside');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(6), 2, NULL, NULL, NULL,
                                                                  '2025-06-01T00:00:00Z', '2025-07-02T00:00:00Z')$$,
                  $$VALUES ('ep2'), ('ep3')$$,
                  'time window [from, to): from inclusive, to exclusive, even for the nearest episode at to');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(5), 1, 3, NULL, NULL, '2025-07-01T00:00:00Z')$$,
                  $$VALUES ('ep5')$$, 'an agent and an open-ended window together');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(5), 10, NULL, 7, 9)), 0::bigint,
          'a range holding nothing: no rows');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, NULL, 3, 2)$$, '22023', NULL,
                 'a round range that ends before it starts: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 10, NULL, NULL, NULL, '2025-02-01', '2025-01-01')$$,
                 '22023', NULL, 'a time window that ends before it starts: 22023');
RESET SESSION AUTHORIZATION;

-- The per-simulation HNSW path with a window (10): 2,000 episodes over 20 rounds and 2,000
-- minutes, pseudo-random vectors, the simulation's own index built as the administrator.
CREATE FUNCTION fx.rvec(p_seed integer) RETURNS public.vector LANGUAGE sql IMMUTABLE
    AS $$ SELECT pg_catalog.array_agg(sin(p_seed * 12.9898 + i * 78.233) ORDER BY i)::real[]::public.vector
            FROM pg_catalog.generate_series(1, 384) AS i $$;
CREATE FUNCTION fx.sim_ann() RETURNS uuid LANGUAGE sql IMMUTABLE
    AS $$ SELECT 'aaaaaaaa-a000-4000-8000-000000000002'::uuid $$;
-- the true top 10 within a range, brute force
CREATE FUNCTION fx.brute(p_q integer, p_r1 integer, p_r2 integer, p_from timestamptz, p_to timestamptz)
RETURNS TABLE (episode_id text) LANGUAGE sql STABLE
    AS $$ SELECT e.episode_id FROM memory.episodes AS e
           WHERE e.tenant_id = fx.tenant_a() AND e.simulation_id = fx.sim_ann()
             AND (p_r1 IS NULL OR e.round >= p_r1) AND (p_r2 IS NULL OR e.round <= p_r2)
             AND (p_from IS NULL OR e.occurred_at >= p_from) AND (p_to IS NULL OR e.occurred_at < p_to)
           ORDER BY e.embedding OPERATOR(public.<=>) fx.rvec(p_q), e.episode_id LIMIT 10 $$;
CREATE FUNCTION fx.ann_scans() RETURNS bigint LANGUAGE sql VOLATILE SECURITY DEFINER
    AS $$ SELECT pg_catalog.pg_stat_get_xact_numscans(c.oid) FROM pg_catalog.pg_class AS c
           WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._ann_index_name(
                     (SELECT s.sim_no FROM memory.simulations AS s WHERE s.simulation_id = fx.sim_ann()))) $$;
CREATE FUNCTION fx.ann_sim_no() RETURNS bigint LANGUAGE sql STABLE SECURITY DEFINER
    AS $$ SELECT s.sim_no FROM memory.simulations AS s WHERE s.simulation_id = fx.sim_ann() $$;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA fx TO PUBLIC;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_ann(), 'ann');
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_ann(),
    (SELECT jsonb_agg(jsonb_build_object('id', 'a' || i, 'agent_id', i % 7, 'round', i % 20, 'action_type', 'CREATE_POST',
                                         'content', 'post ' || i,
                                         'occurred_at', '2025-01-01T00:00:00Z'::timestamptz + i * interval '1 minute',
                                         'embedding', fx.rvec(i)::real[]))
       FROM generate_series(1, 2000) AS i));
RESET SESSION AUTHORIZATION;
-- The simulation's HNSW index, built in this transaction by the superuser: memory.ann_index
-- refuses a build in one transaction, and CONCURRENTLY cannot run in one.
DO $build$
DECLARE
    v_stmt text;
BEGIN
    FOREACH v_stmt IN ARRAY memory._ann_statements(fx.ann_sim_no(), 'build', 32, 128, true, 'memory.episodes') LOOP
        IF v_stmt LIKE 'CREATE INDEX CONCURRENTLY episodes_ann_%' THEN
            EXECUTE pg_catalog.replace(v_stmt, 'CONCURRENTLY ', '');
        END IF;
    END LOOP;
END
$build$;
ANALYZE memory.episodes;
SET LOCAL SESSION AUTHORIZATION app_a;
CREATE TEMP TABLE fx_scans (step text PRIMARY KEY, n bigint) ON COMMIT DROP;
INSERT INTO fx_scans VALUES ('start', fx.ann_scans());
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_ann(), fx.rvec(5001), 10)$$,
                  $$SELECT * FROM fx.brute(5001, NULL, NULL, NULL, NULL)$$,
                  'indexed simulation, no range: the true top 10');
INSERT INTO fx_scans VALUES ('plain', fx.ann_scans());
SELECT ok((SELECT n FROM fx_scans WHERE step = 'plain') > (SELECT n FROM fx_scans WHERE step = 'start'),
          'a search without a range goes through the simulation''s HNSW index');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_ann(), fx.rvec(5002), 10, NULL, 7, 7)$$,
                  $$SELECT * FROM fx.brute(5002, 7, 7, NULL, NULL)$$,
                  'indexed simulation, one round of 20: the true top 10 within it');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_ann(), fx.rvec(5003), 10, NULL, NULL, NULL,
                                                                  '2025-01-01T05:00:00Z', '2025-01-01T05:30:00Z')$$,
                  $$SELECT * FROM fx.brute(5003, NULL, NULL, '2025-01-01T05:00:00Z', '2025-01-01T05:30:00Z')$$,
                  'indexed simulation, a 30-minute window: the true top 10 within it');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_ann(), fx.rvec(5004), 10, 3, 2, 15,
                                                                  '2025-01-01T02:00:00Z', NULL)$$,
                  $$SELECT b.episode_id FROM memory.episodes AS e JOIN LATERAL (SELECT 1) AS z ON true
                     CROSS JOIN LATERAL (SELECT e.episode_id) AS b
                     WHERE e.tenant_id = fx.tenant_a() AND e.simulation_id = fx.sim_ann() AND e.agent_id = 3
                       AND e.round BETWEEN 2 AND 15 AND e.occurred_at >= '2025-01-01T02:00:00Z'
                     ORDER BY e.embedding OPERATOR(public.<=>) fx.rvec(5004), e.episode_id LIMIT 10$$,
                  'indexed simulation, agent + rounds + open-ended window: the true top 10 within them');
INSERT INTO fx_scans VALUES ('ranged', fx.ann_scans());
SELECT is((SELECT n FROM fx_scans WHERE step = 'ranged'), (SELECT n FROM fx_scans WHERE step = 'plain'),
          'ranges of at most 10,000 episodes are searched exactly, not through the index');
SELECT is((SELECT count(*) FROM memory.search_episodes(fx.tenant_a(), fx.sim_ann(), fx.rvec(1), 10, NULL, NULL, NULL,
                                                       '2026-01-01', '2026-02-01')), 0::bigint,
          'indexed simulation, a window holding nothing: no rows');
RESET SESSION AUTHORIZATION;
-- The approximate search itself keeps to a range (a wide one, as search_episodes sends it),
-- and re-ranks at least the hits asked for (4)
SELECT is((SELECT count(*) FROM memory._search_episodes_ann(fx.tenant_a(), fx.sim_ann(),
               fx.ann_sim_no(),
               fx.rvec(5005), 10, NULL, 2000, 2, 17, NULL, NULL, NULL) AS h
            WHERE h.round BETWEEN 2 AND 17), 10::bigint,
          '_search_episodes_ann with rounds 2 to 17: 10 rows, all within them');
SELECT cmp_ok((SELECT count(*) FROM memory._search_episodes_ann(fx.tenant_a(), fx.sim_ann(),
                   fx.ann_sim_no(),
                   fx.rvec(5005), 10, NULL, 2000, 2, 17, NULL, NULL, NULL) AS h
                WHERE h.episode_id IN (SELECT * FROM fx.brute(5005, 2, 17, NULL, NULL))), '>=', 9::bigint,
              '_search_episodes_ann with rounds 2 to 17: recall@10 of at least 0.9 against the brute force');
SELECT is((SELECT count(*) FROM memory._search_episodes_ann(fx.tenant_a(), fx.sim_ann(),
               fx.ann_sim_no(),
               fx.rvec(5006), 10, NULL, 2000, NULL, NULL, '2025-01-01T01:00:00Z', '2025-01-02T00:00:00Z', NULL) AS h
            WHERE h.occurred_at >= '2025-01-01T01:00:00Z' AND h.occurred_at < '2025-01-02T00:00:00Z'), 10::bigint,
          '_search_episodes_ann with a window: 10 rows, all within it');
SELECT is((SELECT count(*) FROM memory._search_episodes_ann(fx.tenant_a(), fx.sim_ann(),
               fx.ann_sim_no(), fx.rvec(5007), 10, NULL, 2000, NULL, NULL, NULL, NULL, 3)), 10::bigint,
          '_search_episodes_ann with a pool smaller than the hits asked for: the hits asked for');

-- The breadth of a search through a simulation's own index follows the index's size (1)
SELECT results_eq(
    $$SELECT n::real, memory._ann_breadth(n::real)
        FROM unnest(ARRAY[-1, 0, 2000, 5000, 10000, 13000, 20000, 25000, 40000, 80000, 100000, 150000, 200000, 250000, 1000000]) AS n$$,
    $$VALUES (-1::real, 400), (0, 400), (2000, 200), (5000, 200), (10000, 200), (13000, 200), (20000, 200),
             (25000, 250), (40000, 400), (80000, 400), (100000, 400), (150000, 600), (200000, 800), (250000, 1000),
             (1000000, 1000)$$,
    '_ann_breadth: 400 for an unknown size, 200 up to 20,000 vectors, 400 from 40,000, 800 at 200,000, at most 1,000');

-- ... and, through memory._episodes_breadth, the hits asked for and the caller's pool (1)
SELECT results_eq(
    $$SELECT n::real, k, pool, memory._episodes_breadth(n::real, k, pool)
        FROM (VALUES (200000, 10, NULL::integer), (200000, 50, NULL), (200000, 50, 100), (200000, 50, 200),
                     (200000, 10, 50), (5000, 50, 100), (40000, 10, 100), (0, 10, NULL), (-1, 10, NULL),
                     (5000, 10, NULL), (5000, 5, NULL), (12970, 10, NULL), (19999, 10, NULL), (20000, 10, NULL),
                     (30000, 10, NULL), (5000, 11, NULL), (5000, 10, 50), (NULL, 10, NULL),
                     (5000, NULL, NULL)) AS v(n, k, pool)$$,
    $$VALUES (200000::real, 10, NULL::integer, 800), (200000, 50, NULL, 400), (200000, 50, 100, 200),
             (200000, 50, 200, 400), (200000, 10, 50, 200), (5000, 50, 100, 200), (40000, 10, 100, 200),
             (0, 10, NULL, 400), (-1, 10, NULL, 400),
             (5000, 10, NULL, 120), (5000, 5, NULL, 120), (12970, 10, NULL, 130), (19999, 10, NULL, 200), (20000, 10, NULL, 200),
             (30000, 10, NULL, 300), (5000, 11, NULL, 200), (5000, 10, 50, 200), (NULL, 10, NULL, 400),
             (5000, NULL, NULL, 200)$$,
    '_episodes_breadth: the index''s breadth, at most 400 beyond a top 10, at most twice a pool given (at least 200), a hundredth of a small index (at least 120) for a top 10 without a pool');

SELECT * FROM finish();
ROLLBACK;
