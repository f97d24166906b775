-- The row-level security audit of a Citus cluster (issue 15), installed by
-- `swarm-memory distribute`: memory.rls_audit() reads the coordinator's catalog, where a
-- distributed table is an empty shell; the rows live in shards on the workers, each a table
-- of its own with its own RLS flags, owner and policies. memory.rls_audit_shards() reads
-- every placement of every shard of every memory table (run_command_on_placements) and
-- reports one row per table and per placement that differs from what it should be:
--   the table itself: its policies must be exactly memory._installed_policies() in the
--     cluster form distribute.sql gives them (the scalar subquery around
--     memory._current_tenant_id() removed, since Citus refuses subqueries in the policies
--     of distributed tables);
--   each placement: RLS enabled and forced, owned by memory_owner, and the same policies
--     (names, commands, roles, expressions) as its table on the coordinator.
-- ok = false with the problem; a table none of whose placements differ gives one row, ok.
CREATE OR REPLACE FUNCTION memory.rls_audit_shards()
RETURNS TABLE (table_name text, placement text, ok boolean, problem text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    -- the signature of one table (%s: a table or shard name), computed where it lives
    c_signature CONSTANT text := $q$
        SELECT pg_catalog.concat_ws(' | ', 'rls=' || c.relrowsecurity, 'forced=' || c.relforcerowsecurity,
                                    'owner=' || c.relowner::regrole::text,
               (SELECT pg_catalog.string_agg(pg_catalog.concat_ws(' ', p.polname, p.polcmd, p.polpermissive,
                           (SELECT pg_catalog.string_agg(r.rolname, ',' ORDER BY r.rolname)
                              FROM pg_catalog.pg_roles AS r WHERE r.oid = ANY (p.polroles)),
                           'USING', COALESCE(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '-'),
                           'CHECK', COALESCE(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), '-')),
                           '; ' ORDER BY p.polname)
                  FROM pg_catalog.pg_policy AS p WHERE p.polrelid = c.oid))
          FROM pg_catalog.pg_class AS c WHERE c.oid = '%s'::regclass $q$;
    c_subquery_form CONSTANT text := '(tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))';
    c_cluster_form CONSTANT text := '(tenant_id = memory._current_tenant_id())';
    v_table regclass;
    v_expected text;
    v_bad integer;
    v_row record;
BEGIN
    FOR v_table IN
        SELECT d.logicalrelid FROM pg_catalog.pg_dist_partition AS d
          JOIN pg_catalog.pg_class AS c ON c.oid = d.logicalrelid
         WHERE c.relnamespace = 'memory'::regnamespace
         ORDER BY c.relname
    LOOP
        table_name := v_table::text;
        v_bad := 0;
        -- the table's own policies against the installed ones in cluster form
        FOR v_row IN
            WITH actual AS (
                SELECT p.policyname AS policy_name, p.permissive = 'PERMISSIVE' AS permissive,
                       ARRAY(SELECT x FROM pg_catalog.unnest(p.roles) AS x ORDER BY x) AS roles,
                       p.cmd AS command, p.qual, p.with_check
                  FROM pg_catalog.pg_policies AS p
                 WHERE p.schemaname = 'memory' AND p.tablename = (SELECT c.relname FROM pg_catalog.pg_class AS c
                                                                   WHERE c.oid = v_table)
            ), expected AS (
                SELECT e.policy_name, e.permissive,
                       ARRAY(SELECT x FROM pg_catalog.unnest(e.roles) AS x ORDER BY x) AS roles, e.command,
                       CASE WHEN e.qual = c_subquery_form THEN c_cluster_form ELSE e.qual END AS qual,
                       CASE WHEN e.with_check = c_subquery_form THEN c_cluster_form ELSE e.with_check END AS with_check
                  FROM memory._installed_policies() AS e
                 WHERE e.table_name = (SELECT c.relname FROM pg_catalog.pg_class AS c WHERE c.oid = v_table)
            )
            SELECT COALESCE(a.policy_name, x.policy_name) AS policy_name, a.policy_name IS NULL AS missing,
                   x.policy_name IS NULL AS foreign_policy
              FROM actual AS a
              FULL JOIN expected AS x ON x.policy_name = a.policy_name
             WHERE (a.permissive, a.roles, a.command, a.qual, a.with_check)
                   IS DISTINCT FROM (x.permissive, x.roles, x.command, x.qual, x.with_check)
        LOOP
            v_bad := v_bad + 1;
            placement := 'coordinator';
            ok := false;
            problem := CASE WHEN v_row.missing THEN pg_catalog.format('installed policy %s is missing', v_row.policy_name)
                            WHEN v_row.foreign_policy THEN pg_catalog.format('policy %s is not one the migrations install', v_row.policy_name)
                            ELSE pg_catalog.format('policy %s differs from its installed form (cluster form)', v_row.policy_name) END
                       || ': run swarm-memory migrate, then swarm-memory distribute';
            RETURN NEXT;
        END LOOP;
        -- every placement of every shard against the table
        EXECUTE pg_catalog.format(c_signature, v_table::text) INTO v_expected;
        FOR v_row IN
            SELECT r.nodename, r.nodeport, r.shardid, r.success, r.result
              FROM pg_catalog.run_command_on_placements(v_table, c_signature) AS r
             ORDER BY r.shardid, r.nodename, r.nodeport
        LOOP
            IF NOT v_row.success OR v_row.result IS DISTINCT FROM v_expected THEN
                v_bad := v_bad + 1;
                placement := pg_catalog.format('shard %s on %s:%s', v_row.shardid, v_row.nodename, v_row.nodeport);
                ok := false;
                problem := CASE WHEN NOT v_row.success THEN 'could not be read: ' || v_row.result
                                ELSE pg_catalog.format('differs from its table: %s, expected %s',
                                                       pg_catalog.left(v_row.result, 300), pg_catalog.left(v_expected, 300)) END;
                RETURN NEXT;
            END IF;
        END LOOP;
        IF v_bad = 0 THEN
            placement := 'every placement';
            ok := true;
            problem := NULL;
            RETURN NEXT;
        END IF;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.rls_audit_shards() IS 'Row-level security of every shard placement of a Citus cluster: RLS on and forced, owner and policies as the table''s, the table''s policies the installed ones (memory_admin)';
REVOKE ALL ON FUNCTION memory.rls_audit_shards() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.rls_audit_shards() TO memory_admin;

-- Every object of schema memory belongs to memory_owner (the code audit holds it so).
ALTER FUNCTION memory.rls_audit_shards() OWNER TO memory_owner;
