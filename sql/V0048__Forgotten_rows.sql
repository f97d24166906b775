-- V0048: what a tenant asked the memory to forget (memory.forget_episodes, memory.forget_agent).
-- The rows themselves are gone; a tombstone keeps only keys and a one-way hash of the text,
-- so that a re-import of the same files cannot bring the text back without saying so: the
-- importer asks memory.forgotten_ids and leaves out (and reports) every row it names.
--   kind:      'episodes' (a forgotten action), 'edges' (a fact whose only support was
--              forgotten actions) or 'profiles' (a forgotten agent's profile)
--   row_key:   md5 of the row's id, as the record kinds key their rows (a profile's:
--              md5 of platform, '/', agent id)
--   text_hash: sha256 of an episode's content (NULL for a fact, or an episode without
--              text): the same text under another id (another run of the same log) is
--              recognised too, across the tenant's simulations
-- Tombstones go with their tenant, not with their simulation: a simulation deleted and
-- imported again under the same id still meets them.
CREATE TABLE memory.forgotten (
    tenant_id     uuid        NOT NULL,
    simulation_id uuid        NOT NULL,
    kind          text        NOT NULL,
    row_key       uuid        NOT NULL,
    text_hash     bytea,
    change_id     bigint,
    forgotten_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT forgotten_pkey PRIMARY KEY (tenant_id, simulation_id, kind, row_key),
    CONSTRAINT forgotten_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT forgotten_kind_check CHECK (kind IN ('episodes', 'edges', 'profiles')),
    CONSTRAINT forgotten_text_hash_check CHECK (text_hash IS NULL OR pg_catalog.octet_length(text_hash) = 32)
);
COMMENT ON TABLE memory.forgotten IS
    'Tombstones of forgotten episodes and the facts that went with them: keys and a hash, never the text';
-- a text forgotten anywhere in the tenant, by its hash
CREATE INDEX forgotten_text_idx ON memory.forgotten (tenant_id, text_hash) WHERE text_hash IS NOT NULL;

ALTER TABLE memory.forgotten ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.forgotten FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.forgotten FROM PUBLIC;
GRANT SELECT ON memory.forgotten TO memory_reader;
