-- Compact a simulation's near-duplicate episodes now (memory.sweep does it by the tenant's
-- policy): each agent's episodes with a cosine similarity above p_similarity (default
-- 0.99; from above 0.9 to below 1, 22023 otherwise) become one representative with its count
-- (memory.episode_clumps); p_drop deletes the other members, else they are kept. Visible in
-- the change feed (op compact). Unknown simulation P0002.
-- SECURITY DEFINER (the work runs in memory._compact_episodes): writers hold no DELETE.
-- The caller is checked first as the session user (memory._require_simulation).
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call
-- (through memory._require_simulation); its SET clauses pin the rest, and every value
-- passes as a parameter.
CREATE OR REPLACE FUNCTION memory.compact_episodes(p_tenant_id uuid, p_simulation_id uuid,
                                                   p_similarity real DEFAULT 0.99, p_drop boolean DEFAULT false)
RETURNS TABLE (clumps integer, episodes integer, dropped integer)
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._not_null(p_similarity, 'p_similarity', 'pass a cosine similarity such as 0.99');
    SELECT memory._not_null(p_drop, 'p_drop', 'pass true to delete the duplicates, false to keep them');
    SELECT * FROM memory._compact_episodes(p_tenant_id, p_simulation_id, p_similarity, p_drop);
$fn$;

COMMENT ON FUNCTION memory.compact_episodes(uuid, uuid, real, boolean) IS 'Compact an agent''s near-duplicate episodes (cosine above p_similarity) into one representative with its count; p_drop deletes the others (SECURITY DEFINER: writers hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory.compact_episodes(uuid, uuid, real, boolean) TO memory_writer;
