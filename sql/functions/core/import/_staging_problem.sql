-- The first row of the session's staging table of a record kind (pg_temp.stage_<kind>,
-- see memory.open_staging) that cannot be staged, by position, and what is wrong with it:
-- a value the kind requires is missing (NOT NULL without default in its staged table; an
-- id may not be empty either), a label longer than memory._label_max(), a vector that is
-- zero or of no finite length as stored (memory._vector_problem). No row when every row can
-- be staged. A row with a value over a cap of memory._limit() (a text column over
-- string_bytes, a jsonb one over object_bytes, a text[] one over list_elements) is refused
-- here with 54000, naming the kind, the position and the column. A staged jsonb value is
-- measured as text: pg_column_size would give its compressed size. One scan of the table.
CREATE OR REPLACE FUNCTION memory._staging_problem(p_kind text) RETURNS TABLE (row_position integer, problem text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_checks   text;
    v_sizes    text;
    v_item     text;
    v_position integer;
    v_problem  text;
    v_over     text[];
BEGIN
    SELECT pg_catalog.string_agg(
               CASE WHEN c.required AND c.col = k.id_column
                    THEN pg_catalog.format(' WHEN s.%I IS NULL OR s.%I = %L THEN %L', c.col, c.col, '', c.col || ' is missing')
                    WHEN c.required
                    THEN pg_catalog.format(' WHEN s.%I IS NULL THEN %L', c.col, c.col || ' is missing')
                    ELSE '' END
               || CASE c.check_kind
                    WHEN 'label' THEN pg_catalog.format(
                        ' WHEN pg_catalog.char_length(s.%I) > memory._label_max() THEN %L', c.col,
                        pg_catalog.format('%s is longer than %s characters', c.col, memory._label_max()))
                    WHEN 'vector' THEN pg_catalog.format(
                        ' WHEN memory._vector_problem(s.%I) IS NOT NULL THEN %L || memory._vector_problem(s.%I)',
                        c.col, c.col || ' ', c.col)
                    ELSE '' END, ''),
           pg_catalog.string_agg(
               CASE c.type_sql
                    WHEN 'text' THEN pg_catalog.format(
                        ' WHEN pg_catalog.octet_length(s.%1$I) > %2$s THEN ARRAY[%1$L, %3$L, pg_catalog.octet_length(s.%1$I)::text]',
                        c.col, memory._limit('string_bytes'), 'string_bytes')
                    WHEN 'jsonb' THEN pg_catalog.format(
                        ' WHEN pg_catalog.octet_length(s.%1$I::text) > %2$s THEN ARRAY[%1$L, %3$L, pg_catalog.octet_length(s.%1$I::text)::text]',
                        c.col, memory._limit('object_bytes'), 'object_bytes')
                    WHEN 'text[]' THEN pg_catalog.format(
                        ' WHEN pg_catalog.cardinality(s.%1$I) > %2$s THEN ARRAY[%1$L, %3$L, pg_catalog.cardinality(s.%1$I)::text]',
                        c.col, memory._limit('list_elements'), 'list_elements')
                    ELSE '' END, ''),
           pg_catalog.min(k.item)
      INTO v_checks, v_sizes, v_item
      FROM memory._kind_columns(p_kind) AS c
     CROSS JOIN memory._kind(p_kind) AS k;
    EXECUTE pg_catalog.format(
        'SELECT p.position, p.problem, p.over'
        '  FROM (SELECT s.position, CASE %s END AS problem,'
        '               CASE WHEN false THEN NULL::text[] %s END AS over FROM pg_temp.%I AS s) AS p'
        ' WHERE p.problem IS NOT NULL OR p.over IS NOT NULL ORDER BY p.position LIMIT 1',
        v_checks, v_sizes, 'stage_' || p_kind)
       INTO v_position, v_problem, v_over;
    IF v_over IS NOT NULL THEN
        PERFORM memory._check_limit(v_over[2], pg_catalog.format('%s at position %s: %s', v_item, v_position, v_over[1]),
                                    v_over[3]::bigint);
    END IF;
    IF v_position IS NOT NULL THEN
        RETURN QUERY SELECT v_position, v_problem;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._staging_problem(text) IS 'Internal: the first row of a session staging table that cannot be staged, and why (54000 for a value over a cap)';
GRANT EXECUTE ON FUNCTION memory._staging_problem(text) TO memory_writer;
