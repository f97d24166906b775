-- The first key of a record kind staged twice for an import attempt, in the session's
-- staging table or across it and the attempt's earlier batches, with the first two
-- positions that hold it. No row when every key is staged once.
CREATE OR REPLACE FUNCTION memory._staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (key text, first_position integer, second_position integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind memory.record_kind := memory._kind(p_kind);
    v_key  text;
BEGIN
    -- The key as a person names it: the id, or the key fields joined by '/'.
    SELECT pg_catalog.string_agg(pg_catalog.format('%%1$I.%I',
               CASE WHEN f.field = 'id' THEN v_kind.id_column::text ELSE f.field END), ', ' ORDER BY f.ord)
      INTO v_key
      FROM pg_catalog.unnest(v_kind.batch_key) WITH ORDINALITY AS f(field, ord);
    v_key := 'pg_catalog.concat_ws(''/'', ' || v_key || ')';
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT k.key, pg_catalog.min(k.position),'
        '       (pg_catalog.array_agg(k.position ORDER BY k.position))[2]'
        '  FROM (SELECT %1$s AS key, s.position FROM pg_temp.%2$I AS s'
        '        UNION ALL'
        '        SELECT %3$s, st.position FROM %4$s AS st JOIN pg_temp.%2$I AS s ON %5$s'
        '         WHERE st.tenant_id = $1 AND st.attempt_id = $2) AS k'
        ' GROUP BY k.key HAVING pg_catalog.count(*) > 1'
        ' ORDER BY 2 LIMIT 1',
        pg_catalog.format(v_key, 's'), 'stage_' || p_kind, pg_catalog.format(v_key, 'st'),
        v_kind.staged, memory._kind_key(p_kind, 'st', 's'))
    USING p_tenant_id, p_attempt_id;
END
$fn$;

COMMENT ON FUNCTION memory._staging_duplicate(text, uuid, uuid) IS 'Internal: the first key of a record kind staged twice for an import attempt';
GRANT EXECUTE ON FUNCTION memory._staging_duplicate(text, uuid, uuid) TO memory_writer;
