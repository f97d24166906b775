-- V0017: the words arm of recall (issue 12): full-text search over episodes, facts and
-- entities, Chinese included, and trigram matching of entity names.
--
-- 1. Extensions, both in contrib (the embedded server ships them) and both trusted, so the
--    CREATEROLE deployer of a managed PostgreSQL may create them: pg_trgm (word_similarity,
--    for names named or nearly named in a question) and btree_gin (uuid keys in a GIN index,
--    so that every words index leads with tenant_id and simulation_id like the b-tree ones).
--    Like pgvector they live in schema public, where the functions name them.
DO $ext$
DECLARE
    v_ext record;
BEGIN
    FOR v_ext IN
        SELECT e.extname, n.nspname
          FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
         WHERE e.extname IN ('pg_trgm', 'btree_gin') AND n.nspname <> 'public'
    LOOP
        RAISE EXCEPTION 'extension % is installed in schema %, swarm-memory expects public', v_ext.extname, v_ext.nspname
            USING ERRCODE = 'feature_not_supported',
                  HINT = pg_catalog.format('ALTER EXTENSION %I SET SCHEMA public', v_ext.extname);
    END LOOP;
END
$ext$;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

-- 2. The document of a row: sql/functions/_words_text.sql and _words_doc.sql are their homes
--    (re-applied on every deploy); they are created here too because the indexes below are
--    built on them. A change to either changes what the indexes hold and ships with a
--    migration that rebuilds them.
CREATE OR REPLACE FUNCTION memory._words_text(p_text text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN p_text OPERATOR(pg_catalog.!~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
            THEN p_text
            ELSE pg_catalog.regexp_replace(p_text, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+', ' ', 'g')
                 OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||)
                 (SELECT pg_catalog.string_agg(pg_catalog.substr(r.run[1], i.i, 2), ' ')
                    FROM pg_catalog.regexp_matches(p_text, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+', 'g') AS r (run),
                         pg_catalog.generate_series(1, GREATEST(pg_catalog.char_length(r.run[1]) - 1, 1)) AS i (i)) END
$fn$;
REVOKE ALL ON FUNCTION memory._words_text(text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION memory._words_doc(p_text text, p_more text DEFAULT NULL) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
           CASE WHEN p_text OPERATOR(pg_catalog.!~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
                THEN p_text ELSE memory._words_text(p_text) END), 'A')
       OPERATOR(pg_catalog.||)
       CASE WHEN p_more IS NULL THEN ''::pg_catalog.tsvector
            ELSE pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
                     memory._words_text(p_more)), 'B') END
$fn$;
REVOKE ALL ON FUNCTION memory._words_doc(text, text) FROM PUBLIC;

-- 3. The document of each row, stored (a generated column: the write computes it once, as an
--    index on the expression would, and a search ranks the stored value instead of computing
--    it again for every row that matches: 100 us a row, 0.8-1 s for a common word in a
--    50,000-episode simulation), and the words indexes: GIN over (tenant_id, simulation_id,
--    words). A search names the tenant and the simulation and the question's words; GIN
--    intersects the three. Facts are edges.fact; an entity is its name (weight A) and its
--    summary (weight B). The merges, the staging tables and the history leave the column out
--    (memory._kind_columns reads no generated column).
ALTER TABLE memory.episodes ADD COLUMN words pg_catalog.tsvector
    GENERATED ALWAYS AS (memory._words_doc(content)) STORED;
ALTER TABLE memory.edges ADD COLUMN words pg_catalog.tsvector
    GENERATED ALWAYS AS (memory._words_doc(fact)) STORED;
ALTER TABLE memory.nodes ADD COLUMN words pg_catalog.tsvector
    GENERATED ALWAYS AS (memory._words_doc(name, summary)) STORED;
CREATE INDEX episodes_words_idx ON memory.episodes USING gin (tenant_id, simulation_id, words);
CREATE INDEX edges_words_idx ON memory.edges USING gin (tenant_id, simulation_id, words);
CREATE INDEX nodes_words_idx ON memory.nodes USING gin (tenant_id, simulation_id, words);
