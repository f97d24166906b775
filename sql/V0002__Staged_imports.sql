-- V0002: staged imports. An import writes into staging tables under an attempt of its own
-- and is promoted whole by memory.commit_import(); readers see only committed state.
--
-- content_hash (sha256 of the embedding model and the embedded text) lets an importer skip
-- the model for rows whose text has not changed.

ALTER TABLE memory.nodes ADD COLUMN content_hash bytea;
ALTER TABLE memory.edges ADD COLUMN content_hash bytea;
ALTER TABLE memory.episodes ADD COLUMN content_hash bytea;

-- A simulation created by its first import stays unpublished (reads answer P0002) until an
-- attempt commits.
ALTER TABLE memory.simulations ADD COLUMN published boolean NOT NULL DEFAULT true;

CREATE TABLE memory.import_attempts (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    attempt_id     uuid        NOT NULL,
    state          text        NOT NULL DEFAULT 'loading',
    lock_key       integer     NOT NULL,
    skip_dangling  boolean     NOT NULL DEFAULT false,
    declared       jsonb,
    metadata       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    result         jsonb,
    error          text,
    started_at     timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
    finished_at    timestamptz,
    CONSTRAINT import_attempts_pkey PRIMARY KEY (tenant_id, attempt_id),
    CONSTRAINT import_attempts_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT import_attempts_state_check
        CHECK (state IN ('loading', 'committed', 'failed', 'aborted'))
);
CREATE INDEX import_attempts_simulation_idx
    ON memory.import_attempts (tenant_id, simulation_id, started_at);
COMMENT ON TABLE memory.import_attempts IS
    'One row per staged import: state, declared and staged counts, result, timings, error';

-- Staging tables: the rows of an attempt until it commits or ends. UNLOGGED: they are
-- scratch space (a crash empties them, and the attempt it interrupted is failed anyway).
CREATE UNLOGGED TABLE memory.staged_nodes (
    tenant_id        uuid    NOT NULL,
    attempt_id       uuid    NOT NULL,
    node_id          text    NOT NULL,
    node_key         uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(node_id)::uuid) STORED,
    position         integer NOT NULL,
    name             text    NOT NULL,
    type             text    NOT NULL,
    labels           text[]  NOT NULL DEFAULT '{}',
    summary          text,
    attributes       jsonb   NOT NULL DEFAULT '{}'::jsonb,
    embedding        public.vector(384),
    embedding_model  text,
    content_hash     bytea,
    CONSTRAINT staged_nodes_pkey PRIMARY KEY (tenant_id, attempt_id, node_key),
    CONSTRAINT staged_nodes_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE
);

CREATE UNLOGGED TABLE memory.staged_edges (
    tenant_id        uuid    NOT NULL,
    attempt_id       uuid    NOT NULL,
    edge_id          text    NOT NULL,
    edge_key         uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(edge_id)::uuid) STORED,
    position         integer NOT NULL,
    type             text    NOT NULL,
    source_id        text    NOT NULL,
    target_id        text    NOT NULL,
    fact             text,
    attributes       jsonb   NOT NULL DEFAULT '{}'::jsonb,
    valid_at         timestamptz,
    invalid_at       timestamptz,
    embedding        public.vector(384),
    embedding_model  text,
    content_hash     bytea,
    CONSTRAINT staged_edges_pkey PRIMARY KEY (tenant_id, attempt_id, edge_key),
    CONSTRAINT staged_edges_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE
);

CREATE UNLOGGED TABLE memory.staged_episodes (
    tenant_id        uuid    NOT NULL,
    attempt_id       uuid    NOT NULL,
    episode_id       text    NOT NULL,
    episode_key      uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(episode_id)::uuid) STORED,
    position         integer NOT NULL,
    agent_id         integer,
    agent_name       text,
    platform         text,
    round            integer,
    action_type      text    NOT NULL,
    content          text,
    metadata         jsonb   NOT NULL DEFAULT '{}'::jsonb,
    occurred_at      timestamptz,
    embedding        public.vector(384),
    embedding_model  text,
    content_hash     bytea,
    CONSTRAINT staged_episodes_pkey PRIMARY KEY (tenant_id, attempt_id, episode_key),
    CONSTRAINT staged_episodes_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE
);

CREATE UNLOGGED TABLE memory.staged_profiles (
    tenant_id      uuid    NOT NULL,
    attempt_id     uuid    NOT NULL,
    platform       text    NOT NULL,
    agent_id       integer NOT NULL,
    position       integer NOT NULL,
    name           text,
    username       text,
    bio            text,
    persona        text,
    attributes     jsonb   NOT NULL DEFAULT '{}'::jsonb,
    CONSTRAINT staged_profiles_pkey PRIMARY KEY (tenant_id, attempt_id, platform, agent_id),
    CONSTRAINT staged_profiles_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE
);

DO $rls$
DECLARE
    v_table text;
BEGIN
    FOREACH v_table IN ARRAY ARRAY['import_attempts', 'staged_nodes', 'staged_edges',
                                   'staged_episodes', 'staged_profiles'] LOOP
        EXECUTE pg_catalog.format('ALTER TABLE memory.%I ENABLE ROW LEVEL SECURITY', v_table);
        EXECUTE pg_catalog.format('ALTER TABLE memory.%I FORCE ROW LEVEL SECURITY', v_table);
        EXECUTE pg_catalog.format('REVOKE ALL ON memory.%I FROM PUBLIC', v_table);
    END LOOP;
END
$rls$;

GRANT SELECT ON memory.import_attempts TO memory_reader;
GRANT INSERT, UPDATE, DELETE ON memory.import_attempts TO memory_writer;
GRANT SELECT
    ON memory.staged_nodes, memory.staged_edges, memory.staged_episodes, memory.staged_profiles
    TO memory_reader;
GRANT INSERT, UPDATE, DELETE
    ON memory.staged_nodes, memory.staged_edges, memory.staged_episodes, memory.staged_profiles
    TO memory_writer;
