-- Delete a simulation of the tenant with its rows of every record kind (nodes, edges,
-- episodes, profiles, reports and their sections, chunks and log lines, predictions) and its
-- recorded prediction outcomes (its import attempts and staged rows go by cascade); returns
-- how many nodes, edges, episodes, profiles, reports and predictions went.
-- memory.delete_simulation calls it once the simulation is known to be the caller's.
-- SECURITY DEFINER: writers hold no DELETE on the tables (with it they could LOCK them in
-- modes that stop every tenant). memory._enter_tenant checks the session user's grant first
-- (SET ROLE does not change it), and the owner's policies keep every statement to its rows.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call; its
-- SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._delete_simulation(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint, profiles bigint, reports bigint,
               predictions bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind   memory.record_kind;
    v_count  bigint;
    v_counts jsonb := '{}'::jsonb;
    v_change bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    -- Each kind counted, then the simulation deleted: its rows of every kind go by the
    -- foreign keys' cascade, and so the history trigger keeps no version of them
    -- (memory._record_history keeps none of a simulation that is gone; deleting each kind
    -- first would copy every row into memory.row_history only for the cascade to remove it).
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2',
                                  v_kind.live)
           INTO v_count USING p_tenant_id, p_simulation_id;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind.kind, v_count);
    END LOOP;
    DELETE FROM memory.simulations AS s WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    -- the change feed (V0021)
    v_change := memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                      p_kind => 'simulation', p_op => 'delete', p_ids => NULL,
                                      p_counts => v_counts);
    RETURN QUERY SELECT (v_counts ->> 'nodes')::bigint, (v_counts ->> 'edges')::bigint,
                        (v_counts ->> 'episodes')::bigint, (v_counts ->> 'profiles')::bigint,
                        (v_counts ->> 'reports')::bigint, (v_counts ->> 'predictions')::bigint;
END
$fn$;

COMMENT ON FUNCTION memory._delete_simulation(uuid, uuid) IS 'Internal: delete a simulation''s rows of every kind, returning the counts (SECURITY DEFINER: writers hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory._delete_simulation(uuid, uuid) TO memory_writer;
