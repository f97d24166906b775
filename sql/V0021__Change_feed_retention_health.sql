-- V0021: the memory over its lifetime (issue 14, items 4-6): a change feed, retention and
-- compaction. Every table here is written only by SECURITY DEFINER functions owned by
-- memory_owner (memory._record_change, memory.set_retention, memory.sweep,
-- memory.compact_episodes), under forced row-level security: tenant roles read their own
-- rows and hold no write privilege, so none can forge a change or lock a table against
-- another tenant.

-- 1. memory.changes, the outbox: one row per committed change (an import's commit, one row
--    per kind it changed; an upsert batch; a delete; an outcome; a compaction; a re-embed
--    switch), written in the transaction of the change by memory._record_change.
--    change_id is taken while the transaction holds its tenant's row of memory.change_heads
--    (below) until it commits, so within a tenant change_id order is commit order: a reader
--    that has seen change n never meets a change < n committed later. seq numbers a tenant's
--    changes 1, 2, 3 ... without gaps (an aborted change rolls its number back with it).
--    The rows go with their tenant (delete_tenant), not with their simulation: a deleted
--    simulation's changes stay, ending with the delete itself.
CREATE TABLE memory.changes (
    tenant_id      uuid        NOT NULL,
    change_id      bigint      NOT NULL GENERATED ALWAYS AS IDENTITY,
    seq            bigint      NOT NULL,
    simulation_id  uuid,
    kind           text        NOT NULL,
    op             text        NOT NULL,
    attempt_id     uuid,
    ids            text[],
    counts         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    detail         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    txid           xid8        NOT NULL DEFAULT pg_catalog.pg_current_xact_id(),
    recorded_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    recorded_by    name        NOT NULL DEFAULT SESSION_USER,
    CONSTRAINT changes_pkey PRIMARY KEY (tenant_id, change_id),
    CONSTRAINT changes_seq_key UNIQUE (tenant_id, seq),
    CONSTRAINT changes_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT changes_kind_check CHECK (kind ~ '^[a-z_]{1,40}$'),
    CONSTRAINT changes_op_check CHECK (op IN ('import', 'upsert', 'delete', 'outcome', 'compact',
                                              'retention', 'reembed')),
    CONSTRAINT changes_counts_check CHECK (pg_catalog.jsonb_typeof(counts) = 'object'),
    CONSTRAINT changes_detail_check CHECK (pg_catalog.jsonb_typeof(detail) = 'object')
);
COMMENT ON TABLE memory.changes IS
    'The change feed (outbox): one row per committed change, in commit order within a tenant; read with memory.changes_since()';
COMMENT ON COLUMN memory.changes.change_id IS 'cursor of memory.changes_since(); commit order within the tenant';
COMMENT ON COLUMN memory.changes.seq IS 'the tenant''s n-th change, gapless';
COMMENT ON COLUMN memory.changes.ids IS 'the ids the change names (an upsert''s batch, a compaction''s clumped episodes); NULL: the counts over the kind of the simulation (an import''s scope)';
-- A simulation's changes (health, a consumer of one simulation).
CREATE INDEX changes_simulation_idx ON memory.changes (tenant_id, simulation_id, change_id);

-- 2. memory.change_heads: a tenant's feed head, one row a tenant. memory._record_change
--    updates it first (the row lock is held until the transaction ends: the tenant's changes
--    commit one after another, never out of change_id order). No tenant role may lock it:
--    another tenant's writers never wait on it.
CREATE TABLE memory.change_heads (
    tenant_id      uuid        NOT NULL,
    changes        bigint      NOT NULL DEFAULT 0,
    last_change_at timestamptz,
    CONSTRAINT change_heads_pkey PRIMARY KEY (tenant_id),
    CONSTRAINT change_heads_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE
);
COMMENT ON TABLE memory.change_heads IS
    'A tenant''s change-feed head: its row lock orders the tenant''s changes by commit';

-- 3. memory.retention_rules: what memory.sweep() does for a tenant. keep_days: simulations
--    whose last change (updated_at) is older go, NULL keeps them; compact_similarity: the
--    cosine above which an agent's episodes are one clump (NULL: no compaction);
--    compact_drop: drop a clump's other episodes (true) or keep them, marked (false).
CREATE TABLE memory.retention_rules (
    tenant_id          uuid        NOT NULL,
    keep_days          integer,
    compact_similarity real,
    compact_drop       boolean     NOT NULL DEFAULT false,
    updated_at         timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_by         name        NOT NULL DEFAULT SESSION_USER,
    CONSTRAINT retention_rules_pkey PRIMARY KEY (tenant_id),
    CONSTRAINT retention_rules_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT retention_rules_keep_days_check CHECK (keep_days >= 1),
    CONSTRAINT retention_rules_similarity_check CHECK (compact_similarity > 0.9 AND compact_similarity < 1)
);
COMMENT ON TABLE memory.retention_rules IS
    'Per-tenant retention (simulations older than keep_days) and compaction policy, applied by memory.sweep()';

-- 4. memory.episode_clumps: a compaction's result, one row per clump of an agent's
--    near-duplicate episodes: the representative (the earliest), how many episodes the clump
--    had, the others' ids, and whether they were dropped. Goes with its simulation.
CREATE TABLE memory.episode_clumps (
    tenant_id          uuid        NOT NULL,
    simulation_id      uuid        NOT NULL,
    representative_key uuid        NOT NULL,
    representative_id  text        NOT NULL,
    agent_id           integer,
    members            integer     NOT NULL,
    member_ids         text[]      NOT NULL,
    dropped            boolean     NOT NULL,
    similarity         real        NOT NULL,
    compacted_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT episode_clumps_pkey PRIMARY KEY (tenant_id, simulation_id, representative_key),
    CONSTRAINT episode_clumps_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT episode_clumps_members_check CHECK (members >= 2 AND members = pg_catalog.cardinality(member_ids) + 1)
);
COMMENT ON TABLE memory.episode_clumps IS
    'Near-duplicate episodes of an agent compacted into one representative, with their count';

ALTER TABLE memory.changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.changes FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.change_heads ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.change_heads FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.retention_rules ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.retention_rules FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.episode_clumps ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.episode_clumps FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.changes, memory.change_heads, memory.retention_rules, memory.episode_clumps FROM PUBLIC;
GRANT SELECT ON memory.changes, memory.change_heads, memory.retention_rules, memory.episode_clumps TO memory_reader;
