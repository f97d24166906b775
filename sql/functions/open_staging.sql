-- Create this session's temporary staging tables, if they are not there yet:
--   pg_temp.stage_nodes, stage_edges, stage_episodes, stage_profiles.
-- COPY is refused on tables under row-level security, so a bulk loader COPYs into these
-- (no RLS on a session's own temporary tables) and then calls memory.stage_rows(), which
-- validates the rows and moves them into the attempt under the policies' WITH CHECK.
-- The columns mirror the upsert items; position is the row's place in its source, named
-- in errors. Rows are deleted at commit. Reads no data, so takes no tenant.
CREATE OR REPLACE FUNCTION memory.open_staging()
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.to_regclass('pg_temp.stage_nodes') IS NULL THEN
        CREATE TEMPORARY TABLE stage_nodes (
            node_id text, position integer, name text, type text, labels text[], summary text,
            attributes jsonb, embedding public.vector(384), embedding_model text, content_hash bytea
        ) ON COMMIT DELETE ROWS;
    END IF;
    IF pg_catalog.to_regclass('pg_temp.stage_edges') IS NULL THEN
        CREATE TEMPORARY TABLE stage_edges (
            edge_id text, position integer, type text, source_id text, target_id text, fact text,
            attributes jsonb, valid_at timestamptz, invalid_at timestamptz,
            embedding public.vector(384), embedding_model text, content_hash bytea
        ) ON COMMIT DELETE ROWS;
    END IF;
    IF pg_catalog.to_regclass('pg_temp.stage_episodes') IS NULL THEN
        CREATE TEMPORARY TABLE stage_episodes (
            episode_id text, position integer, agent_id integer, agent_name text, platform text,
            round integer, action_type text, content text, metadata jsonb, occurred_at timestamptz,
            embedding public.vector(384), embedding_model text, content_hash bytea
        ) ON COMMIT DELETE ROWS;
    END IF;
    IF pg_catalog.to_regclass('pg_temp.stage_profiles') IS NULL THEN
        CREATE TEMPORARY TABLE stage_profiles (
            platform text, agent_id integer, position integer, name text, username text, bio text,
            persona text, attributes jsonb
        ) ON COMMIT DELETE ROWS;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory.open_staging() IS
    'Create the session''s temporary staging tables (pg_temp.stage_*) that bulk loaders COPY into';
REVOKE ALL ON FUNCTION memory.open_staging() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.open_staging() TO memory_writer;
