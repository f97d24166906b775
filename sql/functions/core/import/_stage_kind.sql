-- Move the rows of the session's staging table of a record kind into an import attempt
-- (checked before by memory._staging_problem and memory._staging_duplicate), filling
-- defaults as the merge does; returns how many moved. RETURNING, though nothing reads it,
-- is for Citus: it moves rows that come from the coordinator's temporary table into a
-- distributed table with COPY, which row-level security refuses, unless the statement
-- returns rows; then it copies them into an intermediate result on the tenant's worker and
-- inserts them from there with an INSERT, under the policies' WITH CHECK. On one node it
-- costs nothing measurable.
CREATE OR REPLACE FUNCTION memory._stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_cols  text;
    v_vals  text;
    v_moved bigint;
BEGIN
    SELECT pg_catalog.string_agg(pg_catalog.format('%I', c.col), ', '),
           pg_catalog.string_agg(c.value_sql, ', ')
      INTO v_cols, v_vals
      FROM memory._kind_columns(p_kind) AS c;
    EXECUTE pg_catalog.format(
        'INSERT INTO %s (tenant_id, attempt_id, %s) SELECT $1, $2, %s FROM pg_temp.%I AS s RETURNING 1',
        (memory._kind(p_kind)).staged, v_cols, v_vals, 'stage_' || p_kind)
    USING p_tenant_id, p_attempt_id;
    GET DIAGNOSTICS v_moved = ROW_COUNT;
    EXECUTE pg_catalog.format('TRUNCATE pg_temp.%I', 'stage_' || p_kind);
    RETURN v_moved;
END
$fn$;

COMMENT ON FUNCTION memory._stage_kind(text, uuid, uuid) IS 'Internal: move a session staging table''s rows of a record kind into an import attempt';
GRANT EXECUTE ON FUNCTION memory._stage_kind(text, uuid, uuid) TO memory_writer;
