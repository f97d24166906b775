-- The embedding model of a tenant (p_simulation_id NULL: the model of its new simulations)
-- or of a simulation (memory._simulation_model's rule; a simulation the tenant does not have
-- yet answers as a new one would: the tenant's), with what names it and how to embed for it.
-- A client embeds a simulation's questions and texts with this model.
CREATE OR REPLACE FUNCTION memory.model_of(p_tenant_id uuid, p_simulation_id uuid DEFAULT NULL)
RETURNS TABLE (model text, named_by text, dimensions integer, normalized boolean, query_prefix text,
               passage_prefix text, package text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._enter_tenant(p_tenant_id);
    -- no simulation of id NULL exists: memory._simulation_model answers as for a new one
    SELECT m.model, s.named_by, m.dimensions, m.normalized, m.query_prefix, m.passage_prefix, m.package
      FROM memory._simulation_model(p_tenant_id, p_simulation_id) AS s
      JOIN memory.embedding_models AS m ON m.model = s.model;
$fn$;

COMMENT ON FUNCTION memory.model_of(uuid, uuid) IS 'The embedding model of a tenant''s new simulations or of a simulation''s vectors, what names it, and how to embed for it';
GRANT EXECUTE ON FUNCTION memory.model_of(uuid, uuid) TO memory_reader;
