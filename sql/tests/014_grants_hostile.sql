-- 014_grants_hostile: what a hostile role would try against the grants and the audit.
-- A grant counts for the roles that have the granted role's privileges (USAGE), never for
-- mere membership (INHERIT FALSE, or the ADMIN-only membership a CREATEROLE creator holds);
-- it belongs to the role's OID, so it dies with the role, survives a rename and never passes
-- to a new role of the same name. Inside memory_owner's SECURITY DEFINER functions the caller
-- is the session user, so SET ROLE to a granted role does not open them. The audit flags
-- weakened policies, views over memory tables, PUBLIC grants, members of memory_owner,
-- NOINHERIT BYPASSRLS roles and tenants granted to group roles.
-- Identities switch with SET SESSION AUTHORIZATION (session_user and current_user both);
-- every role is created inside the transaction and rolls back with it.
BEGIN;
SELECT plan(49);
\ir _fixtures.psql

CREATE SCHEMA fx14;
GRANT USAGE ON SCHEMA fx14 TO PUBLIC;
-- The calls a role tries for a tenant: reading, writing, and deleting a simulation (the
-- last one a SECURITY DEFINER function).
CREATE FUNCTION fx14.read(p_tenant_id uuid, p_simulation_id uuid) RETURNS text LANGUAGE sql
    AS $$ SELECT pg_catalog.format('SELECT * FROM memory.nodes_by_type(%L, %L, NULL)', p_tenant_id, p_simulation_id) $$;
CREATE FUNCTION fx14.write(p_tenant_id uuid, p_simulation_id uuid) RETURNS text LANGUAGE sql
    AS $$ SELECT pg_catalog.format('SELECT * FROM memory.upsert_nodes(%L, %L, ''[{"id": "intruder", "name": "intruder"}]'')', p_tenant_id, p_simulation_id) $$;
CREATE FUNCTION fx14.delete(p_tenant_id uuid, p_simulation_id uuid) RETURNS text LANGUAGE sql
    AS $$ SELECT pg_catalog.format('SELECT * FROM memory.delete_simulation(%L, %L)', p_tenant_id, p_simulation_id) $$;
-- Rows of a tenant the current role sees directly with the setting forged to that tenant.
CREATE FUNCTION fx14.forged_rows(p_tenant_id uuid) RETURNS bigint LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
BEGIN
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    RETURN (SELECT pg_catalog.count(*) FROM memory.nodes) + (SELECT pg_catalog.count(*) FROM memory.simulations);
END
$$;
-- The audit's problem for a subject (a table, or a row added for a view, role or grant).
CREATE FUNCTION fx14.problem(p_subject text) RETURNS text LANGUAGE sql
    AS $$ SELECT a.problem FROM memory.rls_audit() AS a WHERE a.table_name = p_subject $$;

-- Tenant A holds three nodes and a simulation to delete; tenant C belongs to a role created
-- by a CREATEROLE operator.
SET LOCAL SESSION AUTHORIZATION app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a1", "name": "one"}, {"id": "a2", "name": "two"}, {"id": "a3", "name": "three"}]');
    PERFORM memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000d1', 'to delete');
END
$$;
RESET SESSION AUTHORIZATION;

-- gw_a holds tenant A; gw_b is a member without INHERIT and without SET; gw_i inherits;
-- gw_s may SET ROLE to it but does not inherit.
CREATE ROLE gw_a NOLOGIN IN ROLE memory_writer;
CREATE ROLE gw_b LOGIN IN ROLE memory_writer;
CREATE ROLE gw_i LOGIN IN ROLE memory_writer;
CREATE ROLE gw_s LOGIN IN ROLE memory_writer;
GRANT gw_a TO gw_b WITH INHERIT FALSE, SET FALSE;
GRANT gw_a TO gw_i WITH INHERIT TRUE;
GRANT gw_a TO gw_s WITH INHERIT FALSE, SET TRUE;
SELECT memory.grant_tenant('gw_a', fx.tenant_a());

-- Membership without INHERIT gives nothing (6)
SET LOCAL SESSION AUTHORIZATION gw_b;
SELECT ok(pg_catalog.pg_has_role('gw_b', 'gw_a', 'MEMBER'), 'fixture: gw_b is a member of gw_a');
SELECT throws_ok(fx14.read(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'gw_b (member, INHERIT FALSE, SET FALSE) may not read A');
SELECT throws_ok(fx14.write(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'gw_b may not write A');
SELECT throws_ok(fx14.delete(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'gw_b may not delete A''s simulation (SECURITY DEFINER)');
SELECT is(fx14.forged_rows(fx.tenant_a()), 0::bigint, 'gw_b sees no row of A directly with the setting forged to A');
SELECT throws_ok($$INSERT INTO memory.nodes (tenant_id, simulation_id, node_id, name, type) VALUES (fx.tenant_a(), fx.sim_a(), 'forged', 'forged', 'T')$$,
                 '42501', NULL, 'gw_b may not insert a row of A directly (RLS WITH CHECK)');
RESET SESSION AUTHORIZATION;

-- Membership with INHERIT acts for the tenant (4)
SET LOCAL SESSION AUTHORIZATION gw_i;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'gw_i (member with INHERIT) reads A''s nodes');
SELECT lives_ok(fx14.write(fx.tenant_a(), fx.sim_a()), 'gw_i writes to A');
SELECT results_eq(fx14.delete(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-0000000000d1'), $$VALUES (0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint)$$,
                  'gw_i deletes a simulation of A (SECURITY DEFINER: its session user has the grant)');
SELECT is(fx14.forged_rows(fx.tenant_b()), 0::bigint, 'gw_i sees nothing of B with the setting forged to B');
RESET SESSION AUTHORIZATION;

-- SET ROLE to the granted role: every function acts as gw_a, the SECURITY DEFINER ones too
-- (memory._acting_role: the role SET ROLE chose), and RESET ROLE ends it (3)
SET LOCAL SESSION AUTHORIZATION gw_s;
SET LOCAL ROLE gw_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 4::bigint,
          'gw_s after SET ROLE gw_a reads A as gw_a (invoker function)');
SELECT throws_ok(fx14.delete(fx.tenant_a(), fx.unknown()), 'P0002', NULL,
                 'gw_s after SET ROLE gw_a passes the definer''s grant check as gw_a (P0002: no such simulation, not 42501)');
RESET ROLE;
SELECT throws_ok(fx14.read(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'gw_s as itself may not read A');
RESET SESSION AUTHORIZATION;

-- A CREATEROLE operator is an ADMIN-only member of the roles it creates: it reads nothing of
-- their tenants (5)
CREATE ROLE gw_op LOGIN CREATEROLE IN ROLE memory_writer;
SET LOCAL SESSION AUTHORIZATION gw_op;
CREATE ROLE gw_c LOGIN;
RESET SESSION AUTHORIZATION;
GRANT memory_writer TO gw_c;
SELECT memory.create_tenant('pgtap-tenant-c', 'cccccccc-0000-4000-8000-00000000000c');
SELECT memory.grant_tenant('gw_c', 'cccccccc-0000-4000-8000-00000000000c');
SET LOCAL SESSION AUTHORIZATION gw_c;
SELECT memory.upsert_simulation('cccccccc-0000-4000-8000-00000000000c', fx.sim_a(), 'sim of C');
SELECT lives_ok(fx14.read('cccccccc-0000-4000-8000-00000000000c', fx.sim_a()), 'control: gw_c reads its tenant C');
RESET SESSION AUTHORIZATION;
SELECT ok((SELECT m.admin_option AND NOT m.inherit_option AND NOT m.set_option FROM pg_catalog.pg_auth_members AS m
            WHERE m.roleid = 'gw_c'::regrole AND m.member = 'gw_op'::regrole),
          'fixture: gw_op is an ADMIN-only member of the role it created');
SET LOCAL SESSION AUTHORIZATION gw_op;
SELECT throws_ok(fx14.read('cccccccc-0000-4000-8000-00000000000c', fx.sim_a()), '42501', NULL,
                 'the CREATEROLE operator may not read tenant C of the role it created');
SELECT throws_ok(fx14.write('cccccccc-0000-4000-8000-00000000000c', fx.sim_a()), '42501', NULL,
                 'the CREATEROLE operator may not write tenant C');
SELECT is(fx14.forged_rows('cccccccc-0000-4000-8000-00000000000c'), 0::bigint,
          'the CREATEROLE operator sees no row of C with the setting forged to C');
RESET SESSION AUTHORIZATION;

-- A dropped role's grant authorises nobody, and a new role of the same name gains nothing (6)
CREATE ROLE gw_d LOGIN IN ROLE memory_writer;
SELECT memory.grant_tenant('gw_d', fx.tenant_a());
SET LOCAL SESSION AUTHORIZATION gw_d;
SELECT lives_ok(fx14.read(fx.tenant_a(), fx.sim_a()), 'control: gw_d reads A before it is dropped');
RESET SESSION AUTHORIZATION;
DROP ROLE gw_d;
CREATE ROLE gw_d LOGIN IN ROLE memory_writer;
SET LOCAL SESSION AUTHORIZATION gw_d;
SELECT throws_ok(fx14.read(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'a new role named gw_d may not read A');
SELECT throws_ok(fx14.write(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'a new role named gw_d may not write A');
SELECT is(fx14.forged_rows(fx.tenant_a()), 0::bigint, 'a new role named gw_d sees no row of A with the setting forged to A');
RESET SESSION AUTHORIZATION;
SELECT matches(fx14.problem('grant of tenant ' || fx.tenant_a() || ' to gw_d'), 'gw_d, OID [0-9]+\) was dropped',
               'the audit reports the dropped role''s grant');
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.grant_tenant('app_b', fx.tenant_b());
RESET SESSION AUTHORIZATION;
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenant_grants AS g
            WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.oid = g.role_oid)), 0::bigint,
          'the next grant_tenant removes the grants of dropped roles');

-- A renamed role keeps its grant; a new role with the old name gains nothing; revoke goes by OID (4)
CREATE ROLE gw_e LOGIN IN ROLE memory_writer;
SELECT memory.grant_tenant('gw_e', fx.tenant_a());
ALTER ROLE gw_e RENAME TO gw_e2;
CREATE ROLE gw_e LOGIN IN ROLE memory_writer;
SET LOCAL SESSION AUTHORIZATION gw_e2;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 4::bigint,
          'the renamed role gw_e2 still reads A');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION gw_e;
SELECT throws_ok(fx14.read(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'a new role under the old name gw_e may not read A');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.revoke_tenant('gw_e', fx.tenant_a());
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION gw_e2;
SELECT lives_ok(fx14.read(fx.tenant_a(), fx.sim_a()), 'revoking the new gw_e leaves gw_e2''s grant in place');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.revoke_tenant('gw_e2', fx.tenant_a());
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION gw_e2;
SELECT throws_ok(fx14.read(fx.tenant_a(), fx.sim_a()), '42501', NULL, 'after revoke_tenant(''gw_e2'') the renamed role may not read A');
RESET SESSION AUTHORIZATION;

-- Tenants are never granted to the shared group roles (5)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT throws_ok(pg_catalog.format('SELECT memory.grant_tenant(%L, %L)', r, fx.tenant_a()), '22023', NULL,
                 'grant_tenant refuses the group role ' || r)
  FROM pg_catalog.unnest(ARRAY['memory_owner', 'memory_reader', 'memory_writer', 'memory_admin']) AS r;
RESET SESSION AUTHORIZATION;
INSERT INTO memory.tenant_grants (tenant_id, role_oid, role_name) VALUES (fx.tenant_a(), 'memory_writer'::regrole, 'memory_writer');
SELECT matches(fx14.problem('grant of tenant ' || fx.tenant_a() || ' to memory_writer'), 'shared group role memory_writer',
               'the audit reports a tenant granted to memory_writer behind grant_tenant''s back');

-- The audit: a clean start, then each weakened policy (7)
SELECT is_empty($$SELECT table_name FROM memory.rls_audit() WHERE NOT ok AND table_name NOT LIKE 'grant of tenant %'$$,
                'before the hostile changes, only the grant to memory_writer is reported');
CREATE POLICY weak_one_equals_one ON memory.nodes FOR SELECT TO memory_reader USING (1 = 1);
CREATE POLICY weak_not_null ON memory.edges FOR SELECT TO memory_reader USING (tenant_id IS NOT NULL);
ALTER POLICY readers_see_rows_of_the_granted_call_tenant ON memory.episodes
    USING (tenant_id = (SELECT memory._current_tenant_id()) OR CURRENT_USER IS NOT NULL);
ALTER POLICY readers_see_rows_of_the_granted_call_tenant ON memory.profiles TO PUBLIC;
DROP POLICY writers_add_rows_to_the_granted_call_tenant ON memory.simulations;
CREATE POLICY weak_restrictive ON memory.staged_nodes AS RESTRICTIVE FOR SELECT TO memory_reader USING (true);
SELECT matches(fx14.problem('nodes'), 'policy weak_one_equals_one is not one the migrations install .*USING \(1 = 1\)',
               'a USING (1 = 1) policy is reported');
SELECT matches(fx14.problem('edges'), 'policy weak_not_null is not one the migrations install .*tenant_id IS NOT NULL',
               'a tenant_id IS NOT NULL policy is reported');
SELECT matches(fx14.problem('episodes'), 'policy readers_see_rows_of_the_granted_call_tenant differs from its installed form .*CURRENT_USER IS NOT NULL',
               'an installed policy widened with OR current_user IS NOT NULL is reported');
SELECT matches(fx14.problem('profiles'), 'policy readers_see_rows_of_the_granted_call_tenant differs from its installed form .*TO public',
               'an installed policy moved to PUBLIC is reported');
SELECT matches(fx14.problem('simulations'), 'installed policy writers_add_rows_to_the_granted_call_tenant is missing',
               'a missing installed policy is reported');
SELECT matches(fx14.problem('staged_nodes'), 'policy weak_restrictive is not one the migrations install \(RESTRICTIVE',
               'any other policy, restrictive too, is reported');

-- Views, PUBLIC grants, owner members, BYPASSRLS roles (9)
CREATE VIEW public.pgtap_leak AS SELECT e.tenant_id, e.content FROM memory.episodes AS e;
CREATE MATERIALIZED VIEW public.pgtap_copy AS SELECT n.tenant_id, n.name FROM memory.nodes AS n;
SELECT matches(fx14.problem('view public.pgtap_leak'), 'reads memory tables \(episodes\).*DROP VIEW public.pgtap_leak',
               'a view over memory.episodes is reported');
SELECT matches(fx14.problem('materialized view public.pgtap_copy'), 'reads memory tables \(nodes\).*DROP MATERIALIZED VIEW public.pgtap_copy',
               'a materialized view over memory.nodes is reported');
GRANT SELECT ON memory.import_attempts TO PUBLIC;
GRANT UPDATE (name) ON memory.staged_profiles TO gw_b;
SELECT matches(fx14.problem('import_attempts'), 'privileges held outside the memory group roles: PUBLIC \(SELECT\)',
               'a PUBLIC table grant is reported');
SELECT matches(fx14.problem('staged_profiles'), 'gw_b \(UPDATE \(name\)\)', 'a column grant to a foreign role is reported');
CREATE ROLE gw_owner_member IN ROLE memory_owner;
CREATE ROLE gw_owner_setter;
GRANT memory_owner TO gw_owner_setter WITH INHERIT FALSE, SET TRUE;
SELECT matches(fx14.problem('role gw_owner_member'), 'REVOKE memory_owner FROM gw_owner_member', 'a member of memory_owner is reported');
SELECT matches(fx14.problem('role gw_owner_setter'), 'may SET ROLE to it', 'a role that may SET ROLE memory_owner is reported');
CREATE ROLE gw_bypass NOINHERIT BYPASSRLS IN ROLE memory_reader;
SELECT matches(fx14.problem('tenants'), 'BYPASSRLS can reach it: .*gw_bypass', 'a NOINHERIT BYPASSRLS member of memory_reader is reported');
SELECT is((SELECT pg_catalog.count(*) FROM memory.rls_audit() WHERE ok), 0::bigint,
          'with a BYPASSRLS member of memory_reader, no table is ok');
SELECT is_empty($$SELECT table_name FROM memory.rls_audit() WHERE NOT ok AND (problem IS NULL OR problem = '')$$,
                'every row that is not ok says what to do');

SELECT * FROM finish();
ROLLBACK;
