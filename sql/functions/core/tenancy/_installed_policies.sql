-- The policies sql/policies installs, one row each, with their expressions as pg_get_expr
-- (and so pg_policies) prints them: memory.rls_audit flags every policy of a memory table
-- that is not here or differs from its row, and every row that is missing. A change to a
-- file of sql/policies changes this list in the same commit (003_rls_audit fails otherwise).
CREATE OR REPLACE FUNCTION memory._installed_policies()
RETURNS TABLE (table_name name, policy_name name, permissive boolean, roles name[], command text,
               qual text, with_check text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH e AS (
        SELECT '(tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))'::text AS call_tenant,
               'pg_has_role(CURRENT_USER, ''memory_admin''::name, ''MEMBER''::text)'::text AS admin,
               -- V0024: the grant's role on this node (role_oid, or node_role_oids on a Citus cluster)
               E'pg_has_role(CURRENT_USER,\nCASE\n    WHEN (node_role_oids IS NULL) THEN role_oid\n    ELSE ((node_role_oids ->> (memory._node_group())::text))::oid\nEND, ''USAGE''::text)'::text AS own_grant
    ), tables AS (
        SELECT t::name AS table_name, t NOT IN ('tenants', 'tenant_grants', 'api_keys') AS tenant_data
          FROM pg_catalog.unnest(ARRAY['tenants', 'tenant_grants', 'simulations', 'nodes', 'edges', 'episodes',
                                       'profiles', 'import_attempts', 'staged_nodes', 'staged_edges',
                                       'staged_episodes', 'staged_profiles', 'vector_cache',
                                       -- V0014: reports and predictions
                                       'reports', 'report_sections', 'report_chunks', 'report_log',
                                       'predictions', 'prediction_outcomes', 'staged_reports',
                                       'staged_report_sections', 'staged_report_chunks',
                                       'staged_report_log', 'staged_predictions',
                                       -- V0015: the versions a change ended
                                       'row_history',
                                       -- V0016: the evidence behind a fact
                                       'edge_evidence',
                                       -- V0022: the model of a tenant's new simulations
                                       'tenant_models',
                                       -- V0020: the words index
                                       'word_postings',
                                       -- V0021: the change feed, retention and compaction
                                       'changes', 'change_heads', 'retention_rules', 'episode_clumps',
                                       -- V0026: the clumps and representatives of indexed simulations
                                       'search_builds', 'search_points', 'search_clumps', 'search_clump_chunks',
                                       -- V0038: the tenants' quotas
                                       'tenant_quotas',
                                       -- V0043: the keys of swarm-memory serve (administrators'
                                       -- alone, as the grants: below)
                                       'api_keys',
                                       -- V0044: graphs written through swarm-memory serve
                                       'zep_ontologies', 'zep_episodes', 'zep_batches', 'zep_batch_items',
                                       -- V0048: the tombstones of forgotten rows
                                       'forgotten',
                                       -- V0047: named snapshots of simulations
                                       'snapshots',
                                       -- V0046: one identity across runs
                                       'identity_links']) AS t
    )
    SELECT t.table_name, p.policy_name::name, true, ARRAY[p.role]::name[], p.command, p.qual, p.with_check
      FROM tables AS t CROSS JOIN e
      CROSS JOIN LATERAL (VALUES
          ('owner_sees_rows_of_the_entered_call_tenant', 'memory_owner', 'SELECT', e.call_tenant, NULL),
          ('owner_removes_rows_of_the_entered_call_tenant', 'memory_owner', 'DELETE', e.call_tenant, NULL)
      ) AS p (policy_name, role, command, qual, with_check)
    UNION ALL
    SELECT t.table_name, p.policy_name::name, true, ARRAY[p.role]::name[], p.command, p.qual, p.with_check
      FROM tables AS t CROSS JOIN e
      CROSS JOIN LATERAL (VALUES
          ('readers_see_rows_of_the_granted_call_tenant', 'memory_reader', 'SELECT', e.call_tenant, NULL),
          ('writers_add_rows_to_the_granted_call_tenant', 'memory_writer', 'INSERT', NULL, e.call_tenant),
          ('writers_change_rows_of_the_granted_call_tenant', 'memory_writer', 'UPDATE', e.call_tenant, e.call_tenant),
          ('writers_remove_rows_of_the_granted_call_tenant', 'memory_writer', 'DELETE', e.call_tenant, NULL)
      ) AS p (policy_name, role, command, qual, with_check)
     WHERE t.tenant_data
       -- memory.vector_cache is append-only: readers see, writers add, nothing more.
       AND (t.table_name <> 'vector_cache' OR p.command IN ('SELECT', 'INSERT'))
       -- memory.row_history: readers see; memory_owner adds (below), no tenant role writes.
       AND (t.table_name <> 'row_history' OR p.command = 'SELECT')
       -- memory.edge_evidence (V0016): the same; memory._link_evidence writes it.
       AND (t.table_name <> 'edge_evidence' OR p.command = 'SELECT')
       -- memory.word_postings (V0020): the same; the trigger memory._index_words writes it.
       AND (t.table_name <> 'word_postings' OR p.command = 'SELECT')
       -- V0026: the same; memory._clump_build writes them.
       AND (t.table_name NOT IN ('search_builds', 'search_points', 'search_clumps', 'search_clump_chunks')
            OR p.command = 'SELECT')
       -- V0021, V0038: the same; memory_owner's definer functions write them (below).
       AND (t.table_name NOT IN ('changes', 'change_heads', 'retention_rules', 'episode_clumps', 'tenant_quotas')
            OR p.command = 'SELECT')
       -- V0048: the same; memory._forget writes the tombstones (below).
       AND (t.table_name <> 'forgotten' OR p.command = 'SELECT')
    UNION ALL
    SELECT 'row_history'::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e
    UNION ALL
    SELECT 'edge_evidence'::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e
    UNION ALL
    SELECT 'word_postings'::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e
    UNION ALL
    SELECT 'forgotten'::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e
    UNION ALL
    SELECT w.table_name::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e CROSS JOIN (VALUES ('search_builds'), ('search_points'), ('search_clumps'), ('search_clump_chunks')) AS w (table_name)
    UNION ALL
    SELECT 'search_builds'::name, 'owner_changes_rows_of_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'UPDATE', e.call_tenant, e.call_tenant
      FROM e
    -- memory._forget replaces a forgotten text where a report quotes it (memory._forget_reports)
    UNION ALL
    SELECT w.table_name::name, 'owner_changes_rows_of_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'UPDATE', e.call_tenant, e.call_tenant
      FROM e CROSS JOIN (VALUES ('reports'), ('report_sections'), ('report_chunks'), ('report_log'),
                                ('predictions')) AS w (table_name)
    -- V0021: memory_owner adds to the feed (no UPDATE: a change is never rewritten), advances
    -- a head, replaces rules and clumps; V0038: sets and locks a tenant's caps.
    UNION ALL
    SELECT w.table_name::name, p.policy_name::name, true, ARRAY['memory_owner']::name[], p.command, p.qual, p.with_check
      FROM e CROSS JOIN LATERAL (VALUES
          ('owner_adds_rows_to_the_entered_call_tenant', 'INSERT', NULL, e.call_tenant),
          ('owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', e.call_tenant, e.call_tenant)
      ) AS p (policy_name, command, qual, with_check)
      CROSS JOIN LATERAL (VALUES ('changes'), ('change_heads'), ('retention_rules'), ('episode_clumps'),
                                 ('tenant_quotas')) AS w (table_name)
     WHERE p.command = 'INSERT' OR w.table_name <> 'changes'
    UNION ALL
    SELECT p.table_name::name, p.policy_name::name, true, ARRAY[p.role]::name[], p.command, p.qual, p.with_check
      FROM e CROSS JOIN LATERAL (VALUES
          ('tenants', 'admins_manage_all_tenants', 'memory_admin', 'ALL', e.admin, e.admin),
          ('tenants', 'readers_see_the_granted_call_tenant', 'memory_reader', 'SELECT', e.call_tenant, NULL),
          ('tenant_grants', 'admins_manage_all_grants', 'memory_admin', 'ALL', e.admin, e.admin),
          ('tenant_grants', 'roles_see_their_own_grants', 'memory_reader', 'SELECT', e.own_grant, NULL),
          ('api_keys', 'admins_manage_all_keys', 'memory_admin', 'ALL', e.admin, e.admin),
          ('api_keys', 'roles_see_their_own_keys', 'memory_reader', 'SELECT',
           'pg_has_role(CURRENT_USER, role_oid, ''USAGE''::text)', NULL)
      ) AS p (table_name, policy_name, role, command, qual, with_check)
    -- V0018: memory.route_rules, the installation's routing phrases
    UNION ALL
    SELECT 'route_rules'::name, 'roles_read_every_rule'::name, true, ARRAY['memory_admin', 'memory_reader']::name[],
           'SELECT', 'true', NULL
    UNION ALL
    SELECT 'route_rules'::name, 'owner_manages_every_rule'::name, true, ARRAY['memory_owner']::name[],
           'ALL', 'true', 'true'
    -- V0022: memory.embedding_models, the installation's models (a model comes with a migration)
    UNION ALL
    SELECT 'embedding_models'::name, 'roles_read_every_model'::name, true, ARRAY['memory_admin', 'memory_reader']::name[],
           'SELECT', 'true', NULL
$fn$;

COMMENT ON FUNCTION memory._installed_policies() IS 'Internal: every policy sql/policies installs, with its command, roles and expressions as pg_get_expr prints them (memory.rls_audit compares with it)';
GRANT EXECUTE ON FUNCTION memory._installed_policies() TO memory_admin;
