-- V0001: roles, schema, tables and indexes of swarm-memory.
--
-- Every row carries tenant_id, and every unique and foreign key includes it: a key without
-- the tenant would let one tenant learn of another's ids through a conflict or a reference.
-- Upstream ids are text of any length; keys and indexes use a generated surrogate
-- (md5 of the id as uuid), since a b-tree entry cannot hold a long id.
-- Row-level security is enabled and forced here; the policies themselves live in
-- sql/policies/ and are re-applied on every deploy.

-- Group roles. Roles are cluster-wide, so create them only when missing.
DO $roles$
DECLARE
    v_role text;
BEGIN
    FOREACH v_role IN ARRAY ARRAY['memory_owner', 'memory_reader', 'memory_writer', 'memory_admin'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = v_role) THEN
            EXECUTE pg_catalog.format('CREATE ROLE %I NOLOGIN', v_role);
        END IF;
    END LOOP;
END
$roles$;

GRANT memory_reader TO memory_writer;

-- pgvector lives in schema public (its default); functions name it as public.vector.
DO $ext$
DECLARE
    v_schema name;
BEGIN
    SELECT n.nspname INTO v_schema
      FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'vector';
    IF v_schema IS NOT NULL AND v_schema <> 'public' THEN
        RAISE EXCEPTION 'extension vector is installed in schema %, swarm-memory expects public', v_schema
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'ALTER EXTENSION vector SET SCHEMA public';
    END IF;
END
$ext$;
CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;

CREATE SCHEMA memory;
COMMENT ON SCHEMA memory IS 'swarm-memory: tenant-owned memory for agent swarms';
REVOKE ALL ON SCHEMA memory FROM PUBLIC;
GRANT USAGE ON SCHEMA memory TO memory_reader, memory_writer, memory_admin;

CREATE TABLE memory.tenants (
    tenant_id   uuid        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT tenants_pkey PRIMARY KEY (tenant_id),
    CONSTRAINT tenants_name_key UNIQUE (name),
    CONSTRAINT tenants_name_check CHECK (name <> '')
);
COMMENT ON TABLE memory.tenants IS 'Tenants: the unit of ownership and isolation';

CREATE TABLE memory.tenant_grants (
    tenant_id   uuid        NOT NULL,
    role_name   name        NOT NULL,
    granted_by  name        NOT NULL DEFAULT CURRENT_USER,
    granted_at  timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT tenant_grants_pkey PRIMARY KEY (tenant_id, role_name),
    CONSTRAINT tenant_grants_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE
);
CREATE INDEX tenant_grants_role_idx ON memory.tenant_grants (role_name);
COMMENT ON TABLE memory.tenant_grants IS
    'Which database roles may act for which tenant (a grant to a group role covers its members)';

CREATE TABLE memory.simulations (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    name           text,
    metadata       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT simulations_pkey PRIMARY KEY (tenant_id, simulation_id),
    CONSTRAINT simulations_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT simulations_metadata_check CHECK (pg_catalog.jsonb_typeof(metadata) = 'object')
);
COMMENT ON TABLE memory.simulations IS 'One row per mirrored simulation run';

CREATE TABLE memory.nodes (
    tenant_id        uuid        NOT NULL,
    simulation_id    uuid        NOT NULL,
    node_id          text        NOT NULL,
    node_key         uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(node_id)::uuid) STORED,
    name             text        NOT NULL,
    type             text        NOT NULL,
    labels           text[]      NOT NULL DEFAULT '{}',
    summary          text,
    attributes       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    embedding        public.vector(384),
    embedding_model  text,
    created_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT nodes_pkey PRIMARY KEY (tenant_id, simulation_id, node_key),
    CONSTRAINT nodes_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT nodes_embedding_model_check CHECK ((embedding IS NULL) = (embedding_model IS NULL))
);
-- nodes_by_type: (tenant, simulation, type); types are short labels (at most 200 characters).
CREATE INDEX nodes_type_idx ON memory.nodes (tenant_id, simulation_id, type);
COMMENT ON TABLE memory.nodes IS 'Knowledge-graph entities of a simulation (upstream ids)';

CREATE TABLE memory.edges (
    tenant_id        uuid        NOT NULL,
    simulation_id    uuid        NOT NULL,
    edge_id          text        NOT NULL,
    edge_key         uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(edge_id)::uuid) STORED,
    type             text        NOT NULL,
    source_id        text        NOT NULL,
    source_key       uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(source_id)::uuid) STORED,
    target_id        text        NOT NULL,
    target_key       uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(target_id)::uuid) STORED,
    fact             text,
    attributes       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    valid_at         timestamptz,
    invalid_at       timestamptz,
    embedding        public.vector(384),
    embedding_model  text,
    created_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT edges_pkey PRIMARY KEY (tenant_id, simulation_id, edge_key),
    CONSTRAINT edges_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT edges_source_fkey FOREIGN KEY (tenant_id, simulation_id, source_key)
        REFERENCES memory.nodes (tenant_id, simulation_id, node_key) ON DELETE CASCADE,
    CONSTRAINT edges_target_fkey FOREIGN KEY (tenant_id, simulation_id, target_key)
        REFERENCES memory.nodes (tenant_id, simulation_id, node_key) ON DELETE CASCADE,
    CONSTRAINT edges_embedding_model_check CHECK ((embedding IS NULL) = (embedding_model IS NULL))
);
-- neighbors: outgoing and incoming steps of the walk.
CREATE INDEX edges_source_idx ON memory.edges (tenant_id, simulation_id, source_key);
CREATE INDEX edges_target_idx ON memory.edges (tenant_id, simulation_id, target_key);
COMMENT ON TABLE memory.edges IS 'Typed relationships between nodes of the same simulation';

CREATE TABLE memory.episodes (
    tenant_id        uuid        NOT NULL,
    simulation_id    uuid        NOT NULL,
    episode_id       text        NOT NULL,
    episode_key      uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(episode_id)::uuid) STORED,
    agent_id         integer,
    agent_name       text,
    platform         text,
    round            integer,
    action_type      text        NOT NULL,
    content          text,
    metadata         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    occurred_at      timestamptz,
    embedding        public.vector(384),
    embedding_model  text,
    created_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT episodes_pkey PRIMARY KEY (tenant_id, simulation_id, episode_key),
    CONSTRAINT episodes_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT episodes_embedding_model_check CHECK ((embedding IS NULL) = (embedding_model IS NULL))
);
-- search_episodes with p_agent_id.
CREATE INDEX episodes_agent_idx ON memory.episodes (tenant_id, simulation_id, agent_id);
COMMENT ON TABLE memory.episodes IS 'Agent actions of a simulation, one row per action';

CREATE TABLE memory.profiles (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    platform       text        NOT NULL,
    agent_id       integer     NOT NULL,
    name           text,
    username       text,
    bio            text,
    persona        text,
    attributes     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT profiles_pkey PRIMARY KEY (tenant_id, simulation_id, platform, agent_id),
    CONSTRAINT profiles_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE
);
COMMENT ON TABLE memory.profiles IS 'Agent profiles of a simulation, one per platform and agent';

DO $rls$
DECLARE
    v_table text;
BEGIN
    FOREACH v_table IN ARRAY ARRAY['tenants', 'tenant_grants', 'simulations', 'nodes', 'edges',
                                   'episodes', 'profiles'] LOOP
        EXECUTE pg_catalog.format('ALTER TABLE memory.%I ENABLE ROW LEVEL SECURITY', v_table);
        EXECUTE pg_catalog.format('ALTER TABLE memory.%I FORCE ROW LEVEL SECURITY', v_table);
        EXECUTE pg_catalog.format('REVOKE ALL ON memory.%I FROM PUBLIC', v_table);
    END LOOP;
END
$rls$;

-- Table privileges: functions are SECURITY INVOKER, so the caller needs them; RLS then
-- narrows every statement to the rows of the call's granted tenant.
GRANT SELECT ON memory.tenants, memory.tenant_grants TO memory_reader;
GRANT SELECT, INSERT, UPDATE, DELETE ON memory.tenants, memory.tenant_grants TO memory_admin;
GRANT SELECT ON memory.simulations, memory.nodes, memory.edges, memory.episodes, memory.profiles
    TO memory_reader;
GRANT INSERT, UPDATE, DELETE ON memory.simulations, memory.nodes, memory.edges, memory.episodes,
    memory.profiles TO memory_writer;
