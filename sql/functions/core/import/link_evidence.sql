-- Bring a simulation's edge evidence up to date (memory._link_evidence says what it links).
-- Every import's promote does this itself; rows written through upsert_edges,
-- upsert_episodes or upsert_nodes get their evidence when this is called (or at the next
-- import): evidence follows imports. Returns the links it holds and what changed.
CREATE OR REPLACE FUNCTION memory.link_evidence(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (sources bigint, mentions bigint, added bigint, removed bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    -- one writer of a simulation's evidence at a time, as a promote (which holds this lock)
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    RETURN QUERY SELECT * FROM memory._link_evidence(p_tenant_id, p_simulation_id);
END
$fn$;

COMMENT ON FUNCTION memory.link_evidence(uuid, uuid) IS 'Recompute a simulation''s edge evidence after upserts (imports do it themselves)';
GRANT EXECUTE ON FUNCTION memory.link_evidence(uuid, uuid) TO memory_writer;
