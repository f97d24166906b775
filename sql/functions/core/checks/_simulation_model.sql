-- The model of a simulation's vectors, and what names it: 'simulation' (its own,
-- simulations.embedding_model), 'vectors' (none named but it holds vectors: the model they
-- record, e.g. vectors from before V0022 or written by upserts), 'tenant' (none named and no
-- vector yet: the tenant's model, which its first import takes) or 'default'. A simulation
-- the tenant does not have is answered like a new one (no id is revealed). The caller has
-- entered the tenant. The one rule of a simulation's model.
CREATE OR REPLACE FUNCTION memory._simulation_model(p_tenant_id uuid, p_simulation_id uuid,
                                                    OUT model text, OUT named_by text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    SELECT s.embedding_model INTO model FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF model IS NOT NULL THEN
        named_by := 'simulation';
        RETURN;
    END IF;
    IF FOUND THEN
        SELECT v.model INTO model
          FROM (SELECT * FROM (SELECT n.embedding_model AS model FROM memory.nodes AS n
                                WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                                  AND n.embedding IS NOT NULL LIMIT 1) AS a
                UNION ALL
                SELECT * FROM (SELECT e.embedding_model FROM memory.edges AS e
                                WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                  AND e.embedding IS NOT NULL LIMIT 1) AS b
                UNION ALL
                SELECT * FROM (SELECT e.embedding_model FROM memory.episodes AS e
                                WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                  AND e.embedding IS NOT NULL LIMIT 1) AS c
                UNION ALL
                SELECT * FROM (SELECT c.embedding_model FROM memory.report_chunks AS c
                                WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
                                  AND c.embedding IS NOT NULL LIMIT 1) AS d) AS v
         LIMIT 1;
        IF model IS NOT NULL THEN
            named_by := 'vectors';
            RETURN;
        END IF;
    END IF;
    SELECT t.embedding_model INTO model FROM memory.tenant_models AS t WHERE t.tenant_id = p_tenant_id;
    named_by := CASE WHEN model IS NULL THEN 'default' ELSE 'tenant' END;
    model := COALESCE(model, memory._default_model());
END
$fn$;

COMMENT ON FUNCTION memory._simulation_model(uuid, uuid) IS 'Internal: the model of a simulation''s vectors and what names it (simulation, vectors, tenant, default)';
GRANT EXECUTE ON FUNCTION memory._simulation_model(uuid, uuid) TO memory_reader;
