-- 003_rls_audit: memory.rls_audit() is clean on the migrated schema and reports the table
-- problems: RLS off, RLS not forced, no policy, a policy the migrations do not install (a
-- `true` one among them), a BYPASSRLS role that can reach a table (directly or through a
-- group). Admins may call it, writers and readers may not. The hostile variants (weakened
-- policies, views, PUBLIC grants, owner members, group grants) are in 014_grants_hostile.
BEGIN;
SELECT plan(27);

-- The migrated schema is clean (6)
-- (001_schema pins the list of tables; here the audit must cover whatever the schema holds.)
CREATE TEMP TABLE fx_tables ON COMMIT DROP AS
    SELECT c.relname::text AS table_name
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p');
GRANT SELECT ON fx_tables TO PUBLIC;
SELECT cmp_ok((SELECT pg_catalog.count(*) FROM memory.rls_audit()), '>=', 7::bigint,
              'rls_audit reports at least the seven tables of DESIGN.md');
SELECT bag_eq($$SELECT table_name FROM memory.rls_audit()$$, $$SELECT table_name FROM fx_tables$$,
              'rls_audit reports each table of schema memory, once');
SELECT is_empty($$SELECT table_name FROM memory.rls_audit() WHERE ok IS DISTINCT FROM true$$,
                'every table of the migrated schema is ok');
SELECT is_empty($$SELECT table_name, problem FROM memory.rls_audit() WHERE problem IS NOT NULL$$,
                'no table of the migrated schema has a problem');
SELECT results_eq(
    $$SELECT rls_enabled, rls_forced, policies::text COLLATE "C" FROM memory.rls_audit() WHERE table_name = 'nodes'$$,
    $$SELECT true, true, array_agg(policy_name::text ORDER BY policy_name)::text COLLATE "C" FROM memory._installed_policies() WHERE table_name = 'nodes'$$,
    'rls_audit shows the RLS state and the installed policies of memory.nodes');
SELECT results_eq(
    $$SELECT rls_enabled, rls_forced, policies::text COLLATE "C" FROM memory.rls_audit() WHERE table_name = 'tenants'$$,
    $$SELECT true, true, array_agg(policy_name::text ORDER BY policy_name)::text COLLATE "C" FROM memory._installed_policies() WHERE table_name = 'tenants'$$,
    'rls_audit shows the RLS state and the installed policies of memory.tenants');

-- Fixtures: four ways to get it wrong (all rolled back)
CREATE TABLE memory.rogue (tenant_id uuid);

CREATE TABLE memory.half (tenant_id uuid);
ALTER TABLE memory.half ENABLE ROW LEVEL SECURITY;
CREATE POLICY half_rows_of_the_call_tenant ON memory.half
    USING (tenant_id = (SELECT memory._current_tenant_id()));

CREATE TABLE memory.open (tenant_id uuid);
ALTER TABLE memory.open ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.open FORCE ROW LEVEL SECURITY;
CREATE POLICY anyone_sees_everything ON memory.open FOR SELECT USING (true);
CREATE POLICY anyone_adds_anything ON memory.open FOR INSERT WITH CHECK (true);

CREATE ROLE pgtap_bypasser NOLOGIN BYPASSRLS;
GRANT SELECT ON memory.episodes TO pgtap_bypasser;
CREATE ROLE pgtap_bypass_member NOLOGIN BYPASSRLS;
GRANT memory_reader TO pgtap_bypass_member;

-- Each problem is reported (17)
SELECT is((SELECT ok FROM memory.rls_audit() WHERE table_name = 'rogue'), false,
          'a table without RLS is not ok');
SELECT is((SELECT rls_enabled FROM memory.rls_audit() WHERE table_name = 'rogue'), false,
          'a table without RLS shows rls_enabled false');
SELECT matches((SELECT problem FROM memory.rls_audit() WHERE table_name = 'rogue'),
               'row level security is disabled', 'a table without RLS: the problem says RLS is disabled');
SELECT matches((SELECT problem FROM memory.rls_audit() WHERE table_name = 'rogue'),
               'no policy', 'a table without policies: the problem says there is no policy');

SELECT is((SELECT ok FROM memory.rls_audit() WHERE table_name = 'half'), false,
          'a table with RLS enabled but not forced is not ok');
SELECT results_eq($$SELECT rls_enabled, rls_forced FROM memory.rls_audit() WHERE table_name = 'half'$$,
                  $$VALUES (true, false)$$, 'a table with RLS not forced shows enabled true, forced false');
SELECT matches((SELECT problem FROM memory.rls_audit() WHERE table_name = 'half'),
               'not forced', 'a table with RLS not forced: the problem says so');
SELECT doesnt_match((SELECT problem FROM memory.rls_audit() WHERE table_name = 'half'),
                    'disabled|no policy', 'a table with RLS enabled and a policy: no other problem is claimed');

SELECT is((SELECT ok FROM memory.rls_audit() WHERE table_name = 'open'), false,
          'a table with a permissive true policy is not ok');
SELECT matches((SELECT problem FROM memory.rls_audit() WHERE table_name = 'open'),
               'policy anyone_sees_everything is not one the migrations install \(PERMISSIVE FOR SELECT TO public USING true',
               'a permissive USING (true) policy is reported by name, with its expression');
SELECT matches((SELECT problem FROM memory.rls_audit() WHERE table_name = 'open'),
               'policy anyone_adds_anything is not one the migrations install \(PERMISSIVE FOR INSERT TO public USING - WITH CHECK true',
               'a permissive WITH CHECK (true) policy is reported by name, with its expression');
SELECT doesnt_match((SELECT problem FROM memory.rls_audit() WHERE table_name = 'open'),
                    'disabled|not forced|no policy', 'a forced table with policies: only the true policy is claimed');

SELECT is((SELECT ok FROM memory.rls_audit() WHERE table_name = 'episodes'), false,
          'a table a BYPASSRLS role may read is not ok');
SELECT matches((SELECT problem FROM memory.rls_audit() WHERE table_name = 'episodes'),
               'BYPASSRLS.*pgtap_bypasser', 'a BYPASSRLS role granted SELECT is reported by name');
SELECT matches((SELECT problem FROM memory.rls_audit() WHERE table_name = 'nodes'),
               'BYPASSRLS.*pgtap_bypass_member', 'a BYPASSRLS member of memory_reader is reported by name');
SELECT doesnt_match((SELECT problem FROM memory.rls_audit() WHERE table_name = 'nodes'),
                    'pgtap_bypasser', 'a BYPASSRLS role is reported only for the tables it can reach');
SELECT is((SELECT pg_catalog.count(*) FROM memory.rls_audit() WHERE ok), 0::bigint,
          'with a BYPASSRLS member of memory_reader, no table is ok');

-- Who may call it (4)
SET LOCAL ROLE admin;
SELECT lives_ok($$SELECT * FROM memory.rls_audit()$$, 'memory_admin may call rls_audit');
SELECT is((SELECT pg_catalog.count(*) FROM memory.rls_audit()), (SELECT pg_catalog.count(*) + 3 FROM fx_tables),
          'memory_admin sees every table of the schema (the three rogue ones too), its own privileges notwithstanding');
RESET ROLE;
SET LOCAL ROLE app_a;
SELECT throws_ok($$SELECT * FROM memory.rls_audit()$$, '42501', NULL, 'a writer may not call rls_audit');
RESET ROLE;
SET LOCAL ROLE reader_a;
SELECT throws_ok($$SELECT * FROM memory.rls_audit()$$, '42501', NULL, 'a reader may not call rls_audit');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
