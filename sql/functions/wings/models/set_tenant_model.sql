-- Name the model of a tenant's new simulations (NULL: the default model again); a tenant's
-- writer names it (memory.tenant_models, the tenant's own row). A simulation that holds
-- vectors keeps its model (memory._simulation_model): a tenant's model never changes what
-- stored vectors mean; re-embed those to move them. Returns the model now in force.
CREATE OR REPLACE FUNCTION memory.set_tenant_model(p_tenant_id uuid, p_model text) RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._model(p_model) WHERE p_model IS NOT NULL;
    -- (the time from the proposed row: Citus refuses now() in the DO UPDATE SET)
    INSERT INTO memory.tenant_models AS t (tenant_id, embedding_model, updated_at)
    VALUES (p_tenant_id, p_model, pg_catalog.now())
    ON CONFLICT (tenant_id) DO UPDATE SET embedding_model = excluded.embedding_model, updated_at = excluded.updated_at
     WHERE t.embedding_model IS DISTINCT FROM excluded.embedding_model;
    RETURN COALESCE(p_model, memory._default_model());
END
$fn$;

COMMENT ON FUNCTION memory.set_tenant_model(uuid, text) IS 'Name the embedding model of a tenant''s new simulations (NULL: the default)';
GRANT EXECUTE ON FUNCTION memory.set_tenant_model(uuid, text) TO memory_writer;
