-- The embedded rows of a kind (p_kind: 'episodes', the default, 'facts', the edges with a
-- vector, or 'entities', the nodes with a name vector) of each simulation of one tenant that holds at least p_min_rows of them, by the
-- simulation's opaque number: what memory.ann_plan(), memory.ann_plan_facts() and memory.ann_plan_entities() need to
-- decide which simulations get an index of their own. Administrators hold no grant for any
-- tenant and read no tenant data; this reads counts only.
-- SECURITY DEFINER: counting needs the rows of every tenant, which row-level security
-- shows to no administrator. memory._enter_tenant_as_admin checks the caller as the session
-- user (SET ROLE does not change it) and sets the call's tenant for the owner's policies,
-- which keep the count to that tenant's rows; it is put back as it was at the end.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call (the caller's own setting
-- is put back after); its SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text DEFAULT 'episodes')
RETURNS TABLE (sim_no bigint, embedded bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_previous text := pg_catalog.current_setting('memory.tenant_id', true);
    v_kind     text := memory._one_of('indexed kind', p_kind, ARRAY['episodes', 'facts', 'entities']);
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    RETURN QUERY
    SELECT e.sim_no, pg_catalog.count(*)
      FROM memory.episodes AS e
     WHERE v_kind = 'episodes' AND e.tenant_id = p_tenant_id AND e.embedding IS NOT NULL
     GROUP BY e.sim_no
    HAVING pg_catalog.count(*) >= COALESCE(p_min_rows, 0)
    UNION ALL
    SELECT f.sim_no, pg_catalog.count(*)
      FROM memory.edges AS f
     WHERE v_kind = 'facts' AND f.tenant_id = p_tenant_id AND f.embedding IS NOT NULL
     GROUP BY f.sim_no
    HAVING pg_catalog.count(*) >= COALESCE(p_min_rows, 0)
    UNION ALL
    SELECT n.sim_no, pg_catalog.count(*)
      FROM memory.nodes AS n
     WHERE v_kind = 'entities' AND n.tenant_id = p_tenant_id AND n.embedding IS NOT NULL
     GROUP BY n.sim_no
    HAVING pg_catalog.count(*) >= COALESCE(p_min_rows, 0);
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$fn$;

COMMENT ON FUNCTION memory._ann_counts(uuid, integer, text) IS 'Internal: embedded episodes, facts or entities per simulation number of one tenant, for memory.ann_plan, memory.ann_plan_facts and memory.ann_plan_entities (SECURITY DEFINER: counts across tenants; memory_admin only)';
GRANT EXECUTE ON FUNCTION memory._ann_counts(uuid, integer, text) TO memory_admin;
