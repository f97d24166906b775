-- Link the entities of a simulation with those of the tenant's other simulations (or of one,
-- p_other_simulation_id): names and aliases, type, trigram and vector similarity, shared
-- neighbours, without a language model (memory._link_pair). p_min_score: the least score of
-- a link (NULL: memory._link_threshold()), 0 to 1. Idempotent: a second call with nothing
-- changed writes nothing; a person's decisions (memory.decide_link) are kept. One row a
-- simulation linked against: the links it holds, and how many this call added, changed and
-- stopped counting.
CREATE OR REPLACE FUNCTION memory.link_runs(p_tenant_id uuid, p_simulation_id uuid,
                                            p_other_simulation_id uuid DEFAULT NULL,
                                            p_min_score real DEFAULT NULL)
RETURNS TABLE (other_simulation_id uuid, other_name text, linked bigint, added bigint, changed bigint, dropped bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_min   real := COALESCE(p_min_score, memory._link_threshold());
    v_other record;
    v_r     record;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    IF p_other_simulation_id IS NOT NULL THEN
        PERFORM memory._require_simulation(p_tenant_id, p_other_simulation_id);
        IF p_other_simulation_id = p_simulation_id THEN
            RAISE EXCEPTION 'a simulation is not linked with itself: %', p_simulation_id
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'name another simulation of the tenant, or none to link with all of them';
        END IF;
    END IF;
    IF v_min IS NULL OR NOT (v_min >= 0 AND v_min <= 1) THEN
        RAISE EXCEPTION 'p_min_score % is outside 0 to 1', v_min
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a score from 0 to 1, or NULL for the default';
    END IF;
    FOR v_other IN
        SELECT s.simulation_id, s.name
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published AND s.simulation_id <> p_simulation_id
           AND (p_other_simulation_id IS NULL OR s.simulation_id = p_other_simulation_id)
         ORDER BY s.created_at, s.simulation_id
    LOOP
        SELECT * INTO v_r
          FROM memory._link_pair(p_tenant_id => p_tenant_id,
                                 p_simulation_a => LEAST(p_simulation_id, v_other.simulation_id),
                                 p_simulation_b => GREATEST(p_simulation_id, v_other.simulation_id),
                                 p_min_score => v_min);
        other_simulation_id := v_other.simulation_id;
        other_name := v_other.name;
        linked := v_r.linked;
        added := v_r.added;
        changed := v_r.changed;
        dropped := v_r.dropped;
        RETURN NEXT;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.link_runs(uuid, uuid, uuid, real) IS 'Link a simulation''s entities with those of the tenant''s other simulations (or one): scored, with evidence, idempotent';
GRANT EXECUTE ON FUNCTION memory.link_runs(uuid, uuid, uuid, real) TO memory_writer;
