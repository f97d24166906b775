-- The trigrams of an entity's name as memory._name_match compares them (pg_trgm's show_trgm
-- of the lower-cased name, CJK runs as character pairs): the 't' postings of a name
-- (memory.word_postings, V0020), and the question's side of memory.match_entities.
CREATE OR REPLACE FUNCTION memory._name_trigrams(p_name text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT public.show_trgm(pg_catalog.lower(memory._words_text(p_name)))
$fn$;

COMMENT ON FUNCTION memory._name_trigrams(text) IS 'Internal: the trigrams of a name as memory._name_match compares them (the t postings)';
GRANT EXECUTE ON FUNCTION memory._name_trigrams(text) TO memory_reader, memory_writer;
