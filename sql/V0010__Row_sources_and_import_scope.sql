-- V0010: an import replaces only what it carries, and never removes rows it did not write.
--
-- Every row records how it was written: 'import' (promoted from an import attempt) or 'api'
-- (an upsert_* call, such as a memory a gateway adds between runs). The staged tables
-- default to 'import' and the committed tables to 'api'; memory._merge writes the staged
-- value for an attempt and 'api' for a batch. The promote removes absent rows only where
-- source = 'import'.
--
-- An attempt's scope says which rows it replaces: NULL, every row of the simulation (as
-- before); else an object whose keys are the kinds it carries, each mapped to null (all of
-- the kind) or to a list of platforms (episodes and profiles of those platforms only). A
-- kind the scope does not name is kept as it is.
-- Rows written before this migration are taken as imported (an import could remove them
-- then, as it could before): the column is added with that default, which fills existing
-- rows without rewriting them or touching them under row-level security, and the default
-- of the committed tables then becomes 'api'.
DO $src$
DECLARE
    v_kind text;
BEGIN
    FOREACH v_kind IN ARRAY ARRAY['nodes', 'edges', 'episodes', 'profiles'] LOOP
        EXECUTE pg_catalog.format(
            'ALTER TABLE memory.%I ADD COLUMN source text NOT NULL DEFAULT %L'
            ' CONSTRAINT %I CHECK (source IN (%L, %L))',
            v_kind, 'import', v_kind || '_source_check', 'api', 'import');
        EXECUTE pg_catalog.format('ALTER TABLE memory.%I ALTER COLUMN source SET DEFAULT %L',
                                  v_kind, 'api');
        EXECUTE pg_catalog.format(
            'ALTER TABLE memory.%I ADD COLUMN source text NOT NULL DEFAULT %L'
            ' CONSTRAINT %I CHECK (source IN (%L, %L))',
            'staged_' || v_kind, 'import', 'staged_' || v_kind || '_source_check', 'api', 'import');
        -- memory._merge sets every committed column (see V0006).
        EXECUTE pg_catalog.format('GRANT UPDATE (source) ON memory.%I TO memory_writer', v_kind);
    END LOOP;
END
$src$;

ALTER TABLE memory.import_attempts ADD COLUMN scope jsonb;
ALTER TABLE memory.import_attempts ADD CONSTRAINT import_attempts_scope_check
    CHECK (scope IS NULL OR pg_catalog.jsonb_typeof(scope) = 'object');

-- begin_import gains p_scope (re-created by its re-applied file).
DROP FUNCTION IF EXISTS memory.begin_import(uuid, uuid, jsonb, boolean, jsonb, text);
-- memory._prune gains the platforms an attempt replaces.
DROP FUNCTION IF EXISTS memory._prune(text, uuid, uuid, uuid);
