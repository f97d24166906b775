-- V0005: one home for the rules that every record kind shares.
--
-- Types and platforms are labels: short strings that indexes hold. Their limit lives here,
-- once: memory._label_max() says how long a label may be, the tables' checks enforce it,
-- and the API's checks (memory._field_problem, the staged import's memory._staging_problem)
-- read the same function, so that a call is refused with 22023 and the position of the bad
-- row before a table would refuse it with 23514.
CREATE FUNCTION memory._label_max()
RETURNS integer
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 200
$fn$;
COMMENT ON FUNCTION memory._label_max() IS
    'Internal: the most characters a label (a type or a platform) may have';
REVOKE ALL ON FUNCTION memory._label_max() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._label_max() TO memory_reader, memory_writer, memory_admin;

ALTER TABLE memory.nodes
    DROP CONSTRAINT nodes_type_length_check,
    ADD CONSTRAINT nodes_type_length_check CHECK (pg_catalog.char_length(type) <= memory._label_max());
ALTER TABLE memory.edges
    DROP CONSTRAINT edges_type_length_check,
    ADD CONSTRAINT edges_type_length_check CHECK (pg_catalog.char_length(type) <= memory._label_max());
ALTER TABLE memory.profiles
    ADD CONSTRAINT profiles_platform_length_check CHECK (pg_catalog.char_length(platform) <= memory._label_max());

-- The per-kind helpers of batch items give way to the kinds' shared merge
-- (memory._merge reads items with jsonb_populate_recordset over the staged row type).
DROP FUNCTION IF EXISTS memory._embedding(jsonb);
DROP FUNCTION IF EXISTS memory._embedding_model(jsonb);
DROP FUNCTION IF EXISTS memory._object(jsonb);

-- What the write path knows of a record kind beyond the catalog (memory._record_kinds()).
CREATE TYPE memory.record_kind AS (
    kind           text,
    item           text,
    ord            integer,
    live           regclass,
    staged         regclass,
    batch_arg      text,
    batch_spec     jsonb,
    id_column      name,
    batch_key      text[],
    item_defaults  jsonb
);
COMMENT ON TYPE memory.record_kind IS
    'A record kind (nodes, edges, episodes, profiles) as the write path sees it';

-- Objects the re-applied files used to drop themselves: a released migration drops them.
DROP FUNCTION IF EXISTS memory._search_episodes_ann(uuid, uuid, public.vector, integer, integer);
DROP POLICY IF EXISTS writers_manage_rows_of_the_granted_call_tenant ON memory.staged_nodes;
DROP POLICY IF EXISTS writers_manage_rows_of_the_granted_call_tenant ON memory.staged_edges;
DROP POLICY IF EXISTS writers_manage_rows_of_the_granted_call_tenant ON memory.staged_episodes;
DROP POLICY IF EXISTS writers_manage_rows_of_the_granted_call_tenant ON memory.staged_profiles;
