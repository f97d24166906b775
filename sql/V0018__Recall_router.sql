/* pgmigrate-encoding: utf-8 */
-- V0018: the rules of memory.route, which tells memory.recall whether a question asks for
-- the graph (who, related to, caused by, the path between ...), for meaning (similar to,
-- about, what was said ...) or for both. One table for the whole installation, not a
-- tenant's data: every reader reads it, memory_admin changes it through
-- memory.set_route_rule (SECURITY DEFINER, owned by memory_owner), so no role holds a table
-- privilege that could lock it against every tenant's recall (see V0006).
CREATE TABLE memory.route_rules (
    phrase      text        NOT NULL,
    target      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT route_rules_pkey PRIMARY KEY (phrase),
    CONSTRAINT route_rules_phrase_check CHECK (pg_catalog.btrim(phrase) <> '' AND pg_catalog.char_length(phrase) <= 200),
    CONSTRAINT route_rules_target_check CHECK (target IN ('graph', 'vector'))
);
COMMENT ON TABLE memory.route_rules IS
    'Phrases that send a question to the graph or to meaning (memory.route); changed by memory_admin through memory.set_route_rule';

ALTER TABLE memory.route_rules ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.route_rules FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.route_rules FROM PUBLIC;
GRANT SELECT ON memory.route_rules TO memory_reader, memory_admin;

-- The seeds' signals, in English and Chinese. A phrase of ASCII letters matches whole words
-- in any case; any other phrase matches where it occurs.
CREATE POLICY v0018_seed ON memory.route_rules AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
INSERT INTO memory.route_rules (phrase, target) VALUES
    ('related to', 'graph'), ('relationship', 'graph'), ('caused by', 'graph'), ('who', 'graph'),
    ('path between', 'graph'), ('connected to', 'graph'), ('linked to', 'graph'), ('allied with', 'graph'),
    ('works for', 'graph'), ('member of', 'graph'),
    ('相关', 'graph'), ('关系', 'graph'), ('导致', 'graph'), ('谁', 'graph'), ('之间', 'graph'),
    ('联系', 'graph'), ('属于', 'graph'),
    ('similar to', 'vector'), ('about', 'vector'), ('what was said', 'vector'), ('said', 'vector'),
    ('opinion', 'vector'), ('feel', 'vector'), ('complain', 'vector'), ('posts', 'vector'),
    ('类似', 'vector'), ('关于', 'vector'), ('说了什么', 'vector'), ('看法', 'vector'), ('讨论', 'vector'),
    ('帖子', 'vector')
ON CONFLICT (phrase) DO NOTHING;
DROP POLICY v0018_seed ON memory.route_rules;

-- One candidate of one arm of memory.recall, before the fusion: the arm, what it found (an
-- episode, a fact or an entity, by upstream id, with its text), the arm's raw score and rank,
-- and for the graph arm the entity that led to it.
CREATE TYPE memory.recall_hit AS (
    arm      text,
    kind     text,
    id       text,
    body     text,
    raw      double precision,
    rank     integer,
    matched  text
);
COMMENT ON TYPE memory.recall_hit IS 'One candidate of one arm of memory.recall, before the fusion';

-- Entities by summary: a node keeps a second vector, of its summary, beside the vector of
-- "{type}: {name}" (a search for "the newspaper's transport reporter" must find the entity
-- whose summary says so). The write path follows the catalog (memory._kind_columns); a
-- staged row without vectors whose content hash matches the committed row's keeps both.
ALTER TABLE memory.nodes ADD COLUMN summary_embedding public.vector(384);
ALTER TABLE memory.staged_nodes ADD COLUMN summary_embedding public.vector(384);
GRANT UPDATE (summary_embedding) ON memory.nodes TO memory_writer;
COMMENT ON COLUMN memory.nodes.summary_embedding IS 'The vector of the node''s summary (the embedding column holds that of "{type}: {name}")';

-- search_nodes gains what it searches by (re-created by its file).
DROP FUNCTION IF EXISTS memory.search_nodes(uuid, uuid, public.vector, integer, text);
