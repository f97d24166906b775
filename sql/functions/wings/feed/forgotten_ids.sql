-- Which of the given rows a simulation has forgotten (memory.forget_episodes,
-- memory.forget_agent): the importer asks before it stages a run, leaves those rows out and
-- reports them, so that a re-import of the same files does not bring a forgotten text back
-- unsaid. p_kind: episodes, edges or profiles (a profile's id: platform/agent id). An
-- episode is forgotten by its id in the simulation, or by its text (p_text_hashes, sha256
-- of the content, in the order of p_ids) anywhere in the tenant. Returns the ids found.
-- A simulation not made yet has no tombstones of its own (an import into a new simulation
-- asks too, for the tenant's forgotten texts). No grant for the tenant 42501; an unknown
-- kind 22023.
CREATE OR REPLACE FUNCTION memory.forgotten_ids(p_tenant_id uuid, p_simulation_id uuid, p_kind text,
                                                p_ids text[], p_text_hashes bytea[] DEFAULT NULL)
RETURNS SETOF text
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._one_of('p_kind', p_kind, ARRAY['episodes', 'edges', 'profiles']);
    PERFORM memory._check_limit('batch_bytes', 'p_ids', pg_catalog.octet_length(p_ids::text));
    RETURN QUERY
    SELECT u.id
      FROM ROWS FROM (pg_catalog.unnest(p_ids), pg_catalog.unnest(COALESCE(p_text_hashes, '{}'::bytea[]))) AS u (id, text_hash)
     WHERE u.id IS NOT NULL
       AND (EXISTS (SELECT 1 FROM memory.forgotten AS f
                     WHERE f.tenant_id = p_tenant_id AND f.simulation_id = p_simulation_id
                       AND f.kind = p_kind AND f.row_key = pg_catalog.md5(u.id)::uuid)
            OR (p_kind = 'episodes' AND u.text_hash IS NOT NULL
                AND EXISTS (SELECT 1 FROM memory.forgotten AS f
                             WHERE f.tenant_id = p_tenant_id AND f.text_hash = u.text_hash)));
END
$fn$;

COMMENT ON FUNCTION memory.forgotten_ids(uuid, uuid, text, text[], bytea[]) IS 'The ids among the given that the simulation has forgotten (an episode also by its text anywhere in the tenant): what an import leaves out';
GRANT EXECUTE ON FUNCTION memory.forgotten_ids(uuid, uuid, text, text[], bytea[]) TO memory_reader;
