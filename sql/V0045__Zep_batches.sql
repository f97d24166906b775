-- V0045: Zep's batch API (zep-cloud 3.25's client.batch) for `swarm-memory serve`. A batch is
-- a draft that collects items (graph episodes) until it is processed; processing turns every
-- item into an episode of its graph at once (memory.zep_add_episodes, one transaction), after
-- which the status of the batch and of each item is derived from memory.zep_episodes, so the
-- extraction's progress shows in the batch without a write of its own.

-- Numbers the batches of the installation in the order they were made: the cursor of Zep's
-- batch list (an integer that only grows, so a cursor always advances).
CREATE SEQUENCE memory.zep_batch_sequence AS bigint;

-- status: draft (items may be added), submitted (processed: its items are episodes, and the
-- status the API shows is derived from theirs; memory._zep_batch_json).
CREATE TABLE memory.zep_batches (
    tenant_id     uuid        NOT NULL,
    batch_id      uuid        NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    batch_no      bigint      NOT NULL DEFAULT pg_catalog.nextval('memory.zep_batch_sequence'),
    status        text        NOT NULL DEFAULT 'draft',
    metadata      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    ignore_roles  text[]      NOT NULL DEFAULT '{}',
    item_count    integer     NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    created_by    name        NOT NULL DEFAULT CURRENT_USER,
    updated_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    processed_at  timestamptz,
    deleted_at    timestamptz,
    CONSTRAINT zep_batches_pkey PRIMARY KEY (tenant_id, batch_id),
    CONSTRAINT zep_batches_status_check CHECK (status IN ('draft', 'submitted')),
    CONSTRAINT zep_batches_processed_check CHECK ((status = 'submitted') = (processed_at IS NOT NULL)),
    CONSTRAINT zep_batches_metadata_check CHECK (pg_catalog.jsonb_typeof(metadata) = 'object'),
    CONSTRAINT zep_batches_item_count_check CHECK (item_count >= 0)
);
COMMENT ON TABLE memory.zep_batches IS
    'Batches of Zep''s batch API (swarm-memory serve): drafts, then processed into episodes';
-- the list, by its cursor
CREATE INDEX zep_batches_list_idx ON memory.zep_batches (tenant_id, batch_no);

-- An item of a batch, numbered from 1 in the order added. episode: what
-- memory.zep_add_episodes takes for it ({data, type, created_at, source_description} and,
-- until it is processed, the vector of data). episode_uuid: the episode it became, once the
-- batch was processed (its status, sequence_index and error are the episode's).
CREATE TABLE memory.zep_batch_items (
    tenant_id     uuid        NOT NULL,
    batch_id      uuid        NOT NULL,
    item_no       integer     NOT NULL,
    item_id       uuid        NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    kind          text        NOT NULL DEFAULT 'graph_episode',
    simulation_id uuid        NOT NULL,
    graph_id      text        NOT NULL,
    episode       jsonb       NOT NULL,
    metadata      jsonb,
    added_at      timestamptz NOT NULL DEFAULT pg_catalog.now(),
    episode_uuid  uuid,
    CONSTRAINT zep_batch_items_pkey PRIMARY KEY (tenant_id, batch_id, item_no),
    CONSTRAINT zep_batch_items_batch_fkey FOREIGN KEY (tenant_id, batch_id)
        REFERENCES memory.zep_batches (tenant_id, batch_id) ON DELETE CASCADE,
    CONSTRAINT zep_batch_items_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT zep_batch_items_kind_check CHECK (kind = 'graph_episode'),
    CONSTRAINT zep_batch_items_item_no_check CHECK (item_no >= 1),
    CONSTRAINT zep_batch_items_episode_check CHECK (pg_catalog.jsonb_typeof(episode) = 'object')
);
COMMENT ON TABLE memory.zep_batch_items IS
    'The items of Zep batches (swarm-memory serve): graph episodes, and the episode each became';
-- an episode's batch items (a graph deleted: its items go with it, by the foreign key)
CREATE INDEX zep_batch_items_episode_idx ON memory.zep_batch_items (tenant_id, simulation_id, episode_uuid);

ALTER TABLE memory.zep_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.zep_batches FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.zep_batch_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.zep_batch_items FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.zep_batches, memory.zep_batch_items FROM PUBLIC;
GRANT SELECT ON memory.zep_batches, memory.zep_batch_items TO memory_reader;
-- writers add rows and change only what the functions change; batch.delete marks a batch
-- deleted and empties its items (no DELETE privilege: as V0044)
GRANT INSERT ON memory.zep_batches, memory.zep_batch_items TO memory_writer;
GRANT UPDATE (status, item_count, updated_at, processed_at, deleted_at) ON memory.zep_batches TO memory_writer;
GRANT UPDATE (episode_uuid, episode, metadata) ON memory.zep_batch_items TO memory_writer;
GRANT USAGE ON SEQUENCE memory.zep_batch_sequence TO memory_writer;
