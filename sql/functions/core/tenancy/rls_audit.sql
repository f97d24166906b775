-- What a DBA checks, in one query; ok = false with a problem a DBA can act on for each of:
--   one row per table of schema memory: RLS off or not forced, no policy, a policy that is
--     not exactly one sql/policies installs (memory._installed_policies: name, command, roles,
--     expressions) or an installed one missing, an owner other than memory_owner, table or
--     column privileges held by PUBLIC or by a role outside the group roles, and BYPASSRLS
--     roles (superusers aside) that are members, with or without INHERIT, of a role that
--     holds privileges on the table;
--   one row per view or materialized view, anywhere in the database, that reads a memory
--     table ('view public.x'): it reads outside the API's grant check;
--   one row per role that has memory_owner's privileges or may SET ROLE to it ('role x');
--   one row per grant of a tenant to a shared group role, or to a role that was dropped,
--     and per grant whose map of node role OIDs is set on one node, or on a cluster names for
--     this node a dropped role or a group role ('grant of tenant ...');
--   one row per function of schema memory whose definition, security, owner, configuration
--     or privileges differ from what the release installed, or that the release does not
--     install, or that is missing ('function memory.x(...)'; swarm-memory audit also checks
--     against the manifest the package ships, which no one in the database can rewrite).
-- Reads the catalogs and memory.tenant_grants only.
CREATE OR REPLACE FUNCTION memory.rls_audit()
RETURNS TABLE (table_name text, rls_enabled boolean, rls_forced boolean, policies text[], ok boolean, problem text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH t AS (
        SELECT c.oid, c.relname AS table_name, c.relrowsecurity, c.relforcerowsecurity, c.relowner, c.relacl
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p')
    ), actual AS (
        SELECT p.tablename AS table_name, p.policyname AS policy_name, p.permissive = 'PERMISSIVE' AS permissive,
               ARRAY(SELECT x FROM pg_catalog.unnest(p.roles) AS x ORDER BY x) AS roles,
               p.cmd AS command, p.qual, p.with_check
          FROM pg_catalog.pg_policies AS p
         WHERE p.schemaname = 'memory'
    ), expected AS (
        SELECT e.table_name, e.policy_name, e.permissive,
               ARRAY(SELECT x FROM pg_catalog.unnest(e.roles) AS x ORDER BY x) AS roles,
               e.command, e.qual, e.with_check
          FROM memory._installed_policies() AS e
    ), policy_problems AS (
        SELECT COALESCE(a.table_name, x.table_name) AS table_name,
               pg_catalog.string_agg(CASE
                   WHEN x.policy_name IS NULL THEN pg_catalog.format(
                       'policy %s is not one the migrations install (%s FOR %s TO %s USING %s WITH CHECK %s): DROP POLICY %I ON memory.%I',
                       a.policy_name, CASE WHEN a.permissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END, a.command,
                       pg_catalog.array_to_string(a.roles, ', '), pg_catalog.left(COALESCE(a.qual, '-'), 200),
                       pg_catalog.left(COALESCE(a.with_check, '-'), 200), a.policy_name, a.table_name)
                   WHEN a.policy_name IS NULL THEN pg_catalog.format(
                       'installed policy %s is missing: run migrate, which re-creates it', x.policy_name)
                   ELSE pg_catalog.format(
                       'policy %s differs from its installed form (%s FOR %s TO %s USING %s WITH CHECK %s): run migrate, which re-creates it',
                       a.policy_name, CASE WHEN a.permissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END, a.command,
                       pg_catalog.array_to_string(a.roles, ', '), pg_catalog.left(COALESCE(a.qual, '-'), 200),
                       pg_catalog.left(COALESCE(a.with_check, '-'), 200))
               END, '; ' ORDER BY COALESCE(a.policy_name, x.policy_name)) AS problems
          FROM actual AS a
          FULL JOIN expected AS x ON x.table_name = a.table_name AND x.policy_name = a.policy_name
         WHERE (a.permissive, a.roles, a.command, a.qual, a.with_check)
               IS DISTINCT FROM (x.permissive, x.roles, x.command, x.qual, x.with_check)
         GROUP BY 1
    ), acl AS (
        SELECT t.oid, a.grantee, a.privilege_type AS privilege
          FROM t CROSS JOIN LATERAL pg_catalog.aclexplode(t.relacl) AS a
        UNION ALL
        SELECT t.oid, a.grantee, a.privilege_type || ' (' || att.attname || ')'
          FROM t
          JOIN pg_catalog.pg_attribute AS att
            ON att.attrelid = t.oid AND att.attnum > 0 AND NOT att.attisdropped AND att.attacl IS NOT NULL
          CROSS JOIN LATERAL pg_catalog.aclexplode(att.attacl) AS a
    ), foreign_grantees AS (
        SELECT acl.oid,
               CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE pg_catalog.quote_ident(r.rolname) END AS grantee,
               pg_catalog.string_agg(DISTINCT acl.privilege, ', ') AS privileges
          FROM acl
          JOIN t ON t.oid = acl.oid
          LEFT JOIN pg_catalog.pg_roles AS r ON r.oid = acl.grantee
         WHERE acl.grantee <> t.relowner
           AND (acl.grantee = 0 OR r.rolname <> ALL (memory._group_roles()))
         GROUP BY acl.oid, 2
    ), foreign_privileges AS (
        SELECT f.oid,
               pg_catalog.string_agg(f.grantee || ' (' || f.privileges || ')', ', ' ORDER BY f.grantee) AS held,
               pg_catalog.string_agg(f.grantee, ', ' ORDER BY f.grantee) AS grantees
          FROM foreign_grantees AS f
         GROUP BY f.oid
    ), reach AS (
        -- Every role whose privileges reach a table (0: PUBLIC, i.e. every role).
        SELECT t.oid, t.relowner AS grantee FROM t
        UNION
        SELECT acl.oid, acl.grantee FROM acl
    ), bypass AS (
        SELECT reach.oid, pg_catalog.array_agg(DISTINCT r.rolname::text ORDER BY r.rolname::text) AS bypass_roles
          FROM reach
          JOIN pg_catalog.pg_roles AS r
            ON r.rolbypassrls AND NOT r.rolsuper
           AND (reach.grantee = 0 OR pg_catalog.pg_has_role(r.oid, reach.grantee, 'MEMBER'))
         GROUP BY reach.oid
    ), p AS (
        SELECT t.oid, pg_catalog.array_agg(pol.polname::text ORDER BY pol.polname)
                          FILTER (WHERE pol.polname IS NOT NULL) AS policies
          FROM t LEFT JOIN pg_catalog.pg_policy AS pol ON pol.polrelid = t.oid
         GROUP BY t.oid
    ), table_rows AS (
        SELECT t.table_name::text AS table_name, t.relrowsecurity AS rls_enabled, t.relforcerowsecurity AS rls_forced,
               COALESCE(p.policies, '{}') AS policies,
               pg_catalog.array_remove(ARRAY[
                   CASE WHEN NOT t.relrowsecurity THEN 'row level security is disabled' END,
                   CASE WHEN NOT t.relforcerowsecurity THEN 'row level security is not forced (the owner bypasses it)' END,
                   CASE WHEN p.policies IS NULL THEN 'no policy' END,
                   pp.problems,
                   CASE WHEN t.relowner <> 'memory_owner'::regrole
                        THEN pg_catalog.format('belongs to %s instead of memory_owner: run migrate, which hands every memory object to memory_owner',
                                               t.relowner::regrole) END,
                   CASE WHEN fp.oid IS NOT NULL
                        THEN pg_catalog.format('privileges held outside the memory group roles: %s: REVOKE ALL ON memory.%I FROM %s',
                                               fp.held, t.table_name, fp.grantees) END,
                   CASE WHEN b.bypass_roles IS NOT NULL
                        THEN 'roles with BYPASSRLS can reach it: ' || pg_catalog.array_to_string(b.bypass_roles, ', ')
                             || ': ALTER ROLE ... NOBYPASSRLS, or revoke their memory roles' END
               ], NULL) AS problems
          FROM t
          JOIN p ON p.oid = t.oid
          LEFT JOIN policy_problems AS pp ON pp.table_name = t.table_name
          LEFT JOIN foreign_privileges AS fp ON fp.oid = t.oid
          LEFT JOIN bypass AS b ON b.oid = t.oid
    ), other_rows AS (
        -- Views and materialized views over memory tables, anywhere in the database.
        SELECT CASE v.relkind WHEN 'm' THEN 'materialized view ' ELSE 'view ' END || v.oid::regclass::text AS subject,
               pg_catalog.format('%s reads memory tables (%s) outside the API''s grant check (a view with its owner''s rights, a materialized view from a copy): DROP %s %s',
                                 CASE v.relkind WHEN 'm' THEN 'materialized view ' ELSE 'view ' END || v.oid::regclass::text,
                                 pg_catalog.string_agg(DISTINCT t.table_name::text, ', '),
                                 CASE v.relkind WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'VIEW' END, v.oid::regclass::text) AS problem
          FROM pg_catalog.pg_depend AS d
          JOIN pg_catalog.pg_rewrite AS w ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND w.oid = d.objid
          JOIN pg_catalog.pg_class AS v ON v.oid = w.ev_class
          JOIN t ON d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid = t.oid
         WHERE v.relkind IN ('v', 'm') AND v.oid <> t.oid
         GROUP BY v.oid, v.relkind
        UNION ALL
        -- Roles that act as the owner of every memory table.
        SELECT 'role ' || r.rolname,
               pg_catalog.format('role %s has the privileges of memory_owner or may SET ROLE to it: as the owner of every memory table it can switch row level security off, change the policies and read any tenant: REVOKE memory_owner FROM %I',
                                 r.rolname, r.rolname)
          FROM pg_catalog.pg_roles AS r
         WHERE NOT r.rolsuper AND r.rolname <> 'memory_owner'
           AND (pg_catalog.pg_has_role(r.oid, 'memory_owner', 'USAGE') OR pg_catalog.pg_has_role(r.oid, 'memory_owner', 'SET'))
        UNION ALL
        -- Tenants granted to a shared group role, and grants whose role was dropped.
        SELECT pg_catalog.format('grant of tenant %s to %s', g.tenant_id, COALESCE(r.rolname, g.role_name)),
               CASE WHEN r.oid IS NULL
                    THEN pg_catalog.format('the role granted tenant %s (%s, OID %s) was dropped: the grant authorises nobody; memory.grant_tenant() removes such grants',
                                           g.tenant_id, g.role_name, g.role_oid)
                    ELSE pg_catalog.format('tenant %s is granted to the shared group role %s, so every member of it acts for the tenant: SELECT memory.revoke_tenant(%L, %L), and grant the tenant to the application''s own role',
                                           g.tenant_id, r.rolname, r.rolname, g.tenant_id) END
          FROM memory.tenant_grants AS g
          LEFT JOIN pg_catalog.pg_roles AS r ON r.oid = g.role_oid
         WHERE r.oid IS NULL OR r.rolname = ANY (memory._group_roles())
        UNION ALL
        -- The grant's map of node role OIDs (V0024), which decides who acts for the tenant
        -- wherever it is set: on one node it has no business at all; on a cluster this node's
        -- entry must name a role that exists and is not a shared group role.
        SELECT pg_catalog.format('grant of tenant %s to %s', g.tenant_id, g.role_name),
               CASE WHEN NOT memory._on_cluster()
                    THEN pg_catalog.format('the grant of tenant %s to %s carries node role OIDs %s on a single node, where the grant''s own role is the one that counts: they would let those roles act for the tenant; SELECT memory.revoke_tenant(%L, %L) and grant it again',
                                           g.tenant_id, g.role_name, g.node_role_oids::text, g.role_name, g.tenant_id)
                    WHEN nr.oid IS NULL
                    THEN pg_catalog.format('the grant of tenant %s to %s names, for node %s, OID %s, which is no role here: SELECT memory.revoke_tenant(%L, %L) and grant it again',
                                           g.tenant_id, g.role_name, m.node, m.role_oid, g.role_name, g.tenant_id)
                    ELSE pg_catalog.format('the grant of tenant %s to %s names, for node %s, the shared group role %s, so every member of it acts for the tenant: SELECT memory.revoke_tenant(%L, %L) and grant it again',
                                           g.tenant_id, g.role_name, m.node, nr.rolname, g.role_name, g.tenant_id) END
          FROM memory.tenant_grants AS g
          CROSS JOIN LATERAL (SELECT e.key AS node, e.value AS role_oid
                                FROM pg_catalog.jsonb_each_text(
                                         CASE WHEN pg_catalog.jsonb_typeof(g.node_role_oids) = 'object'
                                              THEN g.node_role_oids ELSE '{"?": null}'::jsonb END) AS e) AS m
          LEFT JOIN pg_catalog.pg_roles AS nr
            ON nr.oid = CASE WHEN m.role_oid ~ '^[0-9]{1,10}$' AND m.role_oid::pg_catalog.int8 < 4294967296
                             THEN m.role_oid::pg_catalog.int8::pg_catalog.oid END
         WHERE g.node_role_oids IS NOT NULL
           AND (NOT memory._on_cluster()
                OR (m.node = memory._node_group()::text
                    AND (nr.oid IS NULL OR nr.rolname = ANY (memory._group_roles()))))
        UNION ALL
        -- Code: every function of the schema against what the release installed
        -- (memory._installed_functions, written by make schema from a fresh migrate).
        SELECT 'function ' || COALESCE(f.signature, i.signature),
               CASE WHEN i.signature IS NULL
                    THEN pg_catalog.format('function %s is not one the release installs: it runs with its owner''s rights; DROP FUNCTION %s',
                                           f.signature, f.signature)
                    WHEN f.signature IS NULL
                    THEN pg_catalog.format('installed function %s is missing: run migrate, which re-creates it', i.signature)
                    ELSE pg_catalog.format('function %s differs from what the release installed (%s): run migrate, which re-creates it, and find out who changed it',
                                           f.signature, pg_catalog.concat_ws('; ',
                         CASE WHEN f.body_md5 <> i.body_md5 THEN 'its definition' END,
                         CASE WHEN f.security <> i.security THEN pg_catalog.format('security %s, installed %s', f.security, i.security) END,
                         CASE WHEN f.owner <> i.owner THEN pg_catalog.format('owner %s, installed %s', f.owner, i.owner) END,
                         CASE WHEN f.config <> i.config THEN pg_catalog.format('configuration %s, installed %s', NULLIF(f.config, ''), NULLIF(i.config, '')) END,
                         CASE WHEN f.acl <> i.acl THEN pg_catalog.format('privileges %s, installed %s', NULLIF(f.acl, ''), NULLIF(i.acl, '')) END)) END
          FROM memory._function_fingerprints() AS f
          FULL JOIN memory._installed_functions() AS i ON i.signature = f.signature
         WHERE COALESCE(f.signature, '') <> 'memory._installed_functions()'
           AND CASE WHEN i.signature IS NULL THEN true
                    WHEN f.signature IS NULL THEN NOT i.cluster_only
                    ELSE (f.security, f.owner, f.config, f.acl, f.body_md5)
                         IS DISTINCT FROM (i.security, i.owner, i.config, i.acl, i.body_md5) END
    )
    SELECT s.table_name, s.rls_enabled, s.rls_forced, s.policies, s.ok, s.problem
      FROM (SELECT 0 AS section, r.table_name, r.rls_enabled, r.rls_forced, r.policies,
                   pg_catalog.cardinality(r.problems) = 0 AS ok,
                   NULLIF(pg_catalog.array_to_string(r.problems, '; '), '') AS problem
              FROM table_rows AS r
            UNION ALL
            SELECT 1, o.subject, NULL, NULL, '{}', false, o.problem
              FROM other_rows AS o) AS s
     ORDER BY s.section, s.table_name
$fn$;

COMMENT ON FUNCTION memory.rls_audit() IS 'Every table of schema memory with its RLS state, policies and problems, plus a row for each view over memory tables, role acting as memory_owner and grant to a group or dropped role; memory_admin';
GRANT EXECUTE ON FUNCTION memory.rls_audit() TO memory_admin;
