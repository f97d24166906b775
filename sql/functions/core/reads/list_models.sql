-- The embedding models this installation knows (memory.embedding_models), by name: what a
-- tenant or a simulation may name, and how to embed for it (prefixes, normalisation, the
-- package that computes it). The installation's data: no tenant argument, as memory.route.
CREATE OR REPLACE FUNCTION memory.list_models()
RETURNS TABLE (model text, dimensions integer, normalized boolean, query_prefix text, passage_prefix text,
               package text, languages text[], note text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT m.model, m.dimensions, m.normalized, m.query_prefix, m.passage_prefix, m.package, m.languages, m.note
      FROM memory.embedding_models AS m
     ORDER BY m.model
$fn$;

COMMENT ON FUNCTION memory.list_models() IS 'The embedding models the installation knows: dimensions, normalisation, prefixes, package, languages';
GRANT EXECUTE ON FUNCTION memory.list_models() TO memory_reader, memory_admin;
