-- 017_listing: a caller lists the tenants it may act for and their simulations by name
-- (issue 10, point 6), and nothing else.
BEGIN;
\ir _fixtures.psql
SELECT plan(9);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'riverside-debate',
                                '{"simulation_id": "sim_3f2a9c1b7d4e"}');
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT tenant_id FROM memory.list_tenants()$$,
                  $$VALUES (fx.tenant_a())$$, 'a writer lists the one tenant it is granted');
SELECT results_eq($$SELECT simulation_id, name, mirofish_id, published FROM memory.list_simulations(fx.tenant_a())$$,
                  $$VALUES (fx.sim_a(), 'riverside-debate'::text, 'sim_3f2a9c1b7d4e'::text, true)$$,
                  'its simulations with name and MiroFish id');
SELECT throws_ok($$SELECT * FROM memory.list_simulations(fx.tenant_b())$$, '42501', NULL,
                 'another tenant''s simulations are refused');
SELECT throws_ok($$SELECT * FROM memory.list_simulations(NULL)$$, '22004', NULL, 'a NULL tenant is refused');
SELECT pg_catalog.set_config('memory.tenant_id', '', true);
SELECT is((SELECT pg_catalog.count(*) FROM memory.list_tenants()) || '/' ||
          pg_catalog.current_setting('memory.tenant_id', true), '1/',
          'list_tenants leaves the call''s tenant as it found it');
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT tenant_id FROM memory.list_tenants()$$,
                  $$VALUES (fx.tenant_a())$$, 'a reader lists the tenant it is granted');
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION nobody;
SELECT is_empty($$SELECT * FROM memory.list_tenants()$$, 'a role without grants lists no tenant');
SELECT lives_ok($$SELECT pg_catalog.set_config('memory.tenant_id', fx.tenant_a()::text, true)$$,
                'a forged call tenant');
SELECT is_empty($$SELECT * FROM memory.list_tenants()$$, 'still lists no tenant');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
