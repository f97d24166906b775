/* pgmigrate-encoding: utf-8 */
-- 019_read_back: everything an import stores can be read back (issue 10, point 8): profiles
-- by agent, episodes filtered by agent, platform, action type, rounds and time, a page at a
-- time, and every field MiroFish sends with an edge.
BEGIN;
\ir _fixtures.psql
SELECT plan(19);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "n1", "name": "河滨路改造计划", "type": "Policy"}, {"id": "n2", "name": "Maya", "type": "Person"}]');
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "SUPPORTS", "source_id": "n2", "target_id": "n1", "fact": "Maya 支持计划",
       "valid_at": "2026-03-01T09:00:00Z", "invalid_at": "2026-03-05T09:00:00Z",
       "attributes": {"fact_type": "SUPPORTS", "created_at": "2026-03-01T10:00:00Z",
                      "expired_at": "2026-03-05T10:00:00Z", "episodes": ["ep-1", "ep-2"]}}]');
SELECT memory.upsert_profiles(fx.tenant_a(), fx.sim_a(),
    '[{"platform": "twitter", "agent_id": 0, "name": "Maya"}, {"platform": "twitter", "agent_id": 1, "name": "李华"},
      {"platform": "reddit", "agent_id": 0, "name": "Maya"}]');
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
    'id', 'ep-' || i, 'agent_id', i % 3, 'platform', CASE WHEN i % 2 = 0 THEN 'twitter' ELSE 'reddit' END,
    'round', (i - 1) / 4 + 1, 'action_type', CASE WHEN i % 5 = 0 THEN 'LIKE_POST' ELSE 'CREATE_POST' END,
    'content', '帖子 ' || i, 'occurred_at', '2026-03-01T09:00:00Z'::timestamptz + i * interval '1 minute')))
  FROM pg_catalog.generate_series(1, 20) AS i;

SELECT results_eq($$SELECT platform, agent_id, name FROM memory.profiles(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('reddit'::text, 0, 'Maya'::text), ('twitter', 0, 'Maya'), ('twitter', 1, '李华')$$,
                  'profiles: every profile, by platform and agent');
SELECT results_eq($$SELECT name FROM memory.profiles(fx.tenant_a(), fx.sim_a(), 'twitter', 1)$$,
                  $$VALUES ('李华'::text)$$, 'profiles of one agent on one platform');
SELECT is((SELECT pg_catalog.count(*) FROM memory.episodes(fx.tenant_a(), fx.sim_a())), 20::bigint,
          'episodes: all of them in one page');
SELECT results_eq($$SELECT episode_id FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_limit => 3)$$,
                  $$VALUES ('ep-1'::text), ('ep-2'), ('ep-3')$$, 'in the order they happened');
SELECT results_eq($$SELECT episode_id FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_limit => 3, p_after => 'ep-3')$$,
                  $$VALUES ('ep-4'::text), ('ep-5'), ('ep-6')$$, 'the next page starts after the last id');
SELECT is((SELECT pg_catalog.array_agg(episode_id ORDER BY episode_id)
             FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_action_type => 'like_post')),
          ARRAY['ep-10', 'ep-15', 'ep-20', 'ep-5'], 'by action type, in any case');
SELECT is((SELECT pg_catalog.count(*) FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_agent_id => 0)), 6::bigint,
          'by agent');
SELECT is((SELECT pg_catalog.count(*) FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_platform => 'twitter')), 10::bigint,
          'by platform');
SELECT is((SELECT pg_catalog.count(*) FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_round_from => 2, p_round_to => 3)), 8::bigint,
          'by round range');
SELECT is((SELECT pg_catalog.count(*) FROM memory.episodes(fx.tenant_a(), fx.sim_a(),
                   p_from => '2026-03-01T09:05:00Z', p_to => '2026-03-01T09:10:00Z')), 5::bigint,
          'by time window (from inclusive, to exclusive)');
SELECT is((SELECT pg_catalog.count(*) FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_limit => 5000)), 20::bigint,
          'a limit over 1000 is clamped, not refused');
SELECT throws_ok($$SELECT * FROM memory.episodes(fx.tenant_a(), fx.sim_a(), p_after => 'ep-404')$$,
                 'P0002', NULL, 'an unknown page cursor is P0002');
SELECT results_eq($$SELECT fact_type, valid_at, invalid_at, created_at, expired_at, episodes
                      FROM memory.get_edge(fx.tenant_a(), fx.sim_a(), 'e1')$$,
                  $$VALUES ('SUPPORTS'::text, '2026-03-01T09:00:00Z'::timestamptz, '2026-03-05T09:00:00Z'::timestamptz,
                            '2026-03-01T10:00:00Z'::timestamptz, '2026-03-05T10:00:00Z'::timestamptz,
                            ARRAY['ep-1', 'ep-2'])$$,
                  'get_edge reads back every field MiroFish sends');
SELECT throws_ok($$SELECT * FROM memory.get_edge(fx.tenant_a(), fx.sim_a(), 'e404')$$, 'P0002', NULL,
                 'an unknown edge is P0002');
SELECT throws_ok($$SELECT * FROM memory.get_edge(fx.tenant_a(), fx.sim_a(), NULL)$$, '22004', NULL,
                 'a NULL edge id is 22004');
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.profiles(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'another tenant''s profiles are refused');
SELECT throws_ok($$SELECT * FROM memory.episodes(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'another tenant''s episodes are refused');
SELECT throws_ok($$SELECT * FROM memory.get_edge(fx.tenant_b(), fx.sim_a(), 'e1')$$, 'P0002', NULL,
                 'an edge of another tenant''s simulation is unknown under one''s own tenant');
SELECT throws_ok($$SELECT * FROM memory.get_edge(fx.tenant_a(), fx.sim_a(), 'e1')$$, '42501', NULL,
                 'and refused under that tenant');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
