-- V0011: a tenant's vectors, cached by (embedding model, content hash).
--
-- An importer embeds a text once per tenant: the vectors it computes go into the cache in
-- their own transaction, right after they are computed, so an attempt that is refused or
-- killed later leaves them for its rerun, and importing the same or a similar run into
-- another simulation of the tenant (daily runs of one scenario) embeds only what is new.
-- memory.cached_vectors reads the cache, memory.cache_vectors adds to it.
--
-- Append-only: a (model, hash) names one text, so its vector never changes and a row is
-- never updated. Writers hold SELECT (through memory_reader) and INSERT only, which is all
-- INSERT ... ON CONFLICT DO NOTHING needs; no group role holds UPDATE, DELETE or TRUNCATE
-- (see V0006). A tenant's rows go with memory.delete_tenant, whose owner policies see and
-- remove only the entered tenant's rows.
--
-- Writers hold INSERT on the table itself, so its checks bound what a direct INSERT adds: a
-- model name of 1 to memory._label_max() characters, a hash of 1 to 64 bytes. Vectors are
-- checked by memory.cache_vectors (memory._vector_problem is a re-applied function, which a
-- versioned table check cannot name); memory.cached_vectors returns only vectors that pass
-- it, so a bad one a writer added directly is a miss for its own tenant, never a fault.
CREATE TABLE memory.vector_cache (
    tenant_id        uuid              NOT NULL,
    embedding_model  text              NOT NULL,
    content_hash     bytea             NOT NULL,
    embedding        public.vector(384) NOT NULL,
    created_at       timestamptz       NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT vector_cache_pkey PRIMARY KEY (tenant_id, embedding_model, content_hash),
    CONSTRAINT vector_cache_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT vector_cache_embedding_model_check
        CHECK (embedding_model <> '' AND pg_catalog.char_length(embedding_model) <= memory._label_max()),
    CONSTRAINT vector_cache_content_hash_check
        CHECK (pg_catalog.octet_length(content_hash) BETWEEN 1 AND 64)
);
COMMENT ON TABLE memory.vector_cache IS
    'Vectors a tenant has computed, by embedding model and content hash (append-only): an import embeds a text once per tenant';

ALTER TABLE memory.vector_cache ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.vector_cache FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.vector_cache FROM PUBLIC;

GRANT SELECT ON memory.vector_cache TO memory_reader;
GRANT INSERT ON memory.vector_cache TO memory_writer;
