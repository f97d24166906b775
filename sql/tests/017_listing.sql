-- 017_listing: a caller lists the tenants it may act for and their simulations by name
-- (issue 10, point 6), and nothing else.
BEGIN;
\ir _fixtures.psql
SELECT plan(15);

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

-- A reference resolves by exact name before MiroFish id before graph id: the same run
-- imported again under another name shares the MiroFish id, and the simulation named with it
-- still answers to it alone.
SELECT memory.upsert_simulation(fx.tenant_a(), fx.unknown(), 'sim_3f2a9c1b7d4e',
                                '{"simulation_id": "sim_3f2a9c1b7d4e", "graph_id": "mirofish_g1"}');
SELECT results_eq($$SELECT simulation_id, matched_by FROM memory.resolve_simulation(fx.tenant_a(), 'sim_3f2a9c1b7d4e')$$,
                  $$VALUES (fx.unknown(), 'name'::text)$$,
                  'an exact name wins over a MiroFish id another simulation carries');
SELECT results_eq($$SELECT simulation_id, matched_by FROM memory.resolve_simulation(fx.tenant_a(), 'mirofish_g1')$$,
                  $$VALUES (fx.unknown(), 'graph_id'::text)$$, 'a MiroFish graph id names its simulation');
SELECT memory.upsert_simulation(fx.tenant_a(), fx.unknown(), 'copy');
SELECT set_eq($$SELECT simulation_id FROM memory.resolve_simulation(fx.tenant_a(), 'sim_3f2a9c1b7d4e')$$,
              ARRAY[fx.sim_a(), fx.unknown()],
              'a MiroFish id two simulations carry gives both as candidates');
SELECT is_empty($$SELECT * FROM memory.resolve_simulation(fx.tenant_a(), 'Riverside-Debate')$$,
                'a name matches exactly, case included');
SELECT throws_ok($$SELECT * FROM memory.resolve_simulation(fx.tenant_b(), 'sim-b')$$, '42501', NULL,
                 'another tenant''s simulations are not resolved');
SELECT throws_ok($$SELECT * FROM memory.resolve_simulation(fx.tenant_a(), NULL)$$, '22004', NULL,
                 'a NULL reference is refused');
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
