-- Append one change to the tenant's change feed (memory.changes), in the caller's
-- transaction: the change commits with the write it describes or not at all. Every write
-- path calls it once per change (commit_import through memory._record_import, the upserts
-- through memory._record_upsert, the deletes, record_outcome, compaction, retention, a
-- re-embed switch). Returns the change's id (the cursor of memory.changes_since).
-- Commit order: the tenant's row of memory.change_heads is updated first, and its row lock
-- is held until the transaction ends, so a later change of the tenant takes its change_id
-- only after this one has committed (or rolled back): within a tenant change_id order is
-- commit order, and a reader that has seen change n never meets a smaller one later. The
-- lock is the tenant's own row, which no other tenant's role can see or lock. A NOTIFY on
-- channel memory_changes, without payload (no ids), is delivered at commit (on Citus, to
-- the listeners of the tenant's worker, where the write runs).
-- p_kind: a record kind, 'simulation', 'prediction_outcomes', 'embeddings' ...; p_op one
-- of import, upsert, delete, outcome, compact, retention, reembed (22023 otherwise);
-- p_ids the ids the change names (NULL: the kind of the simulation, p_counts says how many).
-- SECURITY DEFINER: no tenant role may write the feed (it could forge changes) or lock its
-- heads. The caller is checked as the session user: a grant for the tenant, or memory_admin
-- (delete_tenant, sweep). The head's time is the proposed row's (now(), in VALUES): Citus
-- refuses now() itself in the SET of an ON CONFLICT DO UPDATE on a distributed table.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
CREATE OR REPLACE FUNCTION memory._record_change(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_kind text,
    p_op text,
    p_ids text[] DEFAULT NULL,
    p_counts jsonb DEFAULT '{}'::jsonb,
    p_attempt_id uuid DEFAULT NULL,
    p_detail jsonb DEFAULT '{}'::jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_seq bigint;
    v_id  bigint;
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant the change belongs to');
    PERFORM memory._not_null(p_kind, 'p_kind', 'name the kind that changed');
    PERFORM memory._not_null(p_op, 'p_op', 'one of import, upsert, delete, outcome, compact, retention, reembed');
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    IF NOT (memory._holds_grant(p_tenant_id) OR pg_catalog.pg_has_role(SESSION_USER, 'memory_admin', 'USAGE')) THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %', SESSION_USER, p_tenant_id
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'an administrator grants it with memory.grant_tenant(role, tenant)';
    END IF;
    IF p_op NOT IN ('import', 'upsert', 'delete', 'outcome', 'compact', 'retention', 'reembed') THEN
        RAISE EXCEPTION 'unknown change operation %', memory._quote(p_op)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of import, upsert, delete, outcome, compact, retention, reembed';
    END IF;
    IF p_kind !~ '^[a-z_]{1,40}$' THEN
        RAISE EXCEPTION 'bad change kind %', memory._quote(p_kind)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'a kind is lower-case letters and _, such as episodes';
    END IF;
    INSERT INTO memory.change_heads AS h (tenant_id, changes, last_change_at)
    VALUES (p_tenant_id, 1, pg_catalog.now())
    ON CONFLICT (tenant_id) DO UPDATE SET changes = h.changes + 1, last_change_at = excluded.last_change_at
    RETURNING h.changes INTO v_seq;
    INSERT INTO memory.changes (tenant_id, seq, simulation_id, kind, op, attempt_id, ids, counts, detail)
    VALUES (p_tenant_id, v_seq, p_simulation_id, p_kind, p_op, p_attempt_id, p_ids,
            COALESCE(p_counts, '{}'::jsonb), COALESCE(p_detail, '{}'::jsonb))
    RETURNING change_id INTO v_id;
    PERFORM pg_catalog.pg_notify('memory_changes', '');
    RETURN v_id;
END
$fn$;

COMMENT ON FUNCTION memory._record_change(uuid, uuid, text, text, text[], jsonb, uuid, jsonb) IS 'Internal: append a change to the tenant''s feed in the caller''s transaction, in commit order (SECURITY DEFINER: no tenant role writes the feed)';
GRANT EXECUTE ON FUNCTION memory._record_change(uuid, uuid, text, text, text[], jsonb, uuid, jsonb) TO memory_writer, memory_admin;
