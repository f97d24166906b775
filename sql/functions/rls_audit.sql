-- One row per table of schema memory: is RLS enabled and forced, which policies guard it,
-- and what is wrong, if anything: RLS off or not forced, no policy, a permissive policy whose
-- expression is plain true, or a non-superuser role with BYPASSRLS that holds privileges on
-- the table. Reads the catalogs only.
CREATE OR REPLACE FUNCTION memory.rls_audit()
RETURNS TABLE (table_name text, rls_enabled boolean, rls_forced boolean, policies text[],
               ok boolean, problem text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH t AS (
        SELECT c.oid, c.relname::text AS table_name, c.relrowsecurity, c.relforcerowsecurity
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p')
    ), p AS (
        SELECT t.oid,
               pg_catalog.array_agg(pol.polname::text ORDER BY pol.polname)
                   FILTER (WHERE pol.polname IS NOT NULL) AS policies,
               pg_catalog.array_agg(pol.polname::text ORDER BY pol.polname)
                   FILTER (WHERE pol.polpermissive
                             AND (pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) = 'true'
                                  OR pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid) = 'true'))
                   AS true_policies
          FROM t LEFT JOIN pg_catalog.pg_policy AS pol ON pol.polrelid = t.oid
         GROUP BY t.oid
    ), b AS (
        SELECT t.oid, pg_catalog.array_agg(r.rolname::text ORDER BY r.rolname) AS bypass_roles
          FROM t
          JOIN pg_catalog.pg_roles AS r
            ON r.rolbypassrls AND NOT r.rolsuper
           AND pg_catalog.has_table_privilege(r.oid, t.oid, 'SELECT, INSERT, UPDATE, DELETE')
         GROUP BY t.oid
    ), checks AS (
        SELECT t.table_name, t.relrowsecurity, t.relforcerowsecurity,
               COALESCE(p.policies, '{}') AS policies,
               pg_catalog.array_remove(ARRAY[
                   CASE WHEN NOT t.relrowsecurity THEN 'row level security is disabled' END,
                   CASE WHEN NOT t.relforcerowsecurity THEN 'row level security is not forced (the owner bypasses it)' END,
                   CASE WHEN p.policies IS NULL THEN 'no policy' END,
                   CASE WHEN p.true_policies IS NOT NULL
                        THEN 'permissive policy with expression true: ' || pg_catalog.array_to_string(p.true_policies, ', ') END,
                   CASE WHEN b.bypass_roles IS NOT NULL
                        THEN 'roles with BYPASSRLS can reach it: ' || pg_catalog.array_to_string(b.bypass_roles, ', ') END
               ], NULL) AS problems
          FROM t
          JOIN p ON p.oid = t.oid
          LEFT JOIN b ON b.oid = t.oid
    )
    SELECT c.table_name, c.relrowsecurity, c.relforcerowsecurity, c.policies,
           pg_catalog.cardinality(c.problems) = 0,
           NULLIF(pg_catalog.array_to_string(c.problems, '; '), '')
      FROM checks AS c
     ORDER BY c.table_name
$fn$;

COMMENT ON FUNCTION memory.rls_audit() IS 'Every table of schema memory with its RLS state, policies and problems, in one query; memory_admin';
REVOKE ALL ON FUNCTION memory.rls_audit() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.rls_audit() TO memory_admin;
