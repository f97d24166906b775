-- Validate an import attempt and promote it whole, atomically: afterwards the simulation
-- holds exactly the attempt's rows within what the attempt replaces (its scope: every kind,
-- or the kinds and platforms begin_import named). Rows that did not change are not written;
-- rows staged without a vector keep the committed one with the same content hash; rows an
-- import wrote that are absent from the attempt are deleted; rows written through upsert_*
-- and kinds outside the scope are kept. Readers see the previous committed state until this transaction
-- commits, then the new one.
-- Refuses (nothing promoted, the attempt stays open): counts other than declared (21000),
-- an edge to a node not in the import unless the attempt skips dangling edges (23503),
-- 40001 for a row staged without a vector that no committed row matches any more (another
-- write of the simulation committed after the importer read the committed hashes: run the
-- import again), or 53400 when
-- the promote would leave the tenant above its quota of a kind (memory._merge, V0038).
-- On Citus the call runs on the tenant's worker (distribute.sql), one local transaction
-- there; the attempt's lock, held by the coordinator session that began it, is released by
-- that session's next begin_import (or its end).
CREATE OR REPLACE FUNCTION memory.commit_import(p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (kind text, inserted bigint, updated bigint, unchanged bigint, deleted bigint,
               skipped bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- Bulk, set-based work on rows the planner has no statistics for yet (a new attempt's):
-- a nested loop chosen on a guess of one row turns quadratic, hash joins never do.
SET enable_nestloop = off
-- Waits for another promote of the same simulation (its row lock), which may take a while.
SET lock_timeout = '60s'
AS $fn$
DECLARE
    v_attempt  memory.import_attempts;
    v_sim      uuid;
    v_kind     memory.record_kind;
    v_problems jsonb;
    v_problem  jsonb;
    v_list     text;
    v_count    bigint;
    v_skipped  text[];
    v_other    uuid;
    v_other_at timestamptz;
    v_result   jsonb := '{}'::jsonb;
    v_finished timestamptz;
BEGIN
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);
    v_sim := v_attempt.simulation_id;
    -- One promote at a time per simulation; re-read the attempt under the lock.
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim FOR UPDATE;
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);

    SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(v) ORDER BY v.problem, v.item_id), '[]')
      INTO v_problems
      FROM memory.validate_import(p_tenant_id, p_attempt_id) AS v
     WHERE v.problem <> 'skipped_edge';

    SELECT p.value INTO v_problem FROM pg_catalog.jsonb_array_elements(v_problems) AS p
     WHERE p.value ->> 'problem' = 'count_mismatch' LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'import attempt % %: %', p_attempt_id, v_problem ->> 'kind', v_problem ->> 'detail'
            USING ERRCODE = 'cardinality_violation',
                  HINT = 'stage every row the import declared, or abort the attempt';
    END IF;

    SELECT pg_catalog.count(*),
           pg_catalog.string_agg(memory._quote(d.value ->> 'item_id') || ' (' || memory._quote(d.value ->> 'detail') || ')', ', '
                                 ORDER BY d.rn) FILTER (WHERE d.rn <= 10)
      INTO v_count, v_list
      FROM (SELECT p.value, pg_catalog.row_number() OVER (ORDER BY p.value ->> 'item_id') AS rn
              FROM pg_catalog.jsonb_array_elements(v_problems) AS p
             WHERE p.value ->> 'problem' = 'dangling_edge') AS d;
    IF v_count > 0 THEN
        RAISE EXCEPTION 'import attempt %: % edges refer to nodes not in the import: %', p_attempt_id,
                v_count, v_list || CASE WHEN v_count > 10 THEN ', ...' ELSE '' END
            USING ERRCODE = 'foreign_key_violation',
                  HINT = 'import the missing nodes, or begin the import with p_skip_dangling => true';
    END IF;

    SELECT p.value INTO v_problem FROM pg_catalog.jsonb_array_elements(v_problems) AS p
     WHERE p.value ->> 'problem' = 'missing_embedding' LIMIT 1;
    IF FOUND THEN
        -- A row is staged without a vector only when the committed row of the simulation
        -- held its text when the importer read the committed hashes (before it began the
        -- attempt); none does now, so another write of the simulation (most often another
        -- import) committed in between and changed it. When that import committed, before
        -- or after this attempt began, says nothing: it only had to commit after the read.
        SELECT a.attempt_id, a.finished_at INTO v_other, v_other_at
          FROM memory.import_attempts AS a
         WHERE a.tenant_id = p_tenant_id AND a.simulation_id = v_sim AND a.state = 'committed'
           AND a.attempt_id <> p_attempt_id
         ORDER BY a.finished_at DESC LIMIT 1;
        RAISE EXCEPTION 'import attempt %: % % changed after this import read the committed rows: another write of the simulation committed while it ran%',
                p_attempt_id, v_problem ->> 'kind', memory._quote(v_problem ->> 'item_id'),
                CASE WHEN v_other IS NULL THEN ''
                     ELSE pg_catalog.format(' (the latest import, attempt %s, committed at %s)', v_other, v_other_at) END
            USING ERRCODE = 'serialization_failure',
                  HINT = 'run the import again: it embeds what the other write changed';
    END IF;

    -- Dangling edges of an attempt that skips them: leave them out, and say which.
    v_skipped := memory._skip_dangling(p_tenant_id, p_attempt_id);
    -- The versions this promote ends are recorded with its attempt (memory._record_history
    -- believes the setting only for an attempt this backend began).
    PERFORM pg_catalog.set_config('memory.attempt_id', p_attempt_id::text, true);

    -- First the rows the attempt does not have are deleted, kind by kind in reverse order
    -- (edges before their nodes, so that no edge goes by cascade uncounted); then every kind
    -- is merged in order (nodes before the edges that reference them). Pruning first costs a
    -- first import nothing (the simulation holds no row of the kind to compare), where
    -- pruning after the merge would compare every row just written.
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord DESC LOOP
        v_result := v_result || pg_catalog.jsonb_build_object(v_kind.kind, pg_catalog.jsonb_build_object(
            'deleted',
            CASE WHEN v_attempt.scope IS NULL OR v_attempt.scope ? v_kind.kind
                 THEN memory._prune(v_kind.kind, p_tenant_id, v_sim, p_attempt_id,
                                    CASE WHEN pg_catalog.jsonb_typeof(v_attempt.scope -> v_kind.kind) = 'array'
                                         THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(
                                                               v_attempt.scope -> v_kind.kind)) END)
                 ELSE 0 END,
            -- What the attempt replaced of the kind: all of it (true), some platforms, nothing.
            'replaced',
            CASE WHEN v_attempt.scope IS NULL OR pg_catalog.jsonb_typeof(v_attempt.scope -> v_kind.kind) = 'null'
                 THEN 'true'::jsonb ELSE COALESCE(v_attempt.scope -> v_kind.kind, 'false'::jsonb) END));
    END LOOP;
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        SELECT pg_catalog.jsonb_set(v_result, ARRAY[v_kind.kind],
                                    (v_result -> v_kind.kind) || pg_catalog.to_jsonb(m))
          INTO v_result FROM memory._merge(v_kind.kind, p_tenant_id, v_sim, p_attempt_id) AS m;
    END LOOP;
    -- V0016: the evidence behind each fact, as the promoted rows stand, when the promote
    -- changed a node, an edge or an episode (an import of reports alone, or an unchanged
    -- replay, leaves the evidence as it is).
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(ARRAY['nodes', 'edges', 'episodes']) AS k(kind)
                WHERE (v_result -> k.kind ->> 'inserted')::bigint + (v_result -> k.kind ->> 'updated')::bigint
                      + (v_result -> k.kind ->> 'deleted')::bigint > 0) THEN
        PERFORM memory._link_evidence(p_tenant_id, v_sim);
    END IF;
    v_result := pg_catalog.jsonb_set(v_result, '{edges,skipped}',
                                     pg_catalog.to_jsonb(COALESCE(pg_catalog.cardinality(v_skipped), 0)));
    IF v_skipped IS NOT NULL THEN
        v_result := v_result || pg_catalog.jsonb_build_object('skipped_edges', pg_catalog.to_jsonb(v_skipped));
    END IF;

    UPDATE memory.simulations AS s
       SET published = true,
           name = COALESCE(v_attempt.metadata ->> '_name', s.name),
           metadata = s.metadata || (v_attempt.metadata - '_name'),
           updated_at = pg_catalog.now()
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim
       AND (NOT s.published
            OR s.name IS DISTINCT FROM COALESCE(v_attempt.metadata ->> '_name', s.name)
            OR s.metadata IS DISTINCT FROM s.metadata || (v_attempt.metadata - '_name'));
    -- read first: Citus refuses a volatile function in an UPDATE of a distributed table
    v_finished := pg_catalog.clock_timestamp();
    UPDATE memory.import_attempts AS a
       SET state = 'committed', result = v_result, finished_at = v_finished
     WHERE a.tenant_id = p_tenant_id AND a.attempt_id = p_attempt_id;
    PERFORM memory._discard_staged(p_tenant_id, ARRAY[p_attempt_id]);
    PERFORM memory._release_attempt_lock(v_attempt.lock_key);
    PERFORM memory._record_import(p_tenant_id, v_sim, p_attempt_id, v_result);  -- the change feed (V0021)

    RETURN QUERY
    SELECT k.kind, (v_result #>> ARRAY[k.kind, 'inserted'])::bigint,
           (v_result #>> ARRAY[k.kind, 'updated'])::bigint,
           (v_result #>> ARRAY[k.kind, 'unchanged'])::bigint,
           (v_result #>> ARRAY[k.kind, 'deleted'])::bigint,
           COALESCE((v_result #>> ARRAY[k.kind, 'skipped'])::bigint, 0)
      FROM memory._record_kinds() AS k
     ORDER BY k.ord;
END
$fn$;

COMMENT ON FUNCTION memory.commit_import(uuid, uuid) IS 'Validate an import attempt and promote it whole, atomically (21000 counts, 23503 dangling edges)';
GRANT EXECUTE ON FUNCTION memory.commit_import(uuid, uuid) TO memory_writer;
