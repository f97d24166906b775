-- V0043: API keys of `swarm-memory serve` (the Zep-compatible service, wing zep). A key is a
-- role: each row binds the sha256 of a key, shown once when it was made and never stored,
-- to a tenant and to the role its requests run as (SET ROLE), so row-level security and the
-- role's tenant grant decide what a request sees; the service never takes a tenant from
-- request data. Administrators manage the keys (memory.create_api_key, memory.api_keys,
-- memory.revoke_api_key) and the service, connected as an administrator, looks a key up
-- by its hash (memory.api_key_role) before it sets the role. A tenant role sees the rows
-- of its own keys (as its own grants), never another's, and changes none.
-- A revoked key keeps its row (revoked_at), so `key list` still says what it was.
CREATE TABLE memory.api_keys (
    tenant_id  uuid        NOT NULL,
    key_id     uuid        NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    key_hash   bytea       NOT NULL,
    key_prefix text        NOT NULL,
    role_oid   oid         NOT NULL,
    role_name  name        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    created_by name        NOT NULL DEFAULT SESSION_USER,
    revoked_at timestamptz,
    CONSTRAINT api_keys_pkey PRIMARY KEY (tenant_id, key_id),
    CONSTRAINT api_keys_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT api_keys_key_hash_check CHECK (pg_catalog.octet_length(key_hash) = 32),
    CONSTRAINT api_keys_key_prefix_check CHECK (key_prefix ~ '^[A-Za-z0-9_-]{4,16}$')
);
-- The lookup of every request: by the hash alone (a key names its tenant; a unique
-- constraint would have to include tenant_id, and 256 random bits do not collide).
CREATE INDEX api_keys_key_hash_idx ON memory.api_keys (key_hash);
COMMENT ON TABLE memory.api_keys IS
    'API keys of swarm-memory serve: the sha256 of each key, its tenant and the role its requests run as';
ALTER TABLE memory.api_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.api_keys FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.api_keys FROM PUBLIC;
GRANT SELECT ON memory.api_keys TO memory_reader;
-- revoking sets revoked_at and nothing else (no table-level UPDATE: no lock beyond ROW EXCLUSIVE)
GRANT SELECT, INSERT, UPDATE (revoked_at) ON memory.api_keys TO memory_admin;
