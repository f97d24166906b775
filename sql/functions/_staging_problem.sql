-- The first row of the session's staging table of a record kind (pg_temp.stage_<kind>,
-- see memory.open_staging) that cannot be staged, by position, and what is wrong with it:
-- a value the kind requires is missing (NOT NULL without default in its staged table; an
-- id may not be empty either), a label longer than memory._label_max(), a zero vector.
-- No row when every row can be staged.
CREATE OR REPLACE FUNCTION memory._staging_problem(p_kind text) RETURNS TABLE (row_position integer, problem text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_checks text;
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
                        ' WHEN public.vector_norm(s.%I) = 0 THEN %L', c.col, c.col || ' is the zero vector')
                    ELSE '' END, '')
      INTO v_checks
      FROM memory._kind_columns(p_kind) AS c
     CROSS JOIN memory._kind(p_kind) AS k;
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT p.position, p.problem'
        '  FROM (SELECT s.position, CASE %s END AS problem FROM pg_temp.%I AS s) AS p'
        ' WHERE p.problem IS NOT NULL ORDER BY p.position LIMIT 1',
        v_checks, 'stage_' || p_kind);
END
$fn$;

COMMENT ON FUNCTION memory._staging_problem(text) IS 'Internal: the first row of a session staging table that cannot be staged, and why';
REVOKE ALL ON FUNCTION memory._staging_problem(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._staging_problem(text) TO memory_writer;
