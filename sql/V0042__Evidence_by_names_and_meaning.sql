-- V0042: a fact's supporting actions are found by meaning as well as by names, and each link
-- says how it was found and how close the action is to the fact.
--
-- MiroFish's graph lists, as a fact's source episodes, the graph builder's ingest episodes:
-- text chunks whose ids never appear in the action logs. Linking by those ids alone leaves
-- the facts of a real run without a single action behind them; linking by both names alone
-- misses the actions that say the fact in other words. memory._link_evidence now links an
-- action to a fact by id (the source list), by names (both entities, or one entity and words
-- of the fact) and by meaning (the fact's vector against the action's, same model).
--
-- 1. memory.edge_evidence.found_by: how a link was found, a subset of {id, names, meaning}
--    ('source' rows {id}; 'mention' rows {names}, {meaning} or both); score: the cosine
--    similarity of the fact's and the action's vectors when both are of the same model
--    (NULL otherwise). A mention found by meaning alone has no names: matched may be NULL.
--    Rows written before this version are backfilled ({id} / {names}); the next import or
--    memory.link_evidence() recomputes them whole.
ALTER TABLE memory.edge_evidence ADD COLUMN found_by text[], ADD COLUMN score real;

-- The backfill runs under forced RLS like every write: a policy for this statement alone.
CREATE POLICY v0042_backfill ON memory.edge_evidence AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
UPDATE memory.edge_evidence
   SET found_by = CASE WHEN kind OPERATOR(pg_catalog.=) 'source' THEN ARRAY['id'] ELSE ARRAY['names'] END;
DROP POLICY v0042_backfill ON memory.edge_evidence;

ALTER TABLE memory.edge_evidence ALTER COLUMN found_by SET NOT NULL;
ALTER TABLE memory.edge_evidence DROP CONSTRAINT edge_evidence_shape_check;
ALTER TABLE memory.edge_evidence ADD CONSTRAINT edge_evidence_shape_check
    CHECK ((kind = 'source' AND position IS NOT NULL AND matched IS NULL AND found_by = ARRAY['id'])
           OR (kind = 'mention' AND position IS NULL
               AND found_by <@ ARRAY['names', 'meaning'] AND pg_catalog.cardinality(found_by) > 0
               AND (matched IS NOT NULL) = ('names' = ANY (found_by))));
COMMENT ON COLUMN memory.edge_evidence.matched IS
    'mention found by names: the names (or aliases) found, and the words of the fact found beside a single name';
COMMENT ON COLUMN memory.edge_evidence.found_by IS
    'How the link was found: {id} (the edge''s episodes list), or names and/or meaning';
COMMENT ON COLUMN memory.edge_evidence.score IS
    'Cosine similarity of the fact''s and the action''s vectors (same model), NULL when either has none';
COMMENT ON TABLE memory.edge_evidence IS
    'Episodes behind a fact: its source episodes, and agent actions supporting it by names or meaning within its validity window';

-- 2. memory.evidence returns found_by and score (appended). A function's result columns
--    cannot change in place: the old one goes and the re-applied file creates the new.
DROP FUNCTION IF EXISTS memory.evidence(uuid, uuid, text);
