-- 028_retention: retention and compaction (issue 14, item 5). set_retention's refusals;
-- sweep deletes a tenant's simulations older than its keep_days (by their last change),
-- keeps the young ones and one being imported into, and says so in the feed; compaction
-- clumps an agent's near-duplicate episodes (never across agents), keeping or dropping the
-- others by policy, and is one change in the feed. sweep_tenant is one tenant's sweep.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(22);

CREATE FUNCTION fx.near(p_k integer, p_eps real) RETURNS jsonb LANGUAGE sql IMMUTABLE
    AS $$ SELECT pg_catalog.to_jsonb(pg_catalog.array_agg(CASE WHEN i = p_k THEN 1.0 WHEN i = p_k + 1 THEN p_eps ELSE 0.01 END ORDER BY i))
            FROM pg_catalog.generate_series(1, 384) AS i $$;

-- Refusals (4)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.set_retention(fx.tenant_a(), 30)$$, '42501', NULL, 'a writer may not set retention');
SELECT throws_ok($$SELECT * FROM memory.sweep()$$, '42501', NULL, 'nor sweep');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT throws_ok($$SELECT memory.set_retention(fx.tenant_a(), 0)$$, '22023', NULL, 'keep_days below 1: 22023');
SELECT throws_ok($$SELECT memory.set_retention(fx.unknown(), 30)$$, 'P0002', NULL, 'an unknown tenant: P0002');
RESET SESSION AUTHORIZATION;

-- Retention (6)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000aa', 'old');
SELECT memory.upsert_nodes(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000aa', '[{"id": "n", "name": "n"}]');
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000bb', 'old but importing');
SELECT memory.begin_import(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000bb');
RESET SESSION AUTHORIZATION;
UPDATE memory.simulations SET updated_at = now() - interval '40 days'
 WHERE simulation_id IN ('aaaaaaaa-5151-4000-8000-0000000000aa', 'aaaaaaaa-5151-4000-8000-0000000000bb', fx.sim_b());
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_retention(fx.tenant_a(), 30);
SELECT results_eq($$SELECT tenant_id, simulation_id, action, detail ->> 'nodes' FROM memory.sweep() ORDER BY action$$,
                  $$VALUES (fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000aa'::uuid, 'deleted'::text, '1'::text),
                           (fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000bb'::uuid, 'kept_importing'::text, NULL::text)$$,
                  'sweep deletes the tenant''s simulation older than 30 days and keeps the one being imported into');
SELECT is((SELECT count(*) FROM memory.sweep()), 1::bigint, 'a second sweep has only the importing one to report');
-- sweep_tenant: one tenant's sweep, as a cluster runs it (3)
SELECT results_eq($$SELECT tenant_id, simulation_id, action FROM memory.sweep_tenant(fx.tenant_a())$$,
                  $$VALUES (fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000bb'::uuid, 'kept_importing'::text)$$,
                  'sweep_tenant reports as sweep does for its tenant');
SELECT is_empty($$SELECT * FROM memory.sweep_tenant(fx.tenant_b())$$, 'a tenant without a policy: nothing swept');
SELECT throws_ok($$SELECT * FROM memory.sweep_tenant(NULL)$$, '22004', NULL, 'sweep_tenant of a NULL tenant: 22004');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.sweep_tenant(fx.tenant_a())$$, '42501', NULL, 'a writer may not sweep a tenant');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT count(*) FROM memory.simulations WHERE tenant_id = fx.tenant_a()), 2::bigint,
          'sim_a (young) and the importing one remain');
SELECT is((SELECT count(*) FROM memory.simulations WHERE simulation_id = fx.sim_b()), 1::bigint,
          'tenant B has no policy: its old simulation stays');
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT kind, op, simulation_id, counts ->> 'nodes', detail ->> 'keep_days'
                      FROM memory.changes_since(fx.tenant_a(), NULL) WHERE op = 'retention'$$,
                  $$VALUES ('simulation'::text, 'retention'::text, 'aaaaaaaa-5151-4000-8000-0000000000aa'::uuid, '1'::text, '30'::text)$$,
                  'the retention delete is in the feed with its counts');
SELECT results_eq($$SELECT keep_days, compact_similarity FROM memory.retention_rules$$,
                  $$VALUES (30, NULL::real)$$, 'readers see their tenant''s policy');
RESET SESSION AUTHORIZATION;

-- Compaction (7)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'a1', 'agent_id', 1, 'action_type', 'CREATE_POST', 'content', 'close the road', 'occurred_at', '2025-01-01', 'embedding', fx.emb(5)),
    pg_catalog.jsonb_build_object('id', 'a2', 'agent_id', 1, 'action_type', 'REPOST', 'content', 'close the road!', 'occurred_at', '2025-01-02', 'embedding', fx.near(5, 0.02)),
    pg_catalog.jsonb_build_object('id', 'a3', 'agent_id', 1, 'action_type', 'REPOST', 'content', 'close the road!!', 'occurred_at', '2025-01-03', 'embedding', fx.near(5, 0.03)),
    pg_catalog.jsonb_build_object('id', 'a4', 'agent_id', 1, 'action_type', 'CREATE_POST', 'content', 'shops suffer', 'occurred_at', '2025-01-04', 'embedding', fx.emb(9)),
    pg_catalog.jsonb_build_object('id', 'b1', 'agent_id', 2, 'action_type', 'REPOST', 'content', 'close the road', 'occurred_at', '2025-01-02', 'embedding', fx.emb(5))));
SELECT throws_ok($$SELECT * FROM memory.compact_episodes(fx.tenant_a(), fx.sim_a(), 0.5)$$, '22023', NULL,
                 'a similarity of 0.5 is no near duplicate: 22023');
SELECT throws_ok($$SELECT * FROM memory.compact_episodes(fx.tenant_b(), fx.sim_b())$$, '42501', NULL,
                 'another tenant''s simulation: 42501');
SELECT results_eq($$SELECT * FROM memory.compact_episodes(fx.tenant_a(), fx.sim_a())$$, $$VALUES (1, 2, 0)$$,
                  'agent 1''s three near-identical posts are one clump of 3; agent 2''s copy is not in it; kept');
SELECT results_eq($$SELECT * FROM memory.compact_episodes(fx.tenant_a(), fx.sim_a())$$, $$VALUES (0, 0, 0)$$,
                  'the compaction replayed writes nothing (and records no change: the feed below holds two)');
SELECT results_eq($$SELECT representative_id, members, member_ids, dropped FROM memory.episode_clumps$$,
                  $$VALUES ('a1'::text, 3, '{a2,a3}'::text[], false)$$, 'the earliest is the representative, with its count');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_retention(fx.tenant_a(), NULL, 0.99, true);
SELECT results_eq($$SELECT action, detail FROM memory.sweep(fx.tenant_a())$$,
                  $$VALUES ('compacted'::text, '{"clumps": 1, "episodes": 2, "dropped": 2}'::jsonb)$$,
                  'a sweep by a dropping policy compacts and deletes the duplicates');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT array_agg(episode_id ORDER BY episode_id) FROM memory.episodes WHERE simulation_id = fx.sim_a()),
          '{a1,a4,b1}'::text[], 'the representative and the distinct episodes remain');
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT op, ids, counts FROM memory.changes_since(fx.tenant_a(), NULL) WHERE op = 'compact' ORDER BY change_id$$,
                  $$VALUES ('compact'::text, '{a2,a3}'::text[], '{"clumps": 1, "episodes": 2, "deleted": 0}'::jsonb),
                           ('compact', '{a2,a3}', '{"clumps": 1, "episodes": 2, "deleted": 2}')$$,
                  'each compaction is one change in the feed, with the clumped ids');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
