-- V0016: the evidence behind a fact, and episodes read by round and time.
--
-- 1. memory.edge_evidence links an edge to the episodes behind it: 'source', the Graphiti
--    episodes the fact was extracted from (MiroFish's edge field `episodes`, kept by the
--    importer in edges.attributes; such an id need not be an episode the memory holds), and
--    'mention', agent actions that name both of the fact's entities within its validity
--    window (computed set-based at every promote by memory._link_evidence, no model). Written
--    only by memory._link_evidence (SECURITY DEFINER, owned by memory_owner, whose policies
--    admit only the call's tenant): tenant roles read it and write nothing, so no tenant role
--    holds a privilege that could lock it against another tenant, and none can forge a link.
--    It goes with its edge and its simulation.
CREATE TABLE memory.edge_evidence (
    tenant_id      uuid    NOT NULL,
    simulation_id  uuid    NOT NULL,
    edge_key       uuid    NOT NULL,
    kind           text    NOT NULL,
    episode_id     text    NOT NULL,
    episode_key    uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(episode_id)::uuid) STORED,
    position       integer,
    matched        text[],
    CONSTRAINT edge_evidence_pkey PRIMARY KEY (tenant_id, simulation_id, edge_key, kind, episode_key),
    CONSTRAINT edge_evidence_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT edge_evidence_edge_fkey FOREIGN KEY (tenant_id, simulation_id, edge_key)
        REFERENCES memory.edges (tenant_id, simulation_id, edge_key) ON DELETE CASCADE,
    CONSTRAINT edge_evidence_kind_check CHECK (kind IN ('source', 'mention')),
    -- a source has its place in the edge's list; a mention the names it matched
    CONSTRAINT edge_evidence_shape_check CHECK ((kind = 'source' AND position IS NOT NULL AND matched IS NULL)
                                                OR (kind = 'mention' AND position IS NULL AND matched IS NOT NULL))
);
COMMENT ON TABLE memory.edge_evidence IS
    'Episodes behind a fact: its source episodes, and agent actions naming both of its entities within its validity window';
COMMENT ON COLUMN memory.edge_evidence.position IS 'source: place in the edge''s episodes list (1-based)';
COMMENT ON COLUMN memory.edge_evidence.matched IS 'mention: the names (or aliases) of both entities found in the action''s text';
-- The facts an action supports (the timeline, a removed episode's links).
CREATE INDEX edge_evidence_episode_idx ON memory.edge_evidence (tenant_id, simulation_id, episode_key);

ALTER TABLE memory.edge_evidence ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.edge_evidence FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.edge_evidence FROM PUBLIC;
GRANT SELECT ON memory.edge_evidence TO memory_reader;

-- 2. Episodes by round range and time window: search_episodes narrows its exact scan (and
--    counts a window's rows to choose it) through these, and episodes() filters by them.
CREATE INDEX episodes_round_idx ON memory.episodes (tenant_id, simulation_id, round);
CREATE INDEX episodes_time_idx ON memory.episodes (tenant_id, simulation_id, occurred_at);

-- 3. search_episodes gains a round range and a time window (p_round_from, p_round_to, p_from,
--    p_to, appended with DEFAULT NULL: every existing call keeps working); a function's
--    arguments cannot change in place, so the old ones go and the re-applied files create
--    the new.
DROP FUNCTION IF EXISTS memory.search_episodes(uuid, uuid, public.vector, integer, integer);
DROP FUNCTION IF EXISTS memory._search_episodes_ann(uuid, uuid, bigint, public.vector, integer, integer, real);
