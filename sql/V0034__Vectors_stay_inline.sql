-- Vectors stay in their rows. A vector(384) takes 1,544 bytes, and pgvector stores it
-- EXTERNAL: PostgreSQL moves a row's largest values out of line (into the table's TOAST
-- relation) once the row passes about 2 kB. An entity of a MiroFish import carries two
-- vectors ("{type}: {name}" and its summary), 3,088 bytes before its name and summary, so
-- one of them always went to TOAST, and every exact comparison of an entity (memory.search_nodes,
-- memory.recall's entities arm) fetched it from there: measured on 10,000 entities of a
-- simulation of 200,000 episodes (both vectors and a summary each, real vectors), memory.recall's
-- p50 56.3 -> 39.8 ms, 300 questions, the rows unchanged. An episode or a fact with a long text
-- (a Reddit post, a long Chinese post) lost its vector the same way, which the exact re-ranking
-- of every approximate search then read from TOAST.
-- toast_tuple_target = 8160 (the most PostgreSQL allows) makes a row go to TOAST only when it
-- is larger than that: a row holding its vectors and ordinary texts stays one heap tuple; a
-- row with a very long text still works, its longest values (the text first) moved out of line.
ALTER TABLE memory.nodes SET (toast_tuple_target = 8160);
ALTER TABLE memory.edges SET (toast_tuple_target = 8160);
ALTER TABLE memory.episodes SET (toast_tuple_target = 8160);

-- The entities written so far with both vectors (the rows whose vectors alone pass the 2 kB
-- threshold, so one of them went out of line) are written again with the same values, now
-- inline (a value read back from TOAST and cast is a new datum; an assignment of the column to
-- itself would keep its TOAST pointer). Chosen by their vectors, not by
-- pg_column_toast_chunk_id(), which PostgreSQL 16 does not have. As V0032 did: row-level
-- security lifted for this transaction, which holds memory.nodes in ACCESS EXCLUSIVE mode from
-- the NO FORCE below, and the triggers that record an entity's versions, index its words and feed the change
-- log off for this statement (no value changes). Episodes and facts keep their stored form
-- until next written: only those with long texts had a vector out of line, and rewriting every
-- episode would cost a deploy the time of a full table rewrite.
ALTER TABLE memory.nodes NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.nodes DISABLE TRIGGER USER;
UPDATE memory.nodes AS n
   SET embedding = (n.embedding::real[])::public.vector(384),
       summary_embedding = (n.summary_embedding::real[])::public.vector(384)
 WHERE n.embedding IS NOT NULL AND n.summary_embedding IS NOT NULL;
ALTER TABLE memory.nodes ENABLE TRIGGER USER;
ALTER TABLE memory.nodes FORCE ROW LEVEL SECURITY;
