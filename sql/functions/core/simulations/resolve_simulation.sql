-- The simulations of a tenant that a reference names, the best kind of match only: those
-- named exactly so; else those whose MiroFish simulation_id (state.json's, recorded in their
-- metadata by an import) is it; else those whose MiroFish graph_id is it. An exact name wins
-- over a MiroFish id, so a simulation named "sim_abc" is found even when a copy imported
-- under another name carries the MiroFish id "sim_abc". No row: nothing is called so;
-- several: the reference is ambiguous and the rows are the candidates. The reference is
-- matched as text: a caller that takes a UUID for the id itself does so before asking.
CREATE OR REPLACE FUNCTION memory.resolve_simulation(p_tenant_id uuid, p_reference text)
RETURNS TABLE (simulation_id uuid, name text, mirofish_id text, graph_id text, matched_by text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._enter_tenant(p_tenant_id);
    SELECT memory._not_null(p_reference, 'p_reference', 'pass a simulation''s name or MiroFish id');
    SELECT memory._check_limit('string_bytes', 'p_reference', pg_catalog.octet_length(p_reference));
    WITH matched AS (
        SELECT s.simulation_id, s.name, s.metadata ->> 'simulation_id' AS mirofish_id,
               s.metadata ->> 'graph_id' AS graph_id, m.matched_by, m.rank, s.created_at
          FROM memory.simulations AS s
         CROSS JOIN LATERAL (VALUES ('name', 1, s.name),
                                    ('mirofish_id', 2, s.metadata ->> 'simulation_id'),
                                    ('graph_id', 3, s.metadata ->> 'graph_id'))
                 AS m (matched_by, rank, value)
         WHERE s.tenant_id = p_tenant_id AND m.value = p_reference
    )
    SELECT m.simulation_id, m.name, m.mirofish_id, m.graph_id, m.matched_by
      FROM matched AS m
     WHERE m.rank = (SELECT pg_catalog.min(b.rank) FROM matched AS b)
     ORDER BY m.created_at, m.simulation_id;
$fn$;

COMMENT ON FUNCTION memory.resolve_simulation(uuid, text) IS 'The simulations a name or MiroFish id names (an exact name first); several rows: ambiguous';
GRANT EXECUTE ON FUNCTION memory.resolve_simulation(uuid, text) TO memory_reader;
