-- Set a tenant's retention and compaction policy, applied by memory.sweep():
-- p_keep_days: simulations whose last change is older go (NULL keeps every simulation; below
-- 1 22023); p_compact_similarity: compact each agent's near-duplicate episodes above this
-- cosine (NULL: no compaction; from above 0.9 to below 1, 22023 otherwise); p_compact_drop:
-- delete the duplicates (else they stay, marked). Both NULL removes the policy. Unknown
-- tenant P0002 (told by the foreign key: memory_owner reads no tenant row). memory_admin only.
-- SECURITY DEFINER: administrators hold no write privilege on memory.retention_rules; the
-- caller is checked as memory._acting_role() (memory._enter_tenant_as_admin).
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call; its SET clauses pin the
-- rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory.set_retention(p_tenant_id uuid, p_keep_days integer,
                                                p_compact_similarity real DEFAULT NULL,
                                                p_compact_drop boolean DEFAULT false)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    PERFORM memory._not_null(p_compact_drop, 'p_compact_drop', 'pass true or false');
    IF p_keep_days < 1 THEN
        RAISE EXCEPTION 'p_keep_days must be at least 1, not %', p_keep_days
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a number of days, or NULL to keep every simulation';
    END IF;
    IF NOT (p_compact_similarity > 0.9 AND p_compact_similarity < 1) THEN
        RAISE EXCEPTION 'p_compact_similarity must be above 0.9 and below 1, not %', p_compact_similarity
            USING ERRCODE = 'invalid_parameter_value', HINT = pg_catalog.format('near duplicates are at %s and above; NULL: no compaction', memory._near_copy());
    END IF;
    IF p_keep_days IS NULL AND p_compact_similarity IS NULL THEN
        DELETE FROM memory.retention_rules AS r WHERE r.tenant_id = p_tenant_id;
        RETURN;
    END IF;
    BEGIN
        -- the time and the user come from the proposed row (Citus refuses functions that
        -- are not immutable in the DO UPDATE SET of a distributed table)
        INSERT INTO memory.retention_rules AS r (tenant_id, keep_days, compact_similarity, compact_drop,
                                                 updated_at, updated_by)
        VALUES (p_tenant_id, p_keep_days, p_compact_similarity, p_compact_drop, pg_catalog.now(), memory._acting_role())
        ON CONFLICT (tenant_id) DO UPDATE
           SET keep_days = excluded.keep_days, compact_similarity = excluded.compact_similarity,
               compact_drop = excluded.compact_drop, updated_at = excluded.updated_at,
               updated_by = excluded.updated_by
         WHERE (r.keep_days, r.compact_similarity, r.compact_drop)
               IS DISTINCT FROM (excluded.keep_days, excluded.compact_similarity, excluded.compact_drop);
    EXCEPTION WHEN foreign_key_violation THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with memory.list_tenants()';
    END;
END
$fn$;

COMMENT ON FUNCTION memory.set_retention(uuid, integer, real, boolean) IS 'Set a tenant''s retention (simulations older than N days) and compaction policy for memory.sweep(); memory_admin only (SECURITY DEFINER)';
GRANT EXECUTE ON FUNCTION memory.set_retention(uuid, integer, real, boolean) TO memory_admin;
