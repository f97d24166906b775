-- The simulations of a tenant, by name, with the MiroFish id an import recorded in their
-- metadata (state.json's simulation_id) and whether an import has committed yet (an
-- unpublished simulation answers reads with P0002 until then).
CREATE OR REPLACE FUNCTION memory.list_simulations(p_tenant_id uuid)
RETURNS TABLE (simulation_id uuid, name text, mirofish_id text, published boolean,
               created_at timestamptz, updated_at timestamptz)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._enter_tenant(p_tenant_id);
    SELECT s.simulation_id, s.name, s.metadata ->> 'simulation_id', s.published,
           s.created_at, s.updated_at
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id
     ORDER BY s.name NULLS LAST, s.created_at;
$fn$;

COMMENT ON FUNCTION memory.list_simulations(uuid) IS 'The simulations of a tenant with their names, MiroFish ids and whether an import committed';
GRANT EXECUTE ON FUNCTION memory.list_simulations(uuid) TO memory_reader;
