-- 034_quotas: per-tenant quotas (V0038). set_quota's refusals and who may call it; a write
-- that adds rows beyond a cap is refused whole with 53400 naming tenant, kind, cap and the
-- count it would reach (upserts, the staged import's commit, new simulations by
-- upsert_simulation and begin_import), the exact boundary passes, an update in place at the
-- cap passes, NULL clears a cap; tenant roles read their own tenant's caps only and write
-- none. The cap's row lock between concurrent writers is tested in tests/test_quotas.py.
BEGIN;
\ir _fixtures.psql
SELECT plan(35);

CREATE TEMP TABLE fx_digest (step text PRIMARY KEY, digest text) ON COMMIT DROP;
GRANT ALL ON fx_digest TO PUBLIC;
CREATE TEMP TABLE fx_attempt (attempt_id uuid) ON COMMIT DROP;
GRANT ALL ON fx_attempt TO PUBLIC;

-- Who may set a cap, and its refusals (8)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.set_quota(fx.tenant_a(), 'nodes', 1000000)$$, '42501', NULL,
                 'a writer may not set its own tenant''s quota');
SELECT throws_ok($$INSERT INTO memory.tenant_quotas (tenant_id, kind, max_rows) VALUES (fx.tenant_a(), 'edges', 1)$$,
                 '42501', NULL, 'nor write memory.tenant_quotas itself');
SELECT throws_ok($$SELECT memory._enforce_quota(fx.tenant_b(), 'nodes')$$, '42501', NULL,
                 'a writer may not lock another tenant''s quota through memory._enforce_quota');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT memory.set_quota(fx.tenant_a(), 'nodes', 1000000)$$, '42501', NULL,
                 'a reader may not set its tenant''s quota');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT throws_ok($$SELECT memory.set_quota(fx.tenant_a(), 'vertices', 10)$$, '22023', NULL, 'an unknown kind: 22023');
SELECT throws_ok($$SELECT memory.set_quota(fx.tenant_a(), 'nodes', -1)$$, '22023', NULL, 'a negative cap: 22023');
SELECT throws_ok($$SELECT memory.set_quota(fx.tenant_a(), NULL, 10)$$, '22004', NULL, 'a NULL kind: 22004');
SELECT throws_ok($$SELECT memory.set_quota(fx.unknown(), 'nodes', 10)$$, 'P0002', NULL, 'an unknown tenant: P0002');

-- A cap on nodes: the boundary, the refusal, nothing written (10)
SELECT memory.set_quota(fx.tenant_a(), 'nodes', 3);
SELECT memory.set_quota(fx.tenant_a(), 'nodes', 3);  -- repeating changes nothing
SELECT results_eq($$SELECT kind, max_rows, used FROM memory.quotas(fx.tenant_a()) WHERE kind IN ('simulations', 'nodes', 'edges')$$,
                  $$VALUES ('simulations'::text, NULL::bigint, 1::bigint), ('nodes', 3, 0), ('edges', NULL, 0)$$,
                  'quotas lists every kind, its cap (NULL: none) and what the tenant holds, simulations first');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT lives_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
                      '[{"id": "n1", "name": "one"}, {"id": "n2", "name": "two"}, {"id": "n3", "name": "three"}]')$$,
                'a batch that brings the tenant exactly to its cap passes');
INSERT INTO fx_digest VALUES ('at cap', fx.digest('nodes', fx.tenant_a(), fx.sim_a()));
SELECT throws_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
                       '[{"id": "n1", "name": "one, renamed"}, {"id": "n4", "name": "four"}]')$$,
                 '53400', NULL, 'one row beyond the cap: 53400 (configuration_limit_exceeded)');
SELECT is(fx.digest('nodes', fx.tenant_a(), fx.sim_a()), (SELECT digest FROM fx_digest WHERE step = 'at cap'),
          'nothing of the refused batch was written (not even its update of n1)');
SELECT is((SELECT message FROM fx.error($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
                                            '[{"id": "n4", "name": "four"}, {"id": "n5", "name": "five"}]')$$)),
          'tenant aaaaaaaa-0000-4000-8000-000000000000 would hold 5 nodes, over its quota of 3',
          'the message names the tenant, the count it would reach, the kind and the cap');
SELECT matches((SELECT hint FROM fx.error($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n4", "name": "four"}]')$$)),
               'cap of nodes with memory\.set_quota\(\)', 'the hint names the kind and memory.set_quota');
SELECT is((SELECT inserted + updated FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
                                            '[{"id": "n1", "name": "one, renamed"}]')), 1::bigint,
          'at the cap, an update in place passes');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_quota(fx.tenant_a(), 'edges', 0);
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
                       '[{"id": "e1", "type": "KNOWS", "source_id": "n1", "target_id": "n2"}]')$$,
                 '53400', NULL, 'a cap of 0 edges refuses upsert_edges (its own merge path)');
SELECT is(fx.stored('edges', fx.tenant_a(), fx.sim_a()), 0::bigint, 'and no edge is stored');
-- another tenant pays nothing for A's caps
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT inserted FROM memory.upsert_nodes(fx.tenant_b(), fx.sim_b(),
                  '[{"id": "b1", "name": "b1"}, {"id": "b2", "name": "b2"}, {"id": "b3", "name": "b3"}, {"id": "b4", "name": "b4"}]')),
          4::bigint, 'a tenant without a cap writes beyond another tenant''s');
RESET SESSION AUTHORIZATION;

-- The staged import's commit (4)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_quota(fx.tenant_a(), 'episodes', 1);
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.open_staging();
INSERT INTO fx_attempt SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{"episodes": null}');
INSERT INTO pg_temp.stage_episodes (episode_id, position, platform, action_type, content)
VALUES ('tw1', 0, 'twitter', 'CREATE_POST', U&'\6CB3\6EE8\8DEF\5E94\8BE5\7981\6B62\6C7D\8F66'), ('tw2', 1, 'twitter', 'CREATE_POST', 'The shops will suffer');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM fx_attempt));
SELECT throws_ok($$SELECT * FROM memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM fx_attempt))$$,
                 '53400', NULL, 'a promote beyond the cap of episodes: 53400');
SELECT is(fx.stored('episodes', fx.tenant_a(), fx.sim_a()), 0::bigint, 'nothing of the attempt was promoted');
SELECT is((SELECT state FROM memory.import_attempts(fx.tenant_a(), fx.sim_a())
            WHERE attempt_id = (SELECT attempt_id FROM fx_attempt)), 'loading',
          'the attempt stays open (it may be aborted, or committed once the cap is raised)');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_quota(fx.tenant_a(), 'episodes', 2);
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT inserted FROM memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM fx_attempt)) WHERE kind = 'episodes'),
          2::bigint, 'with the cap raised to the attempt''s rows the same attempt commits');
RESET SESSION AUTHORIZATION;

-- Simulations (5)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_quota(fx.tenant_a(), 'simulations', 1);
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000aa', 'second')$$,
                 '53400', NULL, 'a second simulation beyond a cap of 1: 53400');
SELECT throws_ok($$SELECT memory.begin_import(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000aa')$$,
                 '53400', NULL, 'begin_import of a new simulation beyond the cap: 53400');
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'sim-a renamed')$$,
                'at the cap, the existing simulation is still updated');
SELECT is((SELECT count(*) FROM memory.list_simulations(fx.tenant_a())), 1::bigint,
          'no refused simulation was created');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_quota(fx.tenant_a(), 'simulations', NULL);
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT lives_ok($$SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000aa', 'second')$$,
                'NULL cleared the cap: the second simulation is created');
RESET SESSION AUTHORIZATION;

-- NULL clears; a lowered cap removes nothing (3)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_quota(fx.tenant_a(), 'nodes', NULL);
SELECT is((SELECT max_rows FROM memory.quotas(fx.tenant_a()) WHERE kind = 'nodes'), NULL::bigint, 'NULL clears the cap');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT inserted FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "n4", "name": "four"}, {"id": "n5", "name": "five"}]')),
          2::bigint, 'without the cap the refused nodes are written');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.set_quota(fx.tenant_a(), 'nodes', 2);
SELECT is((SELECT used FROM memory.quotas(fx.tenant_a()) WHERE kind = 'nodes'), 5::bigint,
          'a cap set below what the tenant holds removes nothing');
RESET SESSION AUTHORIZATION;

-- Who sees a cap (5)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT kind, max_rows FROM memory.quotas(fx.tenant_a()) WHERE max_rows IS NOT NULL$$,
                  $$VALUES ('nodes'::text, 2::bigint), ('edges', 0), ('episodes', 2)$$,
                  'a role granted the tenant reads its caps');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.quotas(fx.tenant_a())$$, '42501', NULL, 'another tenant''s role may not read them');
SELECT is_empty($$SELECT * FROM memory.quotas(fx.tenant_b()) WHERE max_rows IS NOT NULL$$, 'its own tenant has no cap');
SELECT set_config('memory.tenant_id', fx.tenant_a()::text, true);
SELECT is((SELECT count(*) FROM memory.tenant_quotas), 0::bigint,
          'another tenant''s caps are invisible in the table, its tenant setting forged or not');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION nobody;
SELECT throws_ok($$SELECT * FROM memory.quotas(fx.tenant_a())$$, '42501', NULL, 'a role without a grant may not call quotas');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
