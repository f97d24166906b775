-- V0046: one identity across runs. A link says that an entity of one simulation and an entity
-- of another simulation of the same tenant are the same thing: its score and evidence come
-- from memory.link_runs (names and aliases, type, trigram and vector similarity, shared
-- neighbours), its decision from memory.decide_link. A link is keyed by what a re-import
-- keeps (the simulations and the nodes' ids as imported), never by a surrogate number, so a
-- confirmed or refused link outlives any number of re-imports of either run. The pair is
-- stored once, its simulation ids in order (simulation_a < simulation_b).
--
-- decision: auto (found by memory.link_runs), confirmed and refused (a person's verdict on a
-- found link), manual (made by hand). current: an auto link the latest linking of its two
-- runs found again; a linking that no longer finds it clears it rather than deleting the row
-- (writers hold no DELETE), and a later linking that finds it again sets it.
CREATE TABLE memory.identity_links (
    tenant_id     uuid        NOT NULL,
    simulation_a  uuid        NOT NULL,
    node_a        text        NOT NULL,
    simulation_b  uuid        NOT NULL,
    node_b        text        NOT NULL,
    score         real        NOT NULL,
    evidence      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    decision      text        NOT NULL DEFAULT 'auto',
    current       boolean     NOT NULL DEFAULT true,
    decided_by    name,
    decided_at    timestamptz,
    created_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT identity_links_pkey PRIMARY KEY (tenant_id, simulation_a, node_a, simulation_b, node_b),
    CONSTRAINT identity_links_simulation_a_fkey FOREIGN KEY (tenant_id, simulation_a)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT identity_links_simulation_b_fkey FOREIGN KEY (tenant_id, simulation_b)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT identity_links_order_check CHECK (simulation_a < simulation_b),
    CONSTRAINT identity_links_decision_check CHECK (decision IN ('auto', 'confirmed', 'refused', 'manual')),
    CONSTRAINT identity_links_score_check CHECK (score >= 0 AND score <= 1),
    CONSTRAINT identity_links_evidence_check CHECK (pg_catalog.jsonb_typeof(evidence) = 'object'),
    CONSTRAINT identity_links_decided_check CHECK ((decision = 'auto') = (decided_at IS NULL))
);
COMMENT ON TABLE memory.identity_links IS
    'Entities of two simulations of a tenant that are the same thing: score, evidence, decision';
-- the links of a node of the later simulation (the primary key serves the earlier)
CREATE INDEX identity_links_b_idx ON memory.identity_links (tenant_id, simulation_b, node_b);

ALTER TABLE memory.identity_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.identity_links FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.identity_links FROM PUBLIC;
GRANT SELECT ON memory.identity_links TO memory_reader;
-- writers add links and change only what linking and decisions change (no DELETE: as V0044)
GRANT INSERT ON memory.identity_links TO memory_writer;
GRANT UPDATE (score, evidence, decision, current, decided_by, decided_at, updated_at)
    ON memory.identity_links TO memory_writer;
