-- Create this session's temporary staging tables, if they are not there yet:
--   pg_temp.stage_nodes, stage_edges, stage_episodes, stage_profiles.
-- COPY is refused on tables under row-level security, so a bulk loader COPYs into these
-- (no RLS on a session's own temporary tables) and then calls memory.stage_rows(), which
-- validates the rows and moves them into the attempt under the policies' WITH CHECK.
-- Their columns are those of the staged tables (memory.staged_*) without tenant and attempt:
-- position is the row's place in its source, named in errors, and generated keys (node_key)
-- fill themselves, so a loader lists the columns it writes (attgenerated = ''). Every
-- column takes NULL here, so that a missing value is reported with its position. Rows are
-- deleted at commit. Reads no data, so takes no tenant.
CREATE OR REPLACE FUNCTION memory.open_staging() RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind memory.record_kind;
    v_cols text;
BEGIN
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        CONTINUE WHEN pg_catalog.to_regclass('pg_temp.stage_' || v_kind.kind) IS NOT NULL;
        SELECT pg_catalog.string_agg(pg_catalog.format('%I %s', a.attname,
                   pg_catalog.format_type(a.atttypid, a.atttypmod))
                   || CASE WHEN a.attgenerated = 's' THEN pg_catalog.format(' GENERATED ALWAYS AS (%s) STORED',
                                                         pg_catalog.pg_get_expr(d.adbin, d.adrelid)) ELSE '' END,
                   ', ' ORDER BY a.attnum)
          INTO v_cols
          FROM pg_catalog.pg_attribute AS a
          LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE a.attrelid = v_kind.staged AND a.attnum > 0 AND NOT a.attisdropped
           AND a.attname NOT IN ('tenant_id', 'attempt_id');
        EXECUTE pg_catalog.format('CREATE TEMPORARY TABLE %I (%s) ON COMMIT DELETE ROWS',
                                  'stage_' || v_kind.kind, v_cols);
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.open_staging() IS 'Create the session''s temporary staging tables (pg_temp.stage_*) that bulk loaders COPY into';
GRANT EXECUTE ON FUNCTION memory.open_staging() TO memory_writer;
