-- Run on every deploy, after the functions and before sql/finalize: the row-level security
-- policies of every table, generated from the one list memory._installed_policies() holds
-- (its comments say why each table's policies are what they are). memory.rls_audit compares
-- the database with the same list, so a policy changed by hand after the deploy is flagged.
--
-- Each policy is dropped and created again, in the deploy's transaction, so a second deploy
-- changes nothing. A table the list names but the database does not have yet (a migrate
-- that stops short of the latest version) is left out. On a Citus cluster the policies take
-- the form Citus accepts: the tenant check without its scalar subquery (the same rule;
-- sql/citus/distribute.sql step 0 does the same for a schema it distributes).
--
-- The block's search_path is pinned: the policies' expressions, as pg_get_expr printed them,
-- name pg_catalog's functions and operators unqualified.
SET LOCAL search_path = pg_catalog, pg_temp;
DO $policies$
DECLARE
    v_p             record;
    v_cluster       boolean := memory._on_cluster();
    c_subquery_form constant text := '(tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))';
    c_cluster_form  constant text := '(tenant_id = memory._current_tenant_id())';
BEGIN
    FOR v_p IN
        SELECT p.table_name, p.policy_name, p.permissive, p.roles, p.command,
               CASE WHEN v_cluster AND p.qual = c_subquery_form THEN c_cluster_form ELSE p.qual END AS qual,
               CASE WHEN v_cluster AND p.with_check = c_subquery_form THEN c_cluster_form ELSE p.with_check END AS with_check,
               pg_catalog.to_regclass(pg_catalog.format('memory.%I', p.table_name)) AS tbl
          FROM memory._installed_policies() AS p
         ORDER BY p.table_name, p.policy_name
    LOOP
        CONTINUE WHEN v_p.tbl IS NULL;
        EXECUTE pg_catalog.format('DROP POLICY IF EXISTS %I ON %s', v_p.policy_name, v_p.tbl);
        EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s',
            v_p.policy_name, v_p.tbl,
            CASE WHEN v_p.permissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END,
            v_p.command,
            (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(r.role), ', ' ORDER BY r.n)
               FROM pg_catalog.unnest(v_p.roles) WITH ORDINALITY AS r(role, n)),
            CASE WHEN v_p.qual IS NOT NULL THEN ' USING (' OPERATOR(pg_catalog.||) v_p.qual OPERATOR(pg_catalog.||) ')' ELSE '' END,
            CASE WHEN v_p.with_check IS NOT NULL THEN ' WITH CHECK (' OPERATOR(pg_catalog.||) v_p.with_check OPERATOR(pg_catalog.||) ')' ELSE '' END);
    END LOOP;
END
$policies$;
