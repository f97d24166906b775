-- The entities of a simulation whose names a text names or nearly names, best first (ties
-- by node id): memory._name_match, pg_trgm's word_similarity of the name within the text
-- with CJK runs as bigrams, at least 0.5 (a name inside a sentence, misspelt by a letter or
-- two, or a Chinese name inside a Chinese sentence). Only the names sharing enough trigrams
-- with the text are compared (memory._name_candidates, through the trigram postings of
-- V0020), never every name of the simulation (measured: bench/README.md). p_limit clamped
-- to 1..1000 (NULL means 10).
CREATE OR REPLACE FUNCTION memory.match_entities(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_text text,
    p_limit integer DEFAULT 10)
RETURNS TABLE (node_id text, name text, type text, similarity real)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._words_prepare(p_text, 'p_text');
    SELECT n.node_id, n.name, n.type, c.similarity
      FROM memory._name_candidates(p_tenant_id, p_simulation_id, p_text, memory._page_rows(p_limit, 10)) AS c
      JOIN memory.nodes AS n
        ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = c.node_key
     ORDER BY c.similarity DESC, n.node_id
     LIMIT memory._page_rows(p_limit, 10);
$fn$;

COMMENT ON FUNCTION memory.match_entities(uuid, uuid, text, integer) IS 'Entities whose names a text names or nearly names (trigram word similarity >= 0.5, CJK as bigrams), best first; limit clamped to 1..1000';
GRANT EXECUTE ON FUNCTION memory.match_entities(uuid, uuid, text, integer) TO memory_reader;
