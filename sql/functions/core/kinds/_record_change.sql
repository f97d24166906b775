-- Append one change to the tenant's change feed (memory.changes), in the caller's
-- transaction: the change commits with the write it describes or not at all. Every write
-- path calls it once per change (commit_import through memory._record_import, the upserts
-- through memory._record_upsert, the deletes, record_outcome, compaction, retention, a
-- re-embed switch). Returns the change's id (the cursor of memory.changes_since).
-- Numbers and commit order: the tenant's row of memory.change_heads is updated first, and
-- its row lock is held until the transaction ends, so a later change of the tenant takes
-- its numbers only after this one has committed (or rolled back). change_id is the head's
-- last_change_id plus one (V0039: the tenant's own counter, 1, 2, 3 ... for a tenant created
-- since, never another tenant's number, the same on every Citus worker) and seq its
-- changes plus one: within a tenant change_id order is commit order, and a reader that has
-- seen change n never meets a smaller one later. The lock is the tenant's own row, which no
-- other tenant's role can see or lock. A NOTIFY on channel memory_changes, without payload
-- (no ids), is delivered at commit (on Citus, to the listeners of the tenant's worker,
-- where the write runs).
-- p_kind: a record kind, 'simulation', 'prediction_outcomes', 'embeddings' ...; p_op one
-- of import, upsert, delete, outcome, compact, retention, reembed (22023 otherwise);
-- p_ids the ids the change names (NULL: the kind of the simulation, p_counts says how many).
-- p_counts and p_detail are at most 64 kB of JSON text each (the few numbers and names a
-- change carries; 54000 beyond), p_ids at most memory._limit('batch_bytes') (what one batch
-- may carry, the most one change names).
-- Callers: only a PL/pgSQL function of schema memory owned by memory_owner, calling it
-- through a plain expression (`v := memory._record_change(...)`, `RETURN ...`; not PERFORM
-- or a query): any other caller is refused with 42501, so a tenant role cannot write its
-- own feed. Tenant roles keep EXECUTE because the invoker write paths run as them; what
-- decides is the call stack (GET DIAGNOSTICS PG_CONTEXT), whose line just below this
-- function's own is the frame of the function that evaluated the call:
--   - a PL/pgSQL frame prints its function as format_procedure does under that function's
--     own search_path: every function of schema memory pins pg_catalog, pg_temp, so it
--     prints as memory.name(args); a function of any other schema (pg_temp included) prints
--     with its schema, and an unqualified one or one named with a dot, quote or newline
--     prints quoted or without a schema: only schema memory, where no tenant role may create,
--     prints as `memory.` followed by a plain name;
--   - a call made through SPI (PERFORM, SELECT ... INTO, a sub-select, EXECUTE) puts the
--     statement's text, verbatim, between the two frames, and a caller's statement could
--     carry a forged frame line in a quoted alias or comment: so no statement line may come
--     between; a plain expression is evaluated by PL/pgSQL without one;
--   - a SQL-language function prints `SQL function "name"`, never a PL/pgSQL frame (and one
--     inlined into a query leaves no frame: the frame below is then that query's caller,
--     after the query's statement line, or none at the top level); other languages print
--     their own words.
-- The frame's words are read from this function's own line, so a server whose messages are
-- translated (lc_messages) reads its callers alike. The named function must exist in
-- schema memory, in PL/pgSQL, owned by memory_owner.
-- SECURITY DEFINER: no tenant role may write the feed or lock its heads. The caller is
-- checked as memory._acting_role(): a grant for the tenant, or memory_admin (delete_tenant,
-- sweep). The head's time is the proposed row's (now(), in VALUES): Citus refuses now()
-- itself in the SET of an ON CONFLICT DO UPDATE on a distributed table.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the call stack (above), the grant of memory._acting_role() (the SET ROLE
-- role, else the session user), and the call's tenant setting, which it sets itself.
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
    c_object_bytes CONSTANT bigint := 64 * 1024;  -- p_counts and p_detail, as JSON text
    v_stack  text;
    v_own    text;
    v_frame  text;
    v_caller text;
    v_seq    bigint;
    v_id     bigint;
BEGIN
    GET DIAGNOSTICS v_stack = PG_CONTEXT;
    v_own := pg_catalog.split_part(v_stack, E'\n', 1);
    v_frame := pg_catalog.left(v_own, pg_catalog.strpos(v_own, 'memory._record_change(') - 1);
    IF pg_catalog.strpos(v_own, 'memory._record_change(') > 1
       AND pg_catalog.starts_with(pg_catalog.substr(v_stack, pg_catalog.length(v_own) + 2), v_frame || 'memory.') THEN
        -- [(] rather than a backslash: a literal's backslashes read as the session's
        -- standard_conforming_strings says
        v_caller := pg_catalog.substring(pg_catalog.substr(v_stack, pg_catalog.length(v_own) + pg_catalog.length(v_frame) + 9),
                                         '^([a-z_][a-z0-9_]*)[(]');
    END IF;
    IF v_caller IS NULL OR NOT EXISTS (
           SELECT 1 FROM pg_catalog.pg_proc AS p
             JOIN pg_catalog.pg_language AS l ON l.oid = p.prolang
            WHERE p.pronamespace = 'memory'::regnamespace AND p.proname = v_caller
              AND l.lanname = 'plpgsql' AND p.proowner = 'memory_owner'::regrole) THEN
        RAISE EXCEPTION 'memory._record_change is called only by the memory''s own write paths, not by %',
                        COALESCE(memory._quote(NULLIF(pg_catalog.split_part(v_stack, E'\n', 2), '')), 'a query')
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'the feed records what the public functions (upsert_nodes, delete_simulation ...) write';
    END IF;
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant the change belongs to');
    PERFORM memory._not_null(p_kind, 'p_kind', 'name the kind that changed');
    PERFORM memory._not_null(p_op, 'p_op', 'one of import, upsert, delete, outcome, compact, retention, reembed');
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    IF NOT (memory._holds_grant(p_tenant_id) OR pg_catalog.pg_has_role(memory._acting_role(), 'memory_admin', 'USAGE')) THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %', memory._acting_role(), p_tenant_id
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
    IF pg_catalog.octet_length(p_counts::text) > c_object_bytes OR pg_catalog.octet_length(p_detail::text) > c_object_bytes THEN
        RAISE EXCEPTION 'a change''s counts or detail exceed % bytes: % and %', c_object_bytes,
                        pg_catalog.octet_length(p_counts::text), pg_catalog.octet_length(p_detail::text)
            USING ERRCODE = 'program_limit_exceeded', HINT = 'a change carries a few numbers and names; the rows hold the rest';
    END IF;
    PERFORM memory._check_limit('batch_bytes', 'p_ids', pg_catalog.pg_column_size(p_ids));
    INSERT INTO memory.change_heads AS h (tenant_id, changes, last_change_id, last_change_at)
    VALUES (p_tenant_id, 1, 1, pg_catalog.now())
    ON CONFLICT (tenant_id) DO UPDATE SET changes = h.changes + 1, last_change_id = h.last_change_id + 1,
                                          last_change_at = excluded.last_change_at
    RETURNING h.changes, h.last_change_id INTO v_seq, v_id;
    INSERT INTO memory.changes (tenant_id, change_id, seq, simulation_id, kind, op, attempt_id, ids, counts, detail)
    VALUES (p_tenant_id, v_id, v_seq, p_simulation_id, p_kind, p_op, p_attempt_id, p_ids,
            COALESCE(p_counts, '{}'::jsonb), COALESCE(p_detail, '{}'::jsonb));
    PERFORM pg_catalog.pg_notify('memory_changes', '');
    RETURN v_id;
END
$fn$;

COMMENT ON FUNCTION memory._record_change(uuid, uuid, text, text, text[], jsonb, uuid, jsonb) IS 'Internal: append a change to the tenant''s feed in the caller''s transaction, in commit order, numbered per tenant; callable only from a PL/pgSQL function of schema memory through a plain expression (SECURITY DEFINER: no tenant role writes the feed)';
GRANT EXECUTE ON FUNCTION memory._record_change(uuid, uuid, text, text, text[], jsonb, uuid, jsonb) TO memory_writer, memory_admin;
