-- The embedding model of a tenant (p_simulation_id NULL: the model of its new simulations)
-- or of a simulation (memory._simulation_model's rule; a simulation the tenant does not have
-- yet answers as a new one would: the tenant's), with what names it and how to embed for it.
-- A client embeds a simulation's questions and texts with this model.
CREATE OR REPLACE FUNCTION memory.model_of(p_tenant_id uuid, p_simulation_id uuid DEFAULT NULL)
RETURNS TABLE (model text, named_by text, dimensions integer, normalized boolean, query_prefix text,
               passage_prefix text, package text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_model text;
    v_by    text;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_simulation_id IS NULL THEN
        SELECT t.embedding_model INTO v_model FROM memory.tenant_models AS t WHERE t.tenant_id = p_tenant_id;
        v_by := CASE WHEN v_model IS NULL THEN 'default' ELSE 'tenant' END;
        v_model := COALESCE(v_model, memory._default_model());
    ELSE
        SELECT s.model, s.named_by INTO v_model, v_by FROM memory._simulation_model(p_tenant_id, p_simulation_id) AS s;
    END IF;
    RETURN QUERY
    SELECT m.model, v_by, m.dimensions, m.normalized, m.query_prefix, m.passage_prefix, m.package
      FROM memory.embedding_models AS m WHERE m.model = v_model;
END
$fn$;

COMMENT ON FUNCTION memory.model_of(uuid, uuid) IS 'The embedding model of a tenant''s new simulations or of a simulation''s vectors, what names it, and how to embed for it';
GRANT EXECUTE ON FUNCTION memory.model_of(uuid, uuid) TO memory_reader;
