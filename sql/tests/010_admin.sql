-- 010_admin: the admin API's normal paths. create_tenant makes a tenant or returns the one
-- of that name; a tenant is usable by a role once granted, and only then; grant_tenant
-- records who granted and is idempotent; revoke_tenant removes a grant and is a no-op for a
-- grant that is not there. The administrator itself reads and writes no tenant's data.
-- (The admin API's errors are in 005, its refusals for other roles in 003 and 004.)
BEGIN;
SELECT plan(32);
\ir _fixtures.psql

CREATE FUNCTION fx.grants_of(p_tenant_id uuid) RETURNS TABLE (role_name text, granted_by text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT g.role_name::text, g.granted_by::text FROM memory.tenant_grants AS g WHERE g.tenant_id = p_tenant_id ORDER BY 1
$$;
CREATE TABLE fx.made (what text PRIMARY KEY, tenant_id uuid);
GRANT SELECT, INSERT ON fx.made TO PUBLIC;

SET LOCAL ROLE app_b;
DO $$ BEGIN PERFORM memory.upsert_nodes(fx.tenant_b(), fx.sim_b(), '[{"id": "b1", "name": "beta one"}]'); END $$;
RESET ROLE;

-- create_tenant (7)
SET LOCAL ROLE admin;
INSERT INTO fx.made SELECT 'c', memory.create_tenant('pgtap-tenant-c');
SELECT ok((SELECT tenant_id IS NOT NULL AND tenant_id NOT IN (fx.tenant_a(), fx.tenant_b()) FROM fx.made WHERE what = 'c'),
          'create_tenant without an id returns a new tenant id');
SELECT is((SELECT name FROM memory.tenants WHERE tenant_id = (SELECT tenant_id FROM fx.made WHERE what = 'c')), 'pgtap-tenant-c',
          'the tenant is stored under its name');
SELECT is(memory.create_tenant('pgtap-tenant-c'), (SELECT tenant_id FROM fx.made WHERE what = 'c'),
          'create_tenant repeated by name returns the same tenant');
SELECT is(memory.create_tenant('pgtap-tenant-c', (SELECT tenant_id FROM fx.made WHERE what = 'c')),
          (SELECT tenant_id FROM fx.made WHERE what = 'c'), 'create_tenant repeated with name and id returns the same tenant');
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenants WHERE name LIKE 'pgtap-%'), 3::bigint,
          'the repeated calls added no tenant');
SELECT is(memory.create_tenant('pgtap-tenant-d', 'dddddddd-0000-4000-8000-000000000000'),
          'dddddddd-0000-4000-8000-000000000000'::uuid, 'create_tenant with an explicit id returns it');
SELECT is((SELECT name FROM memory.tenants WHERE tenant_id = 'dddddddd-0000-4000-8000-000000000000'), 'pgtap-tenant-d',
          'the explicit id is the stored one');
RESET ROLE;

-- A new tenant is usable once granted, and only then (4)
SET LOCAL ROLE nobody;
SELECT throws_ok($$SELECT memory.upsert_simulation('dddddddd-0000-4000-8000-000000000000', fx.unknown(), 'd')$$,
                 '42501', NULL, 'before the grant nobody may not write the new tenant');
RESET ROLE;
SET LOCAL ROLE admin;
SELECT lives_ok($$SELECT memory.grant_tenant('nobody', 'dddddddd-0000-4000-8000-000000000000')$$,
                'the admin grants the new tenant to nobody');
RESET ROLE;
SET LOCAL ROLE nobody;
SELECT lives_ok($$SELECT memory.upsert_simulation('dddddddd-0000-4000-8000-000000000000', fx.unknown(), 'd')$$,
                'after the grant nobody writes a simulation of the new tenant');
SELECT results_eq($$SELECT name FROM memory.simulation_stats('dddddddd-0000-4000-8000-000000000000', fx.unknown())$$,
                  ARRAY['d'], 'and reads it back');
RESET ROLE;

-- grant_tenant (5)
SELECT results_eq($$SELECT * FROM fx.grants_of(fx.tenant_b())$$, $$VALUES ('app_b', 'postgres')$$,
                  'fixture: tenant B is granted to app_b alone');
SET LOCAL ROLE admin;
SELECT lives_ok($$SELECT memory.grant_tenant('reader_a', fx.tenant_b())$$, 'grant_tenant gives reader_a tenant B');
SELECT lives_ok($$SELECT memory.grant_tenant('reader_a', fx.tenant_b())$$, 'granting it again runs');
RESET ROLE;
SELECT results_eq($$SELECT * FROM fx.grants_of(fx.tenant_b())$$, $$VALUES ('app_b', 'postgres'), ('reader_a', 'admin')$$,
                  'the grant is recorded once, with the administrator who made it');
SET LOCAL ROLE reader_a;
SELECT results_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_b(), fx.sim_b(), NULL)$$, ARRAY['b1'],
                  'the grantee reads the tenant');
RESET ROLE;

-- revoke_tenant (6)
SET LOCAL ROLE admin;
SELECT lives_ok($$SELECT memory.revoke_tenant('reader_a', fx.tenant_a())$$, 'revoke_tenant of reader_a for A runs');
RESET ROLE;
SELECT results_eq($$SELECT * FROM fx.grants_of(fx.tenant_a())$$, $$VALUES ('app_a', 'postgres')$$,
                  'the grant of reader_a for A is gone, app_a''s stays');
SET LOCAL ROLE reader_a;
SELECT throws_ok($$SELECT * FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'x')$$, '42501', NULL,
                 'reader_a may no longer read A');
RESET ROLE;
SET LOCAL ROLE admin;
SELECT lives_ok($$SELECT memory.revoke_tenant('reader_a', fx.tenant_a())$$, 'revoking a grant that is not there runs');
SELECT lives_ok($$SELECT memory.revoke_tenant('pgtap_no_such_role', fx.unknown())$$, 'revoking for an unknown role and tenant runs');
RESET ROLE;
SELECT is((SELECT string_agg(tenant_id::text || ' ' || role_name::text, ', ' ORDER BY tenant_id, role_name) FROM memory.tenant_grants),
          pg_catalog.format('%s app_a, %s app_b, %s reader_a, dddddddd-0000-4000-8000-000000000000 nobody',
                            fx.tenant_a(), fx.tenant_b(), fx.tenant_b()),
          'the no-op revokes changed no grant');

-- The administrator reads and writes no tenant's data (8): every API function and a direct
-- SELECT of the data tables are refused.
SET LOCAL ROLE app_a;
DO $$ BEGIN PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "shared", "name": "shared"}]'); END $$;
RESET ROLE;
SET LOCAL ROLE admin;
SELECT ok(NOT EXISTS (SELECT 1 FROM fx.calls AS c
                       WHERE COALESCE((SELECT e.code FROM fx.error(fx.sql(c.call, fx.tenant_a(), fx.sim_a())) AS e), '') <> '42501'),
          'the admin calling any API function for tenant A: 42501 from every one');
SELECT throws_ok(pg_catalog.format('SELECT * FROM memory.%I', t), '42501', NULL, 'the admin may not read memory.' || t)
  FROM unnest(ARRAY['simulations', 'nodes', 'edges', 'episodes', 'profiles', 'import_attempts', 'staged_nodes']) AS t;
RESET ROLE;

-- A superuser acts for every tenant, one it has just created and granted to nobody
-- included (the embedded server's default login imports without a grant) (2); the admin,
-- above, still may not.
SELECT lives_ok($$SELECT memory.upsert_simulation(memory.create_tenant('su-only'), '5a5a5a5a-0000-4000-8000-000000000001', 'su-run')$$,
                'a superuser writes into a tenant without a grant');
SELECT is((SELECT s.name FROM memory.list_simulations((SELECT t.tenant_id FROM memory.tenants AS t WHERE t.name = 'su-only')) AS s),
          'su-run', 'and reads it back through the API');

SELECT * FROM finish();
ROLLBACK;
