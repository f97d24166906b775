-- V0020: the words arm reads an inverted index it can use under row-level security.
--
-- Every read runs under forced row-level security, and a text search or trigram operator
-- (@@, %>, <%) is not leakproof: the planner may not make it an index condition ahead of
-- the policies (V0019 dropped the GIN indexes no call could use). Measured at 200,000
-- episodes a simulation, a words search scanned every stored document (about 1 s) and a
-- name match computed the trigram similarity of every entity (1.5 s for 10,000 names).
-- Equality on text and uuid is leakproof, so the index becomes rows: one posting a
-- (row, word), read by (tenant_id, simulation_id, word) through the primary key.
--
-- 1. memory.word_postings: kind 'e' an episode's content, 'f' an edge's fact, 'n' an entity's
--    name (weight 'A') and summary ('B'), each word the lexeme the document holds
--    (memory._words_doc: English stemmed, CJK as character pairs), tf its occurrences and
--    doc_len the document's distinct words; kind 't' an entity name's trigrams
--    (pg_trgm's show_trgm of the prepared name, memory._name_trigrams), doc_len their
--    number, so that a name can be a candidate of a question only when it shares enough
--    trigrams with it (memory.match_entities). row_key is the row's key (episode_key,
--    edge_key, node_key). Written only by the trigger memory._index_words (SECURITY
--    DEFINER, sql/finalize/words.sql) after every insert, update of the text and delete of
--    those tables, in the writing statement's transaction: the postings are always the
--    rows' words, for every write path (imports, upserts, deletes, prunes). No foreign key:
--    a check per posting would cost the bulk import more than the postings themselves (the
--    trigger removes the postings of a row, and of a simulation that goes).
CREATE TABLE memory.word_postings (
    tenant_id     uuid NOT NULL,
    simulation_id uuid NOT NULL,
    word          text NOT NULL,
    kind          "char" NOT NULL,
    row_key       uuid NOT NULL,
    tf            smallint NOT NULL,
    weight        "char" NOT NULL,
    doc_len       smallint NOT NULL,
    CONSTRAINT word_postings_pkey PRIMARY KEY (tenant_id, simulation_id, word, kind, row_key),
    CONSTRAINT word_postings_kind_check CHECK (kind IN ('e', 'f', 'n', 't')),
    CONSTRAINT word_postings_weight_check CHECK (weight IN ('A', 'B')),
    CONSTRAINT word_postings_counts_check CHECK (tf > 0 AND doc_len > 0)
);
COMMENT ON TABLE memory.word_postings IS
    'The words index of the words arm: one row a (row, word) of episodes (e), facts (f), entity names and summaries (n) and entity name trigrams (t); written by the trigger memory._index_words';

ALTER TABLE memory.word_postings ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.word_postings FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.word_postings FROM PUBLIC;
GRANT SELECT ON memory.word_postings TO memory_reader;

-- 2. The stored documents go (the postings hold what they held; nothing else reads them) and
--    with them the cost of a tsvector a row stored beside the row.
ALTER TABLE memory.episodes DROP COLUMN IF EXISTS words;
ALTER TABLE memory.edges DROP COLUMN IF EXISTS words;
ALTER TABLE memory.nodes DROP COLUMN IF EXISTS words;

-- 3. The postings of the rows already stored (the trigger keeps them from now on). The same
--    expressions as memory._index_words (each document once a row: OFFSET 0);
--    memory._name_trigrams is created here as well
--    because the re-applied functions come after the migrations.
CREATE OR REPLACE FUNCTION memory._name_trigrams(p_name text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT public.show_trgm(pg_catalog.lower(memory._words_text(p_name)))
$fn$;
REVOKE ALL ON FUNCTION memory._name_trigrams(text) FROM PUBLIC;

INSERT INTO memory.word_postings (tenant_id, simulation_id, word, kind, row_key, tf, weight, doc_len)
SELECT x.tenant_id, x.simulation_id, u.lexeme, 'e', x.episode_key,
       LEAST(pg_catalog.cardinality(u.positions), 32767), 'A', LEAST(pg_catalog.length(d.doc), 32767)
  FROM memory.episodes AS x
 CROSS JOIN LATERAL (SELECT memory._words_doc(x.content) AS doc OFFSET 0) AS d
 CROSS JOIN LATERAL pg_catalog.unnest(d.doc) AS u
 WHERE x.content IS NOT NULL
UNION ALL
SELECT x.tenant_id, x.simulation_id, u.lexeme, 'f', x.edge_key,
       LEAST(pg_catalog.cardinality(u.positions), 32767), 'A', LEAST(pg_catalog.length(d.doc), 32767)
  FROM memory.edges AS x
 CROSS JOIN LATERAL (SELECT memory._words_doc(x.fact) AS doc OFFSET 0) AS d
 CROSS JOIN LATERAL pg_catalog.unnest(d.doc) AS u
 WHERE x.fact IS NOT NULL
UNION ALL
SELECT x.tenant_id, x.simulation_id, u.lexeme, 'n', x.node_key,
       LEAST(pg_catalog.cardinality(u.positions), 32767),
       CASE WHEN 'A' = ANY (u.weights) THEN 'A' ELSE 'B' END, LEAST(pg_catalog.length(d.doc), 32767)
  FROM memory.nodes AS x
 CROSS JOIN LATERAL (SELECT memory._words_doc(x.name, x.summary) AS doc OFFSET 0) AS d
 CROSS JOIN LATERAL pg_catalog.unnest(d.doc) AS u
UNION ALL
SELECT x.tenant_id, x.simulation_id, g.trigram, 't', x.node_key, 1, 'A', pg_catalog.cardinality(t.grams)
  FROM memory.nodes AS x
 CROSS JOIN LATERAL (SELECT memory._name_trigrams(x.name) AS grams OFFSET 0) AS t
 CROSS JOIN LATERAL pg_catalog.unnest(t.grams) AS g (trigram)
 WHERE pg_catalog.cardinality(t.grams) > 0;

-- 4. memory._words_query returns each word's lexeme (the postings' key) instead of a
--    one-lexeme tsquery; sql/functions/_words_query.sql creates the new shape.
DROP FUNCTION IF EXISTS memory._words_query(text);
