-- The statements of one index action for memory._ann_statements: p_create is its CREATE
-- INDEX template (the index's name and its vector column still to format in, as %I), p_how
-- 'CONCURRENTLY ' or ''. 'build': drop an invalid leftover, create; 'rebuild': create beside
-- the old index, drop it, take its name; 'drop'; 'keep': none; any other action NULL (the
-- caller's 22023). Only quoted names go in.
CREATE OR REPLACE FUNCTION memory._ann_statement_list(p_action text, p_how text, p_create text,
                                                      p_name text, p_column name)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE p_action
        WHEN 'build' THEN ARRAY[
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name),
            pg_catalog.format(p_create, p_name, p_column)]
        WHEN 'rebuild' THEN ARRAY[
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name || '_new'),
            pg_catalog.format(p_create, p_name || '_new', p_column),
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name),
            pg_catalog.format('ALTER INDEX memory.%I RENAME TO %I', p_name || '_new', p_name)]
        WHEN 'drop' THEN ARRAY[pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name)]
        WHEN 'keep' THEN ARRAY[]::text[]
    END
$fn$;

COMMENT ON FUNCTION memory._ann_statement_list(text, text, text, text, name) IS 'Internal: the statements of one build, rebuild, drop or keep of a per-simulation HNSW index, for memory._ann_statements';
GRANT EXECUTE ON FUNCTION memory._ann_statement_list(text, text, text, text, name) TO memory_admin;
