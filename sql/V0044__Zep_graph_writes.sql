-- V0044: the writes of `swarm-memory serve` (wing zep): graphs made through Zep's API, their
-- ontologies, the episodes added to them and the queue that turns each episode's text into
-- entities and facts. A graph is a simulation (memory.zep_create_graph); an added episode is
-- an ordinary episode of it, committed and searchable when the add returns, and a row of
-- memory.zep_episodes, which carries what Zep's API says about it (its uuid, source, the
-- global sequence_index, processed) and its place in the extraction queue.

-- One ontology a graph (Zep's set_ontology replaces it whole): its entity types and its edge
-- types with the pairs of entity types each may join, as Zep's API sends them.
CREATE TABLE memory.zep_ontologies (
    tenant_id     uuid        NOT NULL,
    simulation_id uuid        NOT NULL,
    entity_types  jsonb       NOT NULL DEFAULT '[]'::jsonb,
    edge_types    jsonb       NOT NULL DEFAULT '[]'::jsonb,
    updated_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT zep_ontologies_pkey PRIMARY KEY (tenant_id, simulation_id),
    CONSTRAINT zep_ontologies_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT zep_ontologies_entity_types_check CHECK (pg_catalog.jsonb_typeof(entity_types) = 'array'),
    CONSTRAINT zep_ontologies_edge_types_check CHECK (pg_catalog.jsonb_typeof(edge_types) = 'array')
);
COMMENT ON TABLE memory.zep_ontologies IS
    'The entity and edge types of a graph made through swarm-memory serve (Zep''s set_ontology)';

-- Zep numbers every episode it accepts (sequence_index, 3.25's batch items): one sequence
-- for the installation, so the numbers say the order episodes were accepted in.
CREATE SEQUENCE memory.zep_sequence AS bigint;

-- status: queued (waiting for extraction), processing (claimed until claimed_until; a claim
-- that outlives it was a killed extractor's and is taken again), succeeded (processed: its
-- extraction committed), failed (last_error says why; retried from next_attempt_at while
-- attempts < memory._zep_attempts_max()). refused: the items of the extraction's output that
-- did not fit the ontology, kept with why.
CREATE TABLE memory.zep_episodes (
    tenant_id          uuid        NOT NULL,
    simulation_id      uuid        NOT NULL,
    episode_uuid       uuid        NOT NULL,
    sequence_index     bigint      NOT NULL DEFAULT pg_catalog.nextval('memory.zep_sequence'),
    content            text        NOT NULL,
    source             text        NOT NULL DEFAULT 'text',
    source_description text,
    created_at         timestamptz NOT NULL,
    added_at           timestamptz NOT NULL DEFAULT pg_catalog.now(),
    added_by           name        NOT NULL DEFAULT CURRENT_USER,
    batch_id           uuid,
    status             text        NOT NULL DEFAULT 'queued',
    attempts           integer     NOT NULL DEFAULT 0,
    claimed_until      timestamptz,
    next_attempt_at    timestamptz,
    last_error         text,
    processed_at       timestamptz,
    extracted          jsonb,
    refused            jsonb,
    CONSTRAINT zep_episodes_pkey PRIMARY KEY (tenant_id, simulation_id, episode_uuid),
    CONSTRAINT zep_episodes_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT zep_episodes_source_check CHECK (source IN ('text', 'json', 'message')),
    CONSTRAINT zep_episodes_status_check CHECK (status IN ('queued', 'processing', 'succeeded', 'failed')),
    CONSTRAINT zep_episodes_attempts_check CHECK (attempts >= 0),
    CONSTRAINT zep_episodes_claim_check CHECK ((status = 'processing') = (claimed_until IS NOT NULL))
);
COMMENT ON TABLE memory.zep_episodes IS
    'Episodes added through swarm-memory serve: their Zep fields and their place in the extraction queue';
-- The queue, in the order episodes were accepted: what is not done yet, by tenant.
CREATE INDEX zep_episodes_queue_idx ON memory.zep_episodes (tenant_id, sequence_index)
    WHERE status <> 'succeeded';
-- episode.get takes a uuid alone, as Zep does.
CREATE INDEX zep_episodes_uuid_idx ON memory.zep_episodes (tenant_id, episode_uuid);
CREATE INDEX zep_episodes_graph_idx ON memory.zep_episodes (tenant_id, simulation_id, sequence_index);

ALTER TABLE memory.zep_ontologies ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.zep_ontologies FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.zep_episodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.zep_episodes FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.zep_ontologies, memory.zep_episodes FROM PUBLIC;
GRANT SELECT ON memory.zep_ontologies, memory.zep_episodes TO memory_reader;
-- writers add rows and change only what the functions change (no DELETE: a graph's rows go
-- with it, memory.delete_simulation; a table-wide privilege would let a role LOCK the table
-- in modes that stop every tenant)
GRANT INSERT ON memory.zep_ontologies, memory.zep_episodes TO memory_writer;
GRANT UPDATE (entity_types, edge_types, updated_at) ON memory.zep_ontologies TO memory_writer;
GRANT UPDATE (status, attempts, claimed_until, next_attempt_at, last_error, processed_at, extracted, refused)
    ON memory.zep_episodes TO memory_writer;
GRANT USAGE ON SEQUENCE memory.zep_sequence TO memory_writer;
