-- memory.embedding_models: the installation's embedding models, not a tenant's data. Readers
-- and administrators read every model; no role changes them (a model comes with a migration).
DROP POLICY IF EXISTS roles_read_every_model ON memory.embedding_models;
CREATE POLICY roles_read_every_model ON memory.embedding_models
    AS PERMISSIVE FOR SELECT TO memory_admin, memory_reader
    USING (true);
