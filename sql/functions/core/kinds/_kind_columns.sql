-- The data columns of a record kind, read from its staged table: every column but the
-- tenant, the attempt and the generated keys, in table order; whether a row must carry a
-- value (NOT NULL without a default); the default that fills a missing value; whether the
-- committed table has the column (position, the row's place in its source, is staged only);
-- and the checks a value gets before it is staged: 'label' for the columns the kind's batch
-- fields declare labels (at most memory._label_max() characters),
-- 'vector' for vectors; and value_sql, the expression that reads the column from a row
-- aliased s with the defaults applied (a vector named by no model is recorded as
-- memory._default_model()'s), so that staging and merging fill values alike.
CREATE OR REPLACE FUNCTION memory._kind_columns(p_kind text)
RETURNS TABLE (col name, type_sql text, required boolean, default_sql text, committed boolean,
               check_kind text, value_sql text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),
           a.attnotnull AND d.adbin IS NULL, pg_catalog.pg_get_expr(d.adbin, d.adrelid),
           EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS l
                    WHERE l.attrelid = k.live AND l.attname = a.attname AND NOT l.attisdropped),
           CASE WHEN k.batch_spec ->> a.attname IN ('label', 'label!') THEN 'label'
                WHEN a.atttypid = 'public.vector'::pg_catalog.regtype THEN 'vector' END,
           CASE WHEN a.attname = 'embedding_model' THEN
                    'CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END'
                WHEN d.adbin IS NOT NULL THEN
                    pg_catalog.format('COALESCE(s.%I, %s)', a.attname, pg_catalog.pg_get_expr(d.adbin, d.adrelid))
                ELSE pg_catalog.format('s.%I', a.attname) END
      FROM memory._kind(p_kind) AS k
      JOIN pg_catalog.pg_attribute AS a
        ON a.attrelid = k.staged AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attname NOT IN ('tenant_id', 'attempt_id')
     ORDER BY a.attnum
$fn$;

COMMENT ON FUNCTION memory._kind_columns(text) IS 'Internal: the data columns of a record kind, from its staged table, with what the write path needs';
GRANT EXECUTE ON FUNCTION memory._kind_columns(text) TO memory_writer;
