-- The schema of a fresh migrate: pg_dump --schema-only, normalised by
-- swarm_memory.migrate.schema_dump (no dump comments or settings, the migration bookkeeping
-- left out, one block per object, blocks sorted). Written by `make schema`; compared with a
-- fresh migrate by tests/test_migrations.py. Do not edit by hand.

-- btree_gin; Type: EXTENSION; Schema: -; Owner: -
CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public;

-- EXTENSION btree_gin; Type: COMMENT; Schema: -; Owner: 
COMMENT ON EXTENSION btree_gin IS 'support for indexing common datatypes in GIN';

-- memory; Type: SCHEMA; Schema: -; Owner: memory_owner
CREATE SCHEMA memory;

ALTER SCHEMA memory OWNER TO memory_owner;

-- SCHEMA memory; Type: COMMENT; Schema: -; Owner: memory_owner
COMMENT ON SCHEMA memory IS 'swarm-memory: tenant-owned memory for agent swarms';

-- SCHEMA memory; Type: ACL; Schema: -; Owner: memory_owner
GRANT USAGE ON SCHEMA memory TO memory_reader;
GRANT USAGE ON SCHEMA memory TO memory_writer;
GRANT USAGE ON SCHEMA memory TO memory_admin;

-- pg_trgm; Type: EXTENSION; Schema: -; Owner: -
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: 
COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';

-- vector; Type: EXTENSION; Schema: -; Owner: -
CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;

-- EXTENSION vector; Type: COMMENT; Schema: -; Owner: 
COMMENT ON EXTENSION vector IS 'vector data type and ivfflat and hnsw access methods';

-- _acting_role(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._acting_role() RETURNS name
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT CASE WHEN CURRENT_USER OPERATOR(pg_catalog.<>) 'memory_owner' THEN CURRENT_USER
                WHEN pg_catalog.current_setting('role') OPERATOR(pg_catalog.<>) 'none'
                    THEN pg_catalog.current_setting('role')::name
                ELSE SESSION_USER END
$$;

ALTER FUNCTION memory._acting_role() OWNER TO memory_owner;

-- FUNCTION _acting_role(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._acting_role() IS 'Internal: the role a call acts as (the current role; inside memory_owner''s definers the SET ROLE role, else the session user)';

-- FUNCTION _acting_role(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._acting_role() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._acting_role() TO memory_reader;
GRANT ALL ON FUNCTION memory._acting_role() TO memory_writer;
GRANT ALL ON FUNCTION memory._acting_role() TO memory_admin;

-- _action_said(text, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._action_said(p_content text, p_metadata jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT CASE
        WHEN pg_catalog.jsonb_typeof(p_metadata -> 'action_args') IS DISTINCT FROM 'object' THEN p_content
        ELSE COALESCE(NULLIF(p_metadata -> 'action_args' ->> 'content', ''),
                      NULLIF(p_metadata -> 'action_args' ->> 'quote_content', ''),
                      NULLIF(p_metadata -> 'action_args' ->> 'original_content', '')) END
$$;

ALTER FUNCTION memory._action_said(p_content text, p_metadata jsonb) OWNER TO memory_owner;

-- FUNCTION _action_said(p_content text, p_metadata jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._action_said(p_content text, p_metadata jsonb) IS 'Internal: an action''s own text, a repost''s reposted text, NULL for an action without text';

-- FUNCTION _action_said(p_content text, p_metadata jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._action_said(p_content text, p_metadata jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._action_said(p_content text, p_metadata jsonb) TO memory_reader;

-- _ann_breadth(real); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_breadth(p_index_rows real) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT CASE WHEN p_index_rows > 0
            THEN LEAST(1000, GREATEST(LEAST(400, GREATEST(200, p_index_rows / 100)),
                                      p_index_rows / 250))::integer
            ELSE 400 END
$$;

ALTER FUNCTION memory._ann_breadth(p_index_rows real) OWNER TO memory_owner;

-- FUNCTION _ann_breadth(p_index_rows real); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_breadth(p_index_rows real) IS 'Internal: hnsw.ef_search for a simulation''s own index of p_index_rows vectors (200 to 1,000)';

-- FUNCTION _ann_breadth(p_index_rows real); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_breadth(p_index_rows real) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_breadth(p_index_rows real) TO memory_reader;

-- _ann_counts(uuid, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text DEFAULT 'episodes'::text) RETURNS TABLE(sim_no bigint, embedded bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_previous text := pg_catalog.current_setting('memory.tenant_id', true);
    v_kind     text := memory._one_of('indexed kind', p_kind, ARRAY['episodes', 'facts', 'entities']);
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    RETURN QUERY
    SELECT e.sim_no, pg_catalog.count(*)
      FROM memory.episodes AS e
     WHERE v_kind = 'episodes' AND e.tenant_id = p_tenant_id AND e.embedding IS NOT NULL
     GROUP BY e.sim_no
    HAVING pg_catalog.count(*) >= COALESCE(p_min_rows, 0)
    UNION ALL
    SELECT f.sim_no, pg_catalog.count(*)
      FROM memory.edges AS f
     WHERE v_kind = 'facts' AND f.tenant_id = p_tenant_id AND f.embedding IS NOT NULL
     GROUP BY f.sim_no
    HAVING pg_catalog.count(*) >= COALESCE(p_min_rows, 0)
    UNION ALL
    SELECT n.sim_no, pg_catalog.count(*)
      FROM memory.nodes AS n
     WHERE v_kind = 'entities' AND n.tenant_id = p_tenant_id AND n.embedding IS NOT NULL
     GROUP BY n.sim_no
    HAVING pg_catalog.count(*) >= COALESCE(p_min_rows, 0);
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$$;

ALTER FUNCTION memory._ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text) OWNER TO memory_owner;

-- FUNCTION _ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text) IS 'Internal: embedded episodes, facts or entities per simulation number of one tenant, for memory.ann_plan, memory.ann_plan_facts and memory.ann_plan_entities (SECURITY DEFINER: counts across tenants; memory_admin only)';

-- FUNCTION _ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_counts(p_tenant_id uuid, p_min_rows integer, p_kind text) TO memory_admin;

-- _ann_index_name(bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_index_name(p_sim_no bigint) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 'episodes_ann_' || p_sim_no::text
$$;

ALTER FUNCTION memory._ann_index_name(p_sim_no bigint) OWNER TO memory_owner;

-- FUNCTION _ann_index_name(p_sim_no bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_index_name(p_sim_no bigint) IS 'Internal: the name of a simulation''s partial HNSW index over its episodes, from its opaque number';

-- FUNCTION _ann_index_name(p_sim_no bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_index_name(p_sim_no bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_index_name(p_sim_no bigint) TO memory_reader;
GRANT ALL ON FUNCTION memory._ann_index_name(p_sim_no bigint) TO memory_admin;

-- _ann_ivf_index_name(bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_ivf_index_name(p_sim_no bigint) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 'episodes_ivf_' || p_sim_no::text
$$;

ALTER FUNCTION memory._ann_ivf_index_name(p_sim_no bigint) OWNER TO memory_owner;

-- FUNCTION _ann_ivf_index_name(p_sim_no bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_ivf_index_name(p_sim_no bigint) IS 'Internal: the name of a simulation''s IVFFlat bridge index over its episodes (searched while its HNSW index is being built), from its opaque number';

-- FUNCTION _ann_ivf_index_name(p_sim_no bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_ivf_index_name(p_sim_no bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_ivf_index_name(p_sim_no bigint) TO memory_reader;
GRANT ALL ON FUNCTION memory._ann_ivf_index_name(p_sim_no bigint) TO memory_admin;

-- _ann_plan(text, integer, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer) RETURNS TABLE(sim_no bigint, index_name text, embedded bigint, action text)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
    WITH kind AS (
        SELECT CASE k.kind WHEN 'facts' THEN 'memory.edges'::pg_catalog.regclass
                           WHEN 'entities' THEN 'memory.nodes'::pg_catalog.regclass
                           ELSE 'memory.episodes'::pg_catalog.regclass END AS tbl,
               CASE k.kind WHEN 'facts' THEN '^facts_ann_[0-9]+$' WHEN 'entities' THEN '^entities_ann_[0-9]+(_summary)?$'
                           ELSE '^episodes_ann_[0-9]+$' END AS pattern,
               CASE k.kind WHEN 'entities' THEN 2 ELSE 1 END AS parts
          FROM (SELECT memory._one_of('indexed kind', p_kind, ARRAY['episodes', 'facts', 'entities']) AS kind) AS k),
    wanted AS (
        SELECT w.sim_no, w.embedded,
               CASE p_kind WHEN 'facts' THEN memory._facts_ann_index_name(w.sim_no)
                           WHEN 'entities' THEN memory._entities_ann_index_name(w.sim_no)
                           ELSE memory._ann_index_name(w.sim_no) END AS index_name
          FROM memory._ann_wanted(p_min_rows, p_kind) AS w),
    existing AS (
        -- each simulation's index, or its pair (the entities': an index and its _summary,
        -- judged together, so that a pair left half built, half invalid or half rebuilt by an
        -- interrupted run is built or rebuilt whole, and a lone half of a gone simulation dropped)
        SELECT pg_catalog.regexp_replace(c.relname::text, '_summary$', '') AS index_name,
               pg_catalog.count(*) AS parts, pg_catalog.bool_and(i.indisvalid) AS valid,
               pg_catalog.bool_and(ARRAY(SELECT o FROM pg_catalog.unnest(COALESCE(c.reloptions, '{}')) AS o ORDER BY o)
                                   = ARRAY['ef_construction=' || p_ef_construction, 'm=' || p_m]) AS same
          FROM kind AS k
          JOIN pg_catalog.pg_index AS i ON i.indrelid = k.tbl
          JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
         WHERE c.relname ~ k.pattern
         GROUP BY 1)
    SELECT w.sim_no, w.index_name, w.embedded,
           CASE WHEN x.index_name IS NULL OR NOT x.valid OR x.parts < (SELECT k.parts FROM kind AS k) THEN 'build'
                WHEN NOT x.same THEN 'rebuild'
                ELSE 'keep' END
      FROM wanted AS w
      LEFT JOIN existing AS x ON x.index_name = w.index_name
    UNION ALL
    SELECT pg_catalog.substring(x.index_name, '[0-9]+$')::bigint, x.index_name, 0::bigint, 'drop'
      FROM existing AS x
     WHERE x.index_name NOT IN (SELECT w.index_name FROM wanted AS w)
    UNION ALL
    -- a bridge (memory._ann_ivf_index_name) an interrupted run left, of a simulation with no
    -- index of its own to build, keep or drop: its 'drop' drops the bridge too
    SELECT b.sim_no, memory._ann_index_name(b.sim_no), 0::bigint, 'drop'
      FROM (SELECT pg_catalog.substring(c.relname::text, '[0-9]+$')::bigint AS sim_no
              FROM kind AS k
              JOIN pg_catalog.pg_index AS i ON i.indrelid = k.tbl
              JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
             WHERE k.tbl = 'memory.episodes'::pg_catalog.regclass AND c.relname ~ '^episodes_ivf_[0-9]+$') AS b
     WHERE memory._ann_index_name(b.sim_no) NOT IN (SELECT w.index_name FROM wanted AS w)
       AND memory._ann_index_name(b.sim_no) NOT IN (SELECT x.index_name FROM existing AS x)
     ORDER BY 3 DESC, 1;
$_$;

ALTER FUNCTION memory._ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer) OWNER TO memory_owner;

-- FUNCTION _ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer) IS 'Internal: the per-simulation HNSW indexes of a kind (episodes, facts or entities) to build, rebuild, keep or drop; memory_admin';

-- FUNCTION _ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer) TO memory_admin;

-- _ann_statement_list(text, text, text, text, name); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_statement_list(p_action text, p_how text, p_create text, p_name text, p_column name) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT CASE p_action
        WHEN 'build' THEN ARRAY[
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name),
            pg_catalog.format(p_create, p_name, p_column)]
        WHEN 'rebuild' THEN ARRAY[
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name || '_new'),
            pg_catalog.format(p_create, p_name || '_new', p_column),
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name),
            pg_catalog.format('ALTER INDEX memory.%I RENAME TO %I', p_name || '_new', p_name)]
        WHEN 'drop' THEN ARRAY[pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', p_how, p_name)]
        WHEN 'keep' THEN ARRAY[]::text[]
    END
$$;

ALTER FUNCTION memory._ann_statement_list(p_action text, p_how text, p_create text, p_name text, p_column name) OWNER TO memory_owner;

-- FUNCTION _ann_statement_list(p_action text, p_how text, p_create text, p_name text, p_column name); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_statement_list(p_action text, p_how text, p_create text, p_name text, p_column name) IS 'Internal: the statements of one build, rebuild, drop or keep of a per-simulation HNSW index, for memory._ann_statements';

-- FUNCTION _ann_statement_list(p_action text, p_how text, p_create text, p_name text, p_column name); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_statement_list(p_action text, p_how text, p_create text, p_name text, p_column name) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_statement_list(p_action text, p_how text, p_create text, p_name text, p_column name) TO memory_admin;

-- _ann_statements(bigint, text, integer, integer, boolean, regclass); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_statements(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_concurrently boolean, p_table regclass) RETURNS text[]
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_facts    boolean := p_table = 'memory.edges'::pg_catalog.regclass;
    v_entities boolean := p_table = 'memory.nodes'::pg_catalog.regclass;
    v_name     text := CASE WHEN v_facts THEN memory._facts_ann_index_name(p_sim_no)
                            WHEN v_entities THEN memory._entities_ann_index_name(p_sim_no)
                            ELSE memory._ann_index_name(p_sim_no) END;
    v_how      text := CASE WHEN p_concurrently THEN 'CONCURRENTLY ' ELSE '' END;
    v_episodes boolean := p_table = 'memory.episodes'::pg_catalog.regclass;
    v_bridge   text := memory._ann_ivf_index_name(p_sim_no);
    v_unbridge text := pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, v_bridge);
    v_create   text;
    v_stmts    text[];
BEGIN
    IF p_sim_no IS NULL OR p_action IS NULL OR p_concurrently IS NULL OR p_table IS NULL THEN
        RAISE EXCEPTION 'the simulation number, the action and the mode of an index build must not be NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'take a row of memory.ann_plan(): its sim_no and action';
    END IF;
    v_create := pg_catalog.format(
        'CREATE INDEX %s%%I ON %s USING hnsw ((%%I::public.halfvec(384)) public.halfvec_cosine_ops)'
        ' WITH (m = %s, ef_construction = %s) WHERE sim_no = %s',
        v_how, p_table, COALESCE(p_m, 32), COALESCE(p_ef_construction, 128), p_sim_no);
    IF v_entities AND p_action IS DISTINCT FROM 'keep' THEN
        -- the pair: the statements of the name vectors' index, then those of the summaries'
        -- (the same action on an index of the same parameters, named with _summary)
        v_stmts := memory._ann_statement_list(p_action, v_how, v_create, v_name, 'embedding')
                   || memory._ann_statement_list(p_action, v_how, v_create, v_name || '_summary', 'summary_embedding');
    ELSE
        v_stmts := memory._ann_statement_list(p_action, v_how, v_create, v_name, 'embedding');
    END IF;
    IF v_stmts IS NOT NULL AND p_action = 'drop' AND NOT v_facts AND NOT v_entities THEN
        -- with the indexes of the simulation's clump builds (memory._clump_build), whose rows
        -- went with the simulation or go with memory._clump_build(..., 'drop')
        v_stmts := v_stmts || ARRAY(
            SELECT pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, c.relname)
              FROM pg_catalog.pg_class AS c
             WHERE c.relnamespace = 'memory'::pg_catalog.regnamespace AND c.relkind = 'i'
               AND c.relname ~ ('^search_points_ann_' || p_sim_no::text || '_[0-9]+$')
             ORDER BY c.relname);
    END IF;
    IF v_stmts IS NOT NULL AND v_episodes THEN
        IF p_action = 'build' AND p_concurrently THEN
            -- the bridge: built first, searched while the HNSW index builds, dropped after it
            v_stmts := ARRAY[v_unbridge,
                             pg_catalog.format('CREATE INDEX %s%I ON memory.episodes USING ivfflat'
                                               ' ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)'
                                               ' WITH (lists = 100) WHERE sim_no = %s AND embedding IS NOT NULL',
                                               v_how, v_bridge, p_sim_no)]
                       || v_stmts
                       || v_unbridge;
        ELSIF p_action <> 'keep' OR pg_catalog.to_regclass('memory.' || v_bridge) IS NOT NULL THEN
            -- a bridge an interrupted run left (for 'keep' only when there is one): dropped
            -- first, so that a build in one transaction does not end waiting for its lock
            v_stmts := v_unbridge || v_stmts;
        END IF;
    END IF;
    IF v_stmts IS NULL THEN
        RAISE EXCEPTION 'unknown index action %', pg_catalog.left(p_action, 200)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of build, rebuild, drop, keep (the action column of memory.ann_plan())';
    END IF;
    IF NOT p_concurrently AND pg_catalog.cardinality(v_stmts) > 0 AND NOT memory._on_cluster() THEN
        RAISE EXCEPTION 'index action % of simulation % in one transaction would hold % against every tenant''s writes until it ends',
                        p_action, p_sim_no, p_table
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'run `swarm-memory index` (it builds and drops CONCURRENTLY, outside a transaction, as memory_owner)';
    END IF;
    RETURN v_stmts;
END
$_$;

ALTER FUNCTION memory._ann_statements(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_concurrently boolean, p_table regclass) OWNER TO memory_owner;

-- FUNCTION _ann_statements(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_concurrently boolean, p_table regclass); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_statements(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_concurrently boolean, p_table regclass) IS 'Internal: the statements of an index action of memory.ann_plan(), ann_plan_facts() or ann_plan_entities() on a simulation''s HNSW index over memory.episodes (or a shard of it; with the IVFFlat bridge built before a concurrent build and dropped after it), memory.edges or memory.nodes (a pair); the plain (one-transaction) form only on a Citus cluster';

-- FUNCTION _ann_statements(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_concurrently boolean, p_table regclass); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_statements(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_concurrently boolean, p_table regclass) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_statements(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_concurrently boolean, p_table regclass) TO memory_admin;

-- _ann_wanted(integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._ann_wanted(p_min_rows integer, p_kind text DEFAULT 'episodes'::text) RETURNS TABLE(tenant_id uuid, sim_no bigint, embedded bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT t.tenant_id, w.sim_no, w.embedded
      FROM memory.tenants AS t
     CROSS JOIN LATERAL memory._ann_counts(t.tenant_id, p_min_rows, p_kind) AS w
$$;

ALTER FUNCTION memory._ann_wanted(p_min_rows integer, p_kind text) OWNER TO memory_owner;

-- FUNCTION _ann_wanted(p_min_rows integer, p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._ann_wanted(p_min_rows integer, p_kind text) IS 'Internal: every tenant''s simulations with at least p_min_rows embedded episodes, facts or entities (memory_admin)';

-- FUNCTION _ann_wanted(p_min_rows integer, p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._ann_wanted(p_min_rows integer, p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._ann_wanted(p_min_rows integer, p_kind text) TO memory_admin;

-- _attempt_alive(integer, integer, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT p_backend_pid IS NOT NULL
       AND (memory._node_group() <> 0
            OR (memory._attempt_lock_held(p_lock_key, p_backend_pid)
                AND EXISTS (SELECT 1 FROM pg_catalog.pg_stat_activity AS s
                             WHERE s.pid = p_backend_pid
                               AND (s.backend_start IS NULL OR p_backend_start IS NULL
                                    OR s.backend_start = p_backend_start))))
$$;

ALTER FUNCTION memory._attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamp with time zone) IS 'Internal: whether the backend that began an import attempt is still there and holds its lock';

-- FUNCTION _attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamp with time zone) TO memory_reader;

-- _attempt_lock_class(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._attempt_lock_class() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 1398230321
$$;

ALTER FUNCTION memory._attempt_lock_class() OWNER TO memory_owner;

-- FUNCTION _attempt_lock_class(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._attempt_lock_class() IS 'Internal: the advisory-lock class of import attempts';

-- FUNCTION _attempt_lock_class(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._attempt_lock_class() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._attempt_lock_class() TO memory_reader;
GRANT ALL ON FUNCTION memory._attempt_lock_class() TO memory_writer;

-- _attempt_lock_held(integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._attempt_lock_held(p_lock_key integer, p_pid integer) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT EXISTS (
        SELECT 1 FROM pg_catalog.pg_locks AS l
         WHERE l.locktype = 'advisory'
           AND l.database = (SELECT d.oid FROM pg_catalog.pg_database AS d
                              WHERE d.datname = pg_catalog.current_database())
           AND l.classid = memory._attempt_lock_class()::oid
           AND l.objid = p_lock_key::oid
           AND l.objsubid = 2
           AND l.pid = p_pid
           AND l.granted)
$$;

ALTER FUNCTION memory._attempt_lock_held(p_lock_key integer, p_pid integer) OWNER TO memory_owner;

-- FUNCTION _attempt_lock_held(p_lock_key integer, p_pid integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._attempt_lock_held(p_lock_key integer, p_pid integer) IS 'Internal: whether a given backend holds an import attempt''s advisory lock';

-- FUNCTION _attempt_lock_held(p_lock_key integer, p_pid integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._attempt_lock_held(p_lock_key integer, p_pid integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._attempt_lock_held(p_lock_key integer, p_pid integer) TO memory_reader;
GRANT ALL ON FUNCTION memory._attempt_lock_held(p_lock_key integer, p_pid integer) TO memory_writer;

-- _check_batch(text, jsonb, jsonb, text[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_index   bigint;
    v_other   bigint;
    v_field   text;
    v_problem text;
    v_limit   text;
    v_size    bigint;
    v_caps    jsonb := pg_catalog.jsonb_build_object(
                  'string_bytes', memory._limit('string_bytes'),
                  'object_bytes', memory._limit('object_bytes'),
                  'list_elements', memory._limit('list_elements'));
BEGIN
    PERFORM memory._not_null(p_items, p_arg, 'pass a JSON array of items ([] for none)');
    IF pg_catalog.jsonb_typeof(p_items) <> 'array' THEN
        RAISE EXCEPTION '% must be a JSON array, not %', p_arg, pg_catalog.jsonb_typeof(p_items)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a JSON array of items ([] for none)';
    END IF;
    PERFORM memory._check_limit('batch_rows', p_arg || ' (items)', pg_catalog.jsonb_array_length(p_items));
    PERFORM memory._check_limit('batch_bytes', p_arg || ' (bytes)', pg_catalog.pg_column_size(p_items));

    SELECT t.ord - 1, pg_catalog.jsonb_typeof(t.item) INTO v_index, v_problem
      FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)
     WHERE pg_catalog.jsonb_typeof(t.item) <> 'object'
     ORDER BY t.ord
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '%[%] must be a JSON object, not %', p_arg, v_index, v_problem
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'nothing of the batch was written; fix the item and send the batch again';
    END IF;

    -- Each field is judged once (MATERIALIZED keeps the planner from repeating the call in
    -- the filter): its size against its cap (any string, any object, a text[] list), then
    -- its kind.
    WITH judged AS MATERIALIZED (
        SELECT t.ord, f.key, z.cap, z.size,
               memory._field_problem(t.item -> f.key, f.value) AS problem
          FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)
         CROSS JOIN pg_catalog.jsonb_each_text(p_spec) AS f(key, value)
         CROSS JOIN LATERAL (
             SELECT CASE pg_catalog.jsonb_typeof(t.item -> f.key)
                        WHEN 'string' THEN 'string_bytes' WHEN 'object' THEN 'object_bytes'
                        WHEN 'array' THEN CASE WHEN f.value = 'text[]' THEN 'list_elements' END END AS cap,
                    CASE pg_catalog.jsonb_typeof(t.item -> f.key)
                        WHEN 'string' THEN pg_catalog.octet_length(t.item ->> f.key)::bigint
                        WHEN 'object' THEN pg_catalog.pg_column_size(t.item -> f.key)::bigint
                        WHEN 'array' THEN pg_catalog.jsonb_array_length(t.item -> f.key)::bigint END AS size) AS z)
    SELECT j.ord - 1, j.key, j.problem, j.cap, j.size
      INTO v_index, v_field, v_problem, v_limit, v_size
      FROM judged AS j
     WHERE j.problem IS NOT NULL OR j.size > (v_caps ->> j.cap)::bigint
     ORDER BY j.ord, j.key
     LIMIT 1;
    IF FOUND AND v_size > (v_caps ->> v_limit)::bigint THEN
        PERFORM memory._check_limit(v_limit, pg_catalog.format('%s[%s].%s', p_arg, v_index, v_field), v_size);
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION '%[%].%: %', p_arg, v_index, v_field, v_problem
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'nothing of the batch was written; fix the item and send the batch again';
    END IF;

    SELECT d.key, d.first_index, d.second_index INTO v_problem, v_index, v_other
      FROM (SELECT k.key,
                   pg_catalog.min(k.ord) - 1 AS first_index,
                   (pg_catalog.array_agg(k.ord ORDER BY k.ord))[2] - 1 AS second_index
              FROM (SELECT t.ord,
                           (SELECT pg_catalog.string_agg(t.item ->> c.col, '/' ORDER BY c.pos)
                              FROM pg_catalog.unnest(p_key) WITH ORDINALITY AS c(col, pos)) AS key
                      FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)) AS k
             GROUP BY k.key
            HAVING pg_catalog.count(*) > 1) AS d
     ORDER BY d.first_index
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '%: % % appears twice, at items % and %', p_arg,
                pg_catalog.array_to_string(p_key, '/'), memory._quote(v_problem), v_index, v_other
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'each item of a batch must have its own key; nothing of the batch was written';
    END IF;
END
$$;

ALTER FUNCTION memory._check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]) OWNER TO memory_owner;

-- FUNCTION _check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]) IS 'Internal: validate a jsonb batch (22004, 22023 naming the item index) before any write';

-- FUNCTION _check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]) TO memory_writer;

-- _check_fact_state(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._check_fact_state(p_state text) RETURNS void
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT memory._not_null(p_state, 'p_state', 'pass ''current'', ''historical'', ''future'' or ''all''');
    SELECT memory._one_of('fact state', p_state, '{current, historical, future, all}');
$$;

ALTER FUNCTION memory._check_fact_state(p_state text) OWNER TO memory_owner;

-- FUNCTION _check_fact_state(p_state text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._check_fact_state(p_state text) IS 'Internal: refuse a fact state other than current, historical, future or all (22004/22023)';

-- FUNCTION _check_fact_state(p_state text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._check_fact_state(p_state text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._check_fact_state(p_state text) TO memory_reader;

-- _check_items_model(uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_models text[];
    v_stored text;
BEGIN
    SELECT pg_catalog.array_agg(DISTINCT COALESCE(i.value ->> 'embedding_model', memory._default_model()))
      INTO v_models
      FROM pg_catalog.jsonb_array_elements(p_items) AS i(value)
     WHERE pg_catalog.jsonb_typeof(i.value -> 'embedding') = 'array'
        OR pg_catalog.jsonb_typeof(i.value -> 'summary_embedding') = 'array';
    IF v_models IS NULL THEN
        RETURN;
    END IF;
    v_stored := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;
    IF v_models <> ARRAY[v_stored] THEN
        RAISE EXCEPTION 'vectors of model % for simulation %, whose vectors are of model %',
                        pg_catalog.array_to_string(v_models, ', '), p_simulation_id, pg_catalog.quote_literal(v_stored)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed with %s (memory.model_of()), name another model first with memory.set_model() while the simulation holds no vectors, or re-embed it (swarm-memory reembed)', v_stored);
    END IF;
END
$$;

ALTER FUNCTION memory._check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) IS 'Internal: refuse (22023) a batch whose vectors are of another model than the simulation''s';

-- FUNCTION _check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) TO memory_writer;

-- _check_limit(text, text, bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_max bigint := memory._limit(p_limit);
BEGIN
    IF p_value > v_max THEN
        RAISE EXCEPTION '% exceeds the limit %: % > %', memory._quote(p_what), p_limit, p_value, v_max
            USING ERRCODE = 'program_limit_exceeded',
                  HINT = CASE p_limit
                      WHEN 'question_bytes' THEN
                          pg_catalog.format('shorten the question to at most %s bytes: its key words and names '
                                            '(memory._limit(%L))', v_max, p_limit)
                      WHEN 'health_sample' THEN
                          pg_catalog.format('ask for at most %s sampled queries (memory._limit(%L)); 0 skips the check',
                                            v_max, p_limit)
                      ELSE pg_catalog.format('nothing was written; split the work or shorten the value '
                                             '(memory._limit(%L) = %s)', p_limit, v_max) END;
    END IF;
END
$$;

ALTER FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) OWNER TO memory_owner;

-- FUNCTION _check_limit(p_limit text, p_what text, p_value bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) IS 'Internal: refuse a value over a limit of memory._limit() (54000, naming the limit and the value)';

-- FUNCTION _check_limit(p_limit text, p_what text, p_value bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) TO memory_reader;
GRANT ALL ON FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) TO memory_writer;
GRANT ALL ON FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) TO memory_admin;

-- _check_query_model(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_stored text;
BEGIN
    IF p_model IS NOT NULL THEN
        PERFORM memory._model(p_model);
    END IF;
    v_stored := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;
    IF p_model IS NULL AND v_stored <> memory._default_model() THEN
        RAISE EXCEPTION 'the query vector names no model (taken as %), the vectors of simulation % are of model %',
                        pg_catalog.quote_literal(memory._default_model()), p_simulation_id, pg_catalog.quote_literal(v_stored)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed the question with %s and name it: p_model => %L (recall: option "model"; swarm-memory embed --tenant T --simulation S)',
                                           v_stored, v_stored);
    END IF;
    IF v_stored <> p_model THEN
        RAISE EXCEPTION 'the query vector is of model %, the vectors of simulation % are of model %',
                        pg_catalog.quote_literal(p_model), p_simulation_id, pg_catalog.quote_literal(v_stored)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed the question with %s (memory.model_of() names a simulation''s model)', v_stored);
    END IF;
END
$$;

ALTER FUNCTION memory._check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) OWNER TO memory_owner;

-- FUNCTION _check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) IS 'Internal: refuse (22023) a query vector of another model than the simulation''s; NULL names the default model';

-- FUNCTION _check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) TO memory_reader;

-- _check_query_vector(public.vector); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._check_query_vector(p_query public.vector) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_dims integer := memory._stored_dimensions();
BEGIN
    PERFORM memory._not_null(p_query, 'p_query', pg_catalog.format('pass a %s-dimensional embedding of the question', v_dims));
    IF public.vector_dims(p_query) <> v_dims THEN
        RAISE EXCEPTION 'p_query has % dimensions, expected %', public.vector_dims(p_query), v_dims
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed the question with the simulation''s model (%s dimensions)', v_dims);
    END IF;
    IF memory._vector_problem(p_query) IS NOT NULL THEN
        RAISE EXCEPTION 'p_query %', memory._vector_problem(p_query)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'a vector needs a direction and a finite length in 4-byte floats; embed a non-empty text';
    END IF;
END
$$;

ALTER FUNCTION memory._check_query_vector(p_query public.vector) OWNER TO memory_owner;

-- FUNCTION _check_query_vector(p_query public.vector); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._check_query_vector(p_query public.vector) IS 'Internal: refuse a NULL, wrong-dimension, zero or overflowing query vector';

-- FUNCTION _check_query_vector(p_query public.vector); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._check_query_vector(p_query public.vector) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._check_query_vector(p_query public.vector) TO memory_reader;

-- _check_quota(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._check_quota(p_tenant_id uuid, p_kind text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM memory.tenant_quotas AS q WHERE q.tenant_id = p_tenant_id AND q.kind = p_kind) THEN
        PERFORM memory._enforce_quota(p_tenant_id, p_kind);
    END IF;
END
$$;

ALTER FUNCTION memory._check_quota(p_tenant_id uuid, p_kind text) OWNER TO memory_owner;

-- FUNCTION _check_quota(p_tenant_id uuid, p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._check_quota(p_tenant_id uuid, p_kind text) IS 'Internal: after a write that inserted rows of a kind, hold the tenant to its cap of the kind when it has one (memory._enforce_quota, 53400)';

-- FUNCTION _check_quota(p_tenant_id uuid, p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._check_quota(p_tenant_id uuid, p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._check_quota(p_tenant_id uuid, p_kind text) TO memory_writer;

-- _clump_breadth(bigint, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_breadth(p_points bigint, p_top_k integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT LEAST(1000, GREATEST(CASE WHEN p_top_k <= 10 AND p_points > 0
                                 THEN LEAST(200, GREATEST(100, p_points / 30))
                                 ELSE 200 END,
                            COALESCE(p_points, 0) / 140))::integer
$$;

ALTER FUNCTION memory._clump_breadth(p_points bigint, p_top_k integer) OWNER TO memory_owner;

-- FUNCTION _clump_breadth(p_points bigint, p_top_k integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_breadth(p_points bigint, p_top_k integer) IS 'Internal: hnsw.ef_search of a search through a clump build''s index, from its number of representatives and the hits asked for';

-- FUNCTION _clump_breadth(p_points bigint, p_top_k integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_breadth(p_points bigint, p_top_k integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_breadth(p_points bigint, p_top_k integer) TO memory_reader;

-- _clump_build(uuid, bigint, text, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_build(p_tenant_id uuid, p_sim_no bigint, p_action text DEFAULT 'clump'::text, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128) RETURNS TABLE(build_no bigint, episodes bigint, points bigint, clumps integer, clumped bigint, indexed boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
#variable_conflict use_column
DECLARE
    v_previous text := pg_catalog.current_setting('memory.tenant_id', true);
    v_sim      uuid;
    v_change   bigint;
    v_build    bigint;
    v_old      bigint[];
    v_sample   public.halfvec[];
    v_leaders  public.halfvec[] := '{}';
    v_cand     record;
    v_episodes bigint;
    v_distinct bigint;
    v_indexed  boolean;
    -- a clump: the episodes within this cosine of its leader
    c_cosine      constant double precision := memory._near_copy();
    c_sample      constant integer := 2000;
    c_dense       constant integer := 4;
    c_max_clumps  constant integer := 256;
    c_copies_share constant double precision := 0.01;
    -- a clump's vectors per row of memory.search_clump_chunks: 9 x 776 bytes, a row in its page
    c_chunk       constant integer := 9;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    IF p_sim_no IS NULL OR p_action IS NULL OR p_m IS NULL OR p_ef_construction IS NULL THEN
        RAISE EXCEPTION 'p_sim_no, p_action, p_m and p_ef_construction must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'take a row of memory._clump_plan(): its tenant, sim_no and action';
    END IF;
    PERFORM memory._one_of('clump action', p_action, '{clump, drop}', 'the action column of memory._clump_plan()');
    SELECT s.simulation_id INTO v_sim FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.sim_no = p_sim_no;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no simulation numbered % in tenant %', p_sim_no, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'take a row of memory._clump_plan()';
    END IF;
    v_old := ARRAY(SELECT b.build_no FROM memory.search_builds AS b
                    WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim);

    IF p_action = 'clump' THEN
        SELECT pg_catalog.max(c.change_id) INTO v_change FROM memory.changes AS c
         WHERE c.tenant_id = p_tenant_id AND c.simulation_id = v_sim;

        -- 1. Leaders, densest first, each the mean of its neighbours in the sample.
        v_sample := ARRAY(SELECT e.embedding::public.halfvec(384) FROM memory.episodes AS e
                           WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
                             AND e.embedding IS NOT NULL
                           ORDER BY e.episode_key LIMIT c_sample);
        FOR v_cand IN
            WITH s AS MATERIALIZED (SELECT u.v, u.i FROM pg_catalog.unnest(v_sample) WITH ORDINALITY AS u(v, i))
            SELECT a.v
              FROM s AS a JOIN s AS b ON b.i <> a.i AND (a.v OPERATOR(public.<=>) b.v) <= 1 - c_cosine
             GROUP BY a.i, a.v
            HAVING pg_catalog.count(*) >= c_dense
             ORDER BY pg_catalog.count(*) DESC, a.i
        LOOP
            EXIT WHEN pg_catalog.cardinality(v_leaders) >= c_max_clumps;
            CONTINUE WHEN EXISTS (SELECT 1 FROM pg_catalog.unnest(v_leaders) AS l(v)
                                   WHERE (l.v OPERATOR(public.<=>) v_cand.v) <= 1 - c_cosine);
            v_leaders := v_leaders || (SELECT public.l2_normalize(public.avg(s.v))
                                         FROM pg_catalog.unnest(v_sample) AS s(v)
                                        WHERE (s.v OPERATOR(public.<=>) v_cand.v) <= 1 - c_cosine);
        END LOOP;

        -- 2. Worth indexing apart: a clump, or copies enough.
        SELECT pg_catalog.count(*), pg_catalog.count(DISTINCT e.embedding) INTO v_episodes, v_distinct
          FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.embedding IS NOT NULL
           AND pg_catalog.cardinality(v_leaders) = 0;
        v_indexed := pg_catalog.cardinality(v_leaders) > 0 OR v_episodes - v_distinct >= c_copies_share * v_episodes;

        INSERT INTO memory.search_builds AS b (tenant_id, simulation_id, sim_no, change_id, episodes, points,
                                               clumps, clumped, indexed, m, ef_construction)
        VALUES (p_tenant_id, v_sim, p_sim_no, v_change, COALESCE(v_episodes, 0), 0,
                pg_catalog.cardinality(v_leaders), 0, v_indexed, p_m, p_ef_construction)
        RETURNING b.build_no INTO v_build;

        -- 3. Each episode to its nearest leader within the cosine; each distinct vector once;
        --    the representatives, the clumps and their vectors, in one pass.
        IF v_indexed THEN
            WITH a AS MATERIALIZED (
                SELECT e.episode_key, e.episode_id, e.agent_id, e.embedding,
                       (SELECT l.i FROM pg_catalog.unnest(v_leaders) WITH ORDINALITY AS l(v, i)
                         WHERE (e.embedding::public.halfvec(384) OPERATOR(public.<=>) l.v) <= 1 - c_cosine
                         ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) l.v, l.i
                         LIMIT 1)::integer AS clump_no
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.embedding IS NOT NULL),
            v AS MATERIALIZED (
                SELECT a.clump_no, a.embedding::public.halfvec(384) AS h,
                       pg_catalog.array_agg(a.episode_key ORDER BY a.episode_id) AS keys,
                       pg_catalog.row_number() OVER (PARTITION BY a.clump_no ORDER BY pg_catalog.min(a.episode_id)) AS n
                  FROM a GROUP BY a.clump_no, a.embedding),
            p AS (
                INSERT INTO memory.search_points (tenant_id, simulation_id, build_no, point_no, embedding, keys)
                SELECT p_tenant_id, v_sim, v_build, v.n, v.h, v.keys FROM v WHERE v.clump_no IS NULL
                RETURNING 1),
            c AS (
                INSERT INTO memory.search_clumps (tenant_id, simulation_id, build_no, clump_no, leader, members,
                                                  vectors, agent_ids)
                SELECT p_tenant_id, v_sim, v_build, a.clump_no, v_leaders[a.clump_no], pg_catalog.count(*),
                       pg_catalog.count(DISTINCT a.embedding),
                       COALESCE(pg_catalog.array_agg(DISTINCT a.agent_id) FILTER (WHERE a.agent_id IS NOT NULL), '{}')
                  FROM a WHERE a.clump_no IS NOT NULL GROUP BY a.clump_no
                RETURNING 1),
            g AS (
                SELECT v.clump_no, (v.n - 1) / c_chunk AS chunk_no, v.n, v.h, v.keys,
                       pg_catalog.sum(pg_catalog.cardinality(v.keys))
                           OVER (PARTITION BY v.clump_no, (v.n - 1) / c_chunk ORDER BY v.n)::integer AS key_end
                  FROM v WHERE v.clump_no IS NOT NULL),
            gk AS (
                SELECT g.clump_no, g.chunk_no, pg_catalog.array_agg(k.key ORDER BY g.n, k.o) AS keys
                  FROM g CROSS JOIN LATERAL pg_catalog.unnest(g.keys) WITH ORDINALITY AS k(key, o)
                 GROUP BY g.clump_no, g.chunk_no),
            ge AS (
                SELECT g.clump_no, g.chunk_no, pg_catalog.array_agg(g.h ORDER BY g.n) AS embeddings,
                       pg_catalog.array_agg(g.key_end ORDER BY g.n) AS key_ends
                  FROM g GROUP BY g.clump_no, g.chunk_no),
            ch AS (
                INSERT INTO memory.search_clump_chunks (tenant_id, simulation_id, build_no, clump_no, chunk_no,
                                                        embeddings, keys, key_ends)
                SELECT p_tenant_id, v_sim, v_build, ge.clump_no, ge.chunk_no, ge.embeddings, gk.keys, ge.key_ends
                  FROM ge JOIN gk ON gk.clump_no = ge.clump_no AND gk.chunk_no = ge.chunk_no
                 ORDER BY ge.clump_no, ge.chunk_no
                RETURNING 1)
            SELECT (SELECT pg_catalog.count(*) FROM a), (SELECT pg_catalog.count(*) FROM p)
              INTO v_episodes, v_distinct;
            EXECUTE pg_catalog.format(
                'CREATE INDEX %I ON memory.search_points USING hnsw (embedding public.halfvec_cosine_ops)'
                ' WITH (m = %s, ef_construction = %s) WHERE build_no = %s',
                memory._clump_index_name(p_sim_no, v_build), p_m, p_ef_construction, v_build);
            UPDATE memory.search_builds AS b
               SET episodes = v_episodes, points = v_distinct,
                   clumped = (SELECT COALESCE(pg_catalog.sum(c.members), 0) FROM memory.search_clumps AS c
                               WHERE c.tenant_id = p_tenant_id AND c.simulation_id = v_sim AND c.build_no = v_build)
             WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim AND b.build_no = v_build;
        END IF;
    END IF;

    -- The old builds go (their rows by the foreign keys). Their indexes stay, empty, for
    -- `swarm-memory index` to drop CONCURRENTLY after the call: a DROP INDEX here would hold
    -- memory.search_points, which every tenant's clump search reads, until the commit.
    DELETE FROM memory.search_builds AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim AND b.build_no = ANY (v_old);
    RETURN QUERY
    SELECT b.build_no, b.episodes, b.points, b.clumps, b.clumped, b.indexed
      FROM memory.search_builds AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim AND b.build_no = v_build;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$$;

ALTER FUNCTION memory._clump_build(p_tenant_id uuid, p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer) OWNER TO memory_owner;

-- FUNCTION _clump_build(p_tenant_id uuid, p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_build(p_tenant_id uuid, p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer) IS 'Internal: find a simulation''s clumps and index its representatives for search_episodes, or drop them (SECURITY DEFINER: only the owner writes them; memory_admin, by swarm-memory index)';

-- FUNCTION _clump_build(p_tenant_id uuid, p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_build(p_tenant_id uuid, p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_build(p_tenant_id uuid, p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer) TO memory_admin;

-- _clump_builds(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_builds(p_tenant_id uuid) RETURNS TABLE(sim_no bigint, build_no bigint, indexed boolean, fresh boolean, index_ok boolean, m integer, ef_construction integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_previous constant text := pg_catalog.current_setting('memory.tenant_id', true);
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    RETURN QUERY
    SELECT s.sim_no, s.build_no, s.indexed, s.fresh, s.index_ok, s.m, s.ef_construction
      FROM (SELECT DISTINCT b.simulation_id FROM memory.search_builds AS b
             WHERE b.tenant_id = p_tenant_id) AS x
     CROSS JOIN LATERAL memory._clump_state(p_tenant_id, x.simulation_id) AS s;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$$;

ALTER FUNCTION memory._clump_builds(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION _clump_builds(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_builds(p_tenant_id uuid) IS 'Internal: the clump builds of one tenant by simulation number, fresh or not, for memory._clump_plan (SECURITY DEFINER: reads across tenants; memory_admin only)';

-- FUNCTION _clump_builds(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_builds(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_builds(p_tenant_id uuid) TO memory_admin;

-- _clump_collapse(uuid, uuid, bigint, memory.episode_hit[], integer[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_collapse(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_hits memory.episode_hit[], p_clumps integer[]) RETURNS TABLE(first_hit integer, copies integer, agents integer)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_n      integer := COALESCE(pg_catalog.cardinality(p_hits), 0);
    v_keys   uuid[];
    v_vecs   public.vector[];
    v_pi     integer[];
    v_pj     integer[];
    v_rep    boolean[];
    v_group  integer[] := '{}';
    v_of     integer[] := '{}';   -- clump number -> its group
    v_groups integer := 0;
    v_c      integer;
    v_p      integer := 1;
    c_collapse_cosine constant double precision := memory._near_copy();
BEGIN
    v_keys := ARRAY(SELECT pg_catalog.md5(h.episode_id)::uuid FROM pg_catalog.unnest(p_hits) AS h);
    SELECT pg_catalog.array_agg(e.embedding ORDER BY pg_catalog.array_position(v_keys, e.episode_key))
      INTO v_vecs
      FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.episode_key = ANY (v_keys);
    SELECT COALESCE(pg_catalog.array_agg(a.i ORDER BY a.i, b.i), '{}'),
           COALESCE(pg_catalog.array_agg(b.i ORDER BY a.i, b.i), '{}')
      INTO v_pi, v_pj
      FROM pg_catalog.unnest(v_vecs) WITH ORDINALITY AS a(v, i)
      JOIN pg_catalog.unnest(v_vecs) WITH ORDINALITY AS b(v, i)
        ON b.i < a.i
       AND (p_hits[b.i]).similarity - (p_hits[a.i]).similarity <= pg_catalog.sqrt(2 * (1 - c_collapse_cosine))
     WHERE 1 - (a.v OPERATOR(public.<=>) b.v) >= c_collapse_cosine;
    v_rep := pg_catalog.array_fill(true, ARRAY[v_n]);
    FOR i IN 1 .. v_n LOOP
        v_c := CASE WHEN p_build_no IS NULL THEN 0 ELSE COALESCE(p_clumps[i], 0) END;
        IF v_c > 0 AND v_of[v_c] IS NOT NULL THEN
            v_rep[i] := false;
            v_group[i] := v_of[v_c];
        END IF;
        -- the pairs (i, j < i), by j: the first j still kept takes i
        WHILE v_p <= pg_catalog.cardinality(v_pi) AND v_pi[v_p] = i LOOP
            IF v_rep[i] AND v_rep[v_pj[v_p]] THEN
                v_rep[i] := false;
                v_group[i] := v_group[v_pj[v_p]];
            END IF;
            v_p := v_p + 1;
        END LOOP;
        IF v_rep[i] THEN
            v_groups := v_groups + 1;
            v_group[i] := v_groups;
        END IF;
        IF v_c > 0 AND v_of[v_c] IS NULL THEN
            v_of[v_c] := v_group[i];
        END IF;
    END LOOP;
    RETURN QUERY
    WITH h AS (
        SELECT i, v_group[i] AS grp, (p_hits[i]).agent_id AS agent,
               CASE WHEN p_build_no IS NULL THEN 0 ELSE COALESCE(p_clumps[i], 0) END AS clump
          FROM pg_catalog.generate_subscripts(p_hits, 1) AS i),
    bound AS (
        SELECT v_of[c.clump_no] AS grp, c.members, c.agent_ids
          FROM memory.search_clumps AS c
         WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id AND c.build_no = p_build_no
           AND c.clump_no IN (SELECT h.clump FROM h WHERE h.clump > 0))
    SELECT pg_catalog.min(h.i)::integer,
           (pg_catalog.count(*) FILTER (WHERE h.clump = 0)
            + COALESCE((SELECT pg_catalog.sum(b.members) FROM bound AS b WHERE b.grp = h.grp), 0))::integer,
           (SELECT pg_catalog.count(DISTINCT u.a)
              FROM (SELECT x.agent FROM h AS x WHERE x.grp = h.grp AND x.clump = 0
                    UNION ALL
                    SELECT pg_catalog.unnest(b.agent_ids) FROM bound AS b WHERE b.grp = h.grp) AS u(a))::integer
      FROM h
     GROUP BY h.grp
     ORDER BY h.grp;
END
$$;

ALTER FUNCTION memory._clump_collapse(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_hits memory.episode_hit[], p_clumps integer[]) OWNER TO memory_owner;

-- FUNCTION _clump_collapse(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_hits memory.episode_hit[], p_clumps integer[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_collapse(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_hits memory.episode_hit[], p_clumps integer[]) IS 'Internal: group a pool of search hits into near-identical rows (a fresh build''s clump one row with all its copies and agents) for search_episodes'' p_collapse';

-- FUNCTION _clump_collapse(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_hits memory.episode_hit[], p_clumps integer[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_collapse(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_hits memory.episode_hit[], p_clumps integer[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_collapse(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_hits memory.episode_hit[], p_clumps integer[]) TO memory_reader;

-- _clump_index_name(bigint, bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_index_name(p_sim_no bigint, p_build_no bigint) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 'search_points_ann_' || p_sim_no::text || '_' || p_build_no::text
$$;

ALTER FUNCTION memory._clump_index_name(p_sim_no bigint, p_build_no bigint) OWNER TO memory_owner;

-- FUNCTION _clump_index_name(p_sim_no bigint, p_build_no bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_index_name(p_sim_no bigint, p_build_no bigint) IS 'Internal: the name of the HNSW index over a clump build''s representatives, from opaque numbers';

-- FUNCTION _clump_index_name(p_sim_no bigint, p_build_no bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_index_name(p_sim_no bigint, p_build_no bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_index_name(p_sim_no bigint, p_build_no bigint) TO memory_reader;
GRANT ALL ON FUNCTION memory._clump_index_name(p_sim_no bigint, p_build_no bigint) TO memory_admin;

-- _clump_plan(integer, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_plan(p_min_rows integer DEFAULT 2000, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128) RETURNS TABLE(tenant_id uuid, sim_no bigint, episodes bigint, action text)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT memory._require_admin();
    WITH wanted AS (SELECT * FROM memory._ann_wanted(p_min_rows)),
    built AS (
        SELECT t.tenant_id, b.*
          FROM memory.tenants AS t
         CROSS JOIN LATERAL memory._clump_builds(t.tenant_id) AS b)
    SELECT w.tenant_id, w.sim_no, w.embedded,
           CASE WHEN b.build_no IS NULL OR NOT b.fresh OR (b.indexed AND NOT b.index_ok)
                     OR (b.indexed AND (b.m, b.ef_construction) IS DISTINCT FROM (p_m, p_ef_construction))
                THEN 'clump' ELSE 'keep' END
      FROM wanted AS w
      LEFT JOIN built AS b ON b.tenant_id = w.tenant_id AND b.sim_no = w.sim_no
    UNION ALL
    SELECT b.tenant_id, b.sim_no, 0::bigint, 'drop'
      FROM built AS b
     WHERE NOT EXISTS (SELECT 1 FROM wanted AS w WHERE w.tenant_id = b.tenant_id AND w.sim_no = b.sim_no)
     ORDER BY 3 DESC, 2;
$$;

ALTER FUNCTION memory._clump_plan(p_min_rows integer, p_m integer, p_ef_construction integer) OWNER TO memory_owner;

-- FUNCTION _clump_plan(p_min_rows integer, p_m integer, p_ef_construction integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_plan(p_min_rows integer, p_m integer, p_ef_construction integer) IS 'Internal: the clump builds swarm-memory index makes, keeps or drops (by tenant and simulation number); memory_admin';

-- FUNCTION _clump_plan(p_min_rows integer, p_m integer, p_ef_construction integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_plan(p_min_rows integer, p_m integer, p_ef_construction integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_plan(p_min_rows integer, p_m integer, p_ef_construction integer) TO memory_admin;

-- _clump_search(uuid, uuid, bigint, bigint, public.vector, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_search(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_points bigint, p_query public.vector, p_top_k integer) RETURNS TABLE(hit memory.episode_hit, hit_clump integer)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET "hnsw.ef_search" TO '400'
    SET "hnsw.iterative_scan" TO 'off'
    SET enable_sort TO 'off'
    AS $_$
DECLARE
    v_half  public.halfvec := p_query::public.halfvec(384);
    -- the candidate episodes: half-precision similarity, key, clump (0: a representative)
    v_sim   double precision[];
    v_key   uuid[];
    v_clump integer[];
    v_kth   double precision;
    v_c     record;
    v_sql   text;
    c_candidates   constant integer := 300;
    c_margin       constant double precision := 0.05;
    c_member_slack constant integer := 40;
    c_window       constant double precision := 0.001;
    c_rerank_slack constant integer := 30;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', memory._clump_breadth(p_points, p_top_k)::text, true);
    v_sql := pg_catalog.format($q$
        SELECT pg_catalog.array_agg(1 - c.d ORDER BY c.d, c.point_no, k.o),
               pg_catalog.array_agg(k.key ORDER BY c.d, c.point_no, k.o)
          FROM (SELECT p.point_no, p.keys, p.embedding OPERATOR(public.<=>) $1 AS d
                  FROM memory.search_points AS p
                 WHERE p.build_no = %s AND p.tenant_id = $2 AND p.simulation_id = $3
                 ORDER BY p.embedding OPERATOR(public.<=>) $1
                 LIMIT $4) AS c
         CROSS JOIN LATERAL pg_catalog.unnest(c.keys[1:$5]) WITH ORDINALITY AS k(key, o) $q$, p_build_no);
    EXECUTE v_sql
      INTO v_sim, v_key
      USING v_half, p_tenant_id, p_simulation_id, GREATEST(c_candidates, p_top_k), p_top_k;
    v_sim := COALESCE(v_sim, '{}');
    v_key := COALESCE(v_key, '{}');
    v_clump := pg_catalog.array_fill(0, ARRAY[pg_catalog.cardinality(v_sim)]);
    v_kth := (SELECT s FROM pg_catalog.unnest(v_sim) AS s ORDER BY s DESC OFFSET p_top_k - 1 LIMIT 1);

    FOR v_c IN
        SELECT c.clump_no, 1 - (c.leader OPERATOR(public.<=>) v_half) AS sim
          FROM memory.search_clumps AS c
         WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id AND c.build_no = p_build_no
         ORDER BY 2 DESC, 1
    LOOP
        EXIT WHEN v_c.sim + c_margin < v_kth;
        SELECT v_sim || pg_catalog.array_agg(m.sim ORDER BY m.sim DESC, m.chunk_no, m.i, k.o),
               v_key || pg_catalog.array_agg(k.key ORDER BY m.sim DESC, m.chunk_no, m.i, k.o),
               v_clump || pg_catalog.array_agg(v_c.clump_no)
          INTO v_sim, v_key, v_clump
          FROM (SELECT ch.chunk_no, u.i, 1 - (u.v OPERATOR(public.<=>) v_half) AS sim
                  FROM memory.search_clump_chunks AS ch
                 CROSS JOIN LATERAL pg_catalog.unnest(ch.embeddings) WITH ORDINALITY AS u(v, i)
                 WHERE ch.tenant_id = p_tenant_id AND ch.simulation_id = p_simulation_id
                   AND ch.build_no = p_build_no AND ch.clump_no = v_c.clump_no
                 ORDER BY u.v OPERATOR(public.<=>) v_half
                 LIMIT p_top_k + c_member_slack) AS m
          JOIN memory.search_clump_chunks AS ch
            ON ch.tenant_id = p_tenant_id AND ch.simulation_id = p_simulation_id
           AND ch.build_no = p_build_no AND ch.clump_no = v_c.clump_no AND ch.chunk_no = m.chunk_no
         CROSS JOIN LATERAL pg_catalog.unnest(
                ch.keys[COALESCE(ch.key_ends[m.i - 1], 0) + 1 : LEAST(ch.key_ends[m.i], COALESCE(ch.key_ends[m.i - 1], 0) + p_top_k)])
                WITH ORDINALITY AS k(key, o);
        v_kth := (SELECT s FROM pg_catalog.unnest(v_sim) AS s ORDER BY s DESC OFFSET p_top_k - 1 LIMIT 1);
    END LOOP;

    RETURN QUERY
    SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
               e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384)))::memory.episode_hit,
           w.clump
      FROM (SELECT c.key, c.clump
              FROM ROWS FROM (pg_catalog.unnest(v_sim), pg_catalog.unnest(v_key), pg_catalog.unnest(v_clump))
                   WITH ORDINALITY AS c(sim, key, clump, o)
             WHERE v_kth IS NULL OR c.sim >= v_kth - c_window
             ORDER BY c.sim DESC, c.o
             LIMIT p_top_k + c_rerank_slack) AS w
      JOIN memory.episodes AS e
        ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id AND e.episode_key = w.key
     WHERE e.embedding IS NOT NULL
     ORDER BY e.embedding OPERATOR(public.<=>) p_query::public.vector(384), e.episode_id
     LIMIT p_top_k;
END
$_$;

ALTER FUNCTION memory._clump_search(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_points bigint, p_query public.vector, p_top_k integer) OWNER TO memory_owner;

-- FUNCTION _clump_search(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_points bigint, p_query public.vector, p_top_k integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_search(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_points bigint, p_query public.vector, p_top_k integer) IS 'Internal: search a simulation through its clump build (representatives by their index, the clumps near the result read whole), ranked exactly';

-- FUNCTION _clump_search(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_points bigint, p_query public.vector, p_top_k integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_search(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_points bigint, p_query public.vector, p_top_k integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_search(p_tenant_id uuid, p_simulation_id uuid, p_build_no bigint, p_points bigint, p_query public.vector, p_top_k integer) TO memory_reader;

-- _clump_state(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._clump_state(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(build_no bigint, sim_no bigint, points bigint, indexed boolean, fresh boolean, index_ok boolean, m integer, ef_construction integer)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT b.build_no, b.sim_no, b.points, b.indexed,
           NOT EXISTS (SELECT 1 FROM memory.changes AS c
                        WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
                          AND c.change_id > COALESCE(b.change_id, 0)
                          AND c.kind IN ('episodes', 'embeddings')),
           b.indexed AND pg_catalog.to_regclass('memory.' || memory._clump_index_name(b.sim_no, b.build_no)) IS NOT NULL,
           b.m, b.ef_construction
      FROM memory.search_builds AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id
     ORDER BY b.build_no DESC
     LIMIT 1
$$;

ALTER FUNCTION memory._clump_state(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION _clump_state(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._clump_state(p_tenant_id uuid, p_simulation_id uuid) IS 'Internal: a simulation''s newest clump build and whether search may use it (fresh: no change of its episodes since; its index present)';

-- FUNCTION _clump_state(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._clump_state(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._clump_state(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;
GRANT ALL ON FUNCTION memory._clump_state(p_tenant_id uuid, p_simulation_id uuid) TO memory_admin;

-- _compact_episodes(uuid, uuid, real, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) RETURNS TABLE(clumps integer, episodes integer, dropped integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_pair     record;
    v_leader   jsonb := '{}'::jsonb;   -- member key -> leader key
    v_members  jsonb := '{}'::jsonb;   -- leader key -> [member ids]
    v_ids      jsonb := '{}'::jsonb;   -- leader key -> [leader id, agent id]
    v_clumps   integer := 0;
    v_episodes integer := 0;
    v_dropped  integer := 0;
    v_all      text[] := '{}';
    v_key      text;
    v_written  bigint;
    v_change   bigint;
BEGIN
    IF NOT (p_similarity > 0.9 AND p_similarity < 1) THEN
        RAISE EXCEPTION 'compaction similarity must be above 0.9 and below 1, not %', p_similarity
            USING ERRCODE = 'invalid_parameter_value', HINT = pg_catalog.format('near duplicates are at %s and above (the default)', memory._near_copy());
    END IF;
    FOR v_pair IN
        SELECT a.episode_key::text AS a_key, a.episode_id AS a_id, b.episode_key::text AS b_key,
               b.episode_id AS b_id, a.agent_id
          FROM memory.episodes AS a
          JOIN memory.episodes AS b
            ON b.tenant_id = a.tenant_id AND b.simulation_id = a.simulation_id AND b.agent_id = a.agent_id
           AND (COALESCE(b.occurred_at, '-infinity'), b.episode_id) > (COALESCE(a.occurred_at, '-infinity'), a.episode_id)
         WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id
           AND b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id
           AND a.embedding IS NOT NULL AND b.embedding IS NOT NULL
           AND (a.embedding OPERATOR(public.<=>) b.embedding) < 1 - p_similarity
         ORDER BY COALESCE(a.occurred_at, '-infinity'), a.episode_id, COALESCE(b.occurred_at, '-infinity'), b.episode_id
    LOOP
        CONTINUE WHEN v_leader ? v_pair.a_key OR v_leader ? v_pair.b_key OR v_members ? v_pair.b_key;
        v_leader := v_leader || pg_catalog.jsonb_build_object(v_pair.b_key, v_pair.a_key);
        v_members := pg_catalog.jsonb_set(v_members, ARRAY[v_pair.a_key],
                                          COALESCE(v_members -> v_pair.a_key, '[]'::jsonb) || pg_catalog.to_jsonb(v_pair.b_id));
        v_ids := v_ids || pg_catalog.jsonb_build_object(v_pair.a_key, pg_catalog.jsonb_build_array(v_pair.a_id, v_pair.agent_id));
    END LOOP;

    FOR v_key IN SELECT k FROM pg_catalog.jsonb_object_keys(v_members) AS k LOOP
        -- the rows written counted by RETURNING: an INSERT ... SELECT's row count on Citus is
        -- the rows selected, whether or not the DO UPDATE below wrote (and Citus refuses the
        -- subqueries below in an INSERT ... VALUES)
        WITH written AS (
            INSERT INTO memory.episode_clumps AS c
                   (tenant_id, simulation_id, representative_key, representative_id, agent_id, members, member_ids,
                    dropped, similarity, compacted_at)
            SELECT p_tenant_id, p_simulation_id, v_key::uuid, v_ids #>> ARRAY[v_key, '0'], (v_ids #>> ARRAY[v_key, '1'])::integer,
                   1 + pg_catalog.cardinality(m.ids), m.ids, p_drop, p_similarity, pg_catalog.now()
              FROM (SELECT ARRAY(SELECT pg_catalog.jsonb_array_elements_text(v_members -> v_key) ORDER BY 1) AS ids) AS m
            ON CONFLICT ON CONSTRAINT episode_clumps_pkey DO UPDATE
               SET member_ids = ARRAY(SELECT DISTINCT u FROM pg_catalog.unnest(c.member_ids || excluded.member_ids) AS u ORDER BY u),
                   members = 1 + pg_catalog.cardinality(ARRAY(SELECT DISTINCT u FROM pg_catalog.unnest(c.member_ids || excluded.member_ids) AS u)),
                   dropped = c.dropped OR excluded.dropped, similarity = excluded.similarity,
                   compacted_at = excluded.compacted_at  -- (Citus refuses now() here)
             -- a clump found again as it was is left alone: a replay writes nothing
             WHERE (c.member_ids, c.dropped, c.similarity) IS DISTINCT FROM
                   (ARRAY(SELECT DISTINCT u FROM pg_catalog.unnest(c.member_ids || excluded.member_ids) AS u ORDER BY u),
                    c.dropped OR excluded.dropped, excluded.similarity)
            RETURNING 1)
        SELECT pg_catalog.count(*) INTO v_written FROM written;
        CONTINUE WHEN v_written = 0;
        v_clumps := v_clumps + 1;
        v_episodes := v_episodes + pg_catalog.jsonb_array_length(v_members -> v_key);
        v_all := v_all || ARRAY(SELECT pg_catalog.jsonb_array_elements_text(v_members -> v_key));
    END LOOP;
    IF p_drop AND v_episodes > 0 THEN
        DELETE FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = ANY (ARRAY(SELECT pg_catalog.md5(i)::uuid FROM pg_catalog.unnest(v_all) AS i));
        GET DIAGNOSTICS v_dropped = ROW_COUNT;
    END IF;
    IF v_clumps > 0 THEN
        -- the members' ids sorted first: memory._record_change is called as a plain expression
        v_all := ARRAY(SELECT i FROM pg_catalog.unnest(v_all) AS i ORDER BY i);
        v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                          p_simulation_id => p_simulation_id, p_kind => 'episodes',
                                          p_op => 'compact', p_ids => v_all,
                                          p_counts => pg_catalog.jsonb_build_object('clumps', v_clumps, 'episodes', v_episodes, 'deleted', v_dropped),
                                          p_attempt_id => NULL,
                                          p_detail => pg_catalog.jsonb_build_object('similarity', p_similarity, 'dropped', p_drop));
    END IF;
    RETURN QUERY SELECT v_clumps, v_episodes, v_dropped;
END
$$;

ALTER FUNCTION memory._compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) OWNER TO memory_owner;

-- FUNCTION _compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) IS 'Internal: compact an agent''s near-duplicate episodes into representatives with their counts (SECURITY DEFINER: writers hold no DELETE)';

-- FUNCTION _compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) FROM PUBLIC;

-- _current_tenant_id(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._current_tenant_id() RETURNS uuid
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT v.tenant_id
      FROM (SELECT NULLIF(pg_catalog.current_setting('memory.tenant_id', true), '')::uuid AS tenant_id) AS v
     WHERE CURRENT_USER = 'memory_owner'
        OR EXISTS (SELECT 1
                     FROM memory.tenant_grants AS g
                    WHERE g.tenant_id = v.tenant_id
                      AND pg_catalog.pg_has_role(CURRENT_USER,
                                                 CASE WHEN g.node_role_oids IS NULL THEN g.role_oid
                                                      ELSE (g.node_role_oids ->> memory._node_group()::text)::oid END,
                                                 'USAGE'))
$$;

ALTER FUNCTION memory._current_tenant_id() OWNER TO memory_owner;

-- FUNCTION _current_tenant_id(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._current_tenant_id() IS 'Internal: tenant of the current call when the caller holds a grant for it (memory_owner: unchecked), else NULL (used by RLS policies)';

-- FUNCTION _current_tenant_id(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._current_tenant_id() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._current_tenant_id() TO memory_reader;
GRANT ALL ON FUNCTION memory._current_tenant_id() TO memory_writer;
GRANT ALL ON FUNCTION memory._current_tenant_id() TO memory_admin;

-- _default_model(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._default_model() RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 'sentence-transformers/all-MiniLM-L6-v2'::text
$$;

ALTER FUNCTION memory._default_model() OWNER TO memory_owner;

-- FUNCTION _default_model(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._default_model() IS 'Internal: the embedding model recorded for a vector that names none';

-- FUNCTION _default_model(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._default_model() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._default_model() TO memory_reader;
GRANT ALL ON FUNCTION memory._default_model() TO memory_writer;
GRANT ALL ON FUNCTION memory._default_model() TO memory_admin;

-- _delete_grant(uuid, oid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._delete_grant(p_tenant_id uuid, p_role_oid oid) RETURNS boolean
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._enter_tenant_as_admin(p_tenant_id);
    SELECT memory._not_null(p_role_oid, 'p_role_oid', 'name the role of the grant by its OID');
    WITH gone AS (DELETE FROM memory.tenant_grants AS g
                   WHERE g.tenant_id = p_tenant_id AND g.role_oid = p_role_oid RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM gone);
$$;

ALTER FUNCTION memory._delete_grant(p_tenant_id uuid, p_role_oid oid) OWNER TO memory_owner;

-- FUNCTION _delete_grant(p_tenant_id uuid, p_role_oid oid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._delete_grant(p_tenant_id uuid, p_role_oid oid) IS 'Internal: delete the grant of a tenant to a role (by OID) for memory.revoke_tenant; memory_admin only (SECURITY DEFINER: admins hold no DELETE)';

-- FUNCTION _delete_grant(p_tenant_id uuid, p_role_oid oid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._delete_grant(p_tenant_id uuid, p_role_oid oid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._delete_grant(p_tenant_id uuid, p_role_oid oid) TO memory_admin;

-- _delete_simulation(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._delete_simulation(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(nodes bigint, edges bigint, episodes bigint, profiles bigint, reports bigint, predictions bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind   memory.record_kind;
    v_count  bigint;
    v_counts jsonb := '{}'::jsonb;
    v_change bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    -- Each kind counted, then the simulation deleted: its rows of every kind go by the
    -- foreign keys' cascade, and so the history trigger keeps no version of them
    -- (memory._record_history keeps none of a simulation that is gone; deleting each kind
    -- first would copy every row into memory.row_history only for the cascade to remove it).
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2',
                                  v_kind.live)
           INTO v_count USING p_tenant_id, p_simulation_id;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind.kind, v_count);
    END LOOP;
    DELETE FROM memory.simulations AS s WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    -- the change feed (V0021)
    v_change := memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                      p_kind => 'simulation', p_op => 'delete', p_ids => NULL,
                                      p_counts => v_counts);
    RETURN QUERY SELECT (v_counts ->> 'nodes')::bigint, (v_counts ->> 'edges')::bigint,
                        (v_counts ->> 'episodes')::bigint, (v_counts ->> 'profiles')::bigint,
                        (v_counts ->> 'reports')::bigint, (v_counts ->> 'predictions')::bigint;
END
$_$;

ALTER FUNCTION memory._delete_simulation(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION _delete_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._delete_simulation(p_tenant_id uuid, p_simulation_id uuid) IS 'Internal: delete a simulation''s rows of every kind, returning the counts (SECURITY DEFINER: writers hold no DELETE)';

-- FUNCTION _delete_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._delete_simulation(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._delete_simulation(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- _discard_staged(uuid, uuid[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind memory.record_kind;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    FOR v_kind IN SELECT * FROM memory._record_kinds() LOOP
        EXECUTE pg_catalog.format('DELETE FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = ANY ($2)',
                                  v_kind.staged)
        USING p_tenant_id, p_attempt_ids;
    END LOOP;
END
$_$;

ALTER FUNCTION memory._discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]) OWNER TO memory_owner;

-- FUNCTION _discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]) IS 'Internal: drop the staged rows of import attempts (SECURITY DEFINER: tenant roles hold no DELETE)';

-- FUNCTION _discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]) TO memory_writer;

-- _edge_detail(memory.edges); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._edge_detail(p_edge memory.edges) RETURNS memory.edge_detail
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT p_edge.edge_id, p_edge.type::text, p_edge.source_id, p_edge.target_id, p_edge.fact,
       p_edge.attributes ->> 'fact_type', p_edge.valid_at, p_edge.invalid_at,
       COALESCE(p_edge.learned_at,
                CASE WHEN pg_catalog.pg_input_is_valid(p_edge.attributes ->> 'created_at', 'timestamptz')
                     THEN (p_edge.attributes ->> 'created_at')::timestamptz END),
       COALESCE(p_edge.expired_at,
                CASE WHEN pg_catalog.pg_input_is_valid(p_edge.attributes ->> 'expired_at', 'timestamptz')
                     THEN (p_edge.attributes ->> 'expired_at')::timestamptz END),
       CASE WHEN pg_catalog.jsonb_typeof(p_edge.attributes -> 'episodes') = 'array'
            THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(p_edge.attributes -> 'episodes')) END,
       p_edge.attributes, p_edge.source
$$;

ALTER FUNCTION memory._edge_detail(p_edge memory.edges) OWNER TO memory_owner;

-- FUNCTION _edge_detail(p_edge memory.edges); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._edge_detail(p_edge memory.edges) IS 'Internal: an edge with every field MiroFish sends, as get_edge and graph_edges return it';

-- FUNCTION _edge_detail(p_edge memory.edges); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._edge_detail(p_edge memory.edges) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._edge_detail(p_edge memory.edges) TO memory_reader;

-- _end_grant(uuid, oid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._end_grant(p_tenant_id uuid, p_role_oid oid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_map jsonb;
BEGIN
    PERFORM memory._require_admin();
    SELECT g.node_role_oids INTO v_map FROM memory.tenant_grants AS g
     WHERE g.tenant_id = p_tenant_id AND g.role_oid = p_role_oid;
    IF NOT FOUND THEN
        RETURN;
    ELSIF v_map IS NULL THEN
        PERFORM memory._delete_grant(p_tenant_id, p_role_oid);
    ELSIF v_map <> '{}'::jsonb THEN
        UPDATE memory.tenant_grants AS g SET node_role_oids = '{}'::jsonb
         WHERE g.tenant_id = p_tenant_id AND g.role_oid = p_role_oid;
    END IF;
END
$$;

ALTER FUNCTION memory._end_grant(p_tenant_id uuid, p_role_oid oid) OWNER TO memory_owner;

-- FUNCTION _end_grant(p_tenant_id uuid, p_role_oid oid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._end_grant(p_tenant_id uuid, p_role_oid oid) IS 'Internal: end a grant of a tenant to a role (by OID): deleted on one node, its map of node OIDs emptied on a Citus cluster; memory_admin only';

-- FUNCTION _end_grant(p_tenant_id uuid, p_role_oid oid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._end_grant(p_tenant_id uuid, p_role_oid oid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._end_grant(p_tenant_id uuid, p_role_oid oid) TO memory_admin;

-- _enforce_quota(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._enforce_quota(p_tenant_id uuid, p_kind text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_max  bigint;
    v_used bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    SELECT q.max_rows INTO v_max FROM memory.tenant_quotas AS q
     WHERE q.tenant_id = p_tenant_id AND q.kind = p_kind
       FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    v_used := memory._quota_used(p_tenant_id, p_kind);
    IF v_used > v_max THEN
        RAISE EXCEPTION 'tenant % would hold % %, over its quota of %', p_tenant_id, v_used, p_kind, v_max
            USING ERRCODE = 'configuration_limit_exceeded',
                  HINT = pg_catalog.format('nothing of the call was written; an administrator raises or clears '
                                           'the tenant''s cap of %s with memory.set_quota()', p_kind);
    END IF;
END
$$;

ALTER FUNCTION memory._enforce_quota(p_tenant_id uuid, p_kind text) OWNER TO memory_owner;

-- FUNCTION _enforce_quota(p_tenant_id uuid, p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._enforce_quota(p_tenant_id uuid, p_kind text) IS 'Internal: refuse (53400) a write that leaves the tenant above its quota of a kind; locks the cap''s row first (SECURITY DEFINER: tenant roles may not lock memory.tenant_quotas)';

-- FUNCTION _enforce_quota(p_tenant_id uuid, p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._enforce_quota(p_tenant_id uuid, p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._enforce_quota(p_tenant_id uuid, p_kind text) TO memory_writer;

-- _enter_page(text, uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text) RETURNS void
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id) WHERE p_after IS NULL;
    SELECT memory._require_row(p_kind, p_tenant_id, p_simulation_id, p_after) WHERE p_after IS NOT NULL;
$$;

ALTER FUNCTION memory._enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text) OWNER TO memory_owner;

-- FUNCTION _enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text) IS 'Internal: enter a simulation for a page of its nodes or edges after p_after (P0002 when unknown)';

-- FUNCTION _enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text) TO memory_reader;

-- _enter_simulation(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._enter_simulation(p_tenant_id uuid, p_simulation_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_simulation_id, 'p_simulation_id', 'pass the simulation''s uuid');
END
$$;

ALTER FUNCTION memory._enter_simulation(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION _enter_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._enter_simulation(p_tenant_id uuid, p_simulation_id uuid) IS 'Internal: enter the tenant and refuse a NULL simulation id (22004)';

-- FUNCTION _enter_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._enter_simulation(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._enter_simulation(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;
GRANT ALL ON FUNCTION memory._enter_simulation(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- _enter_tenant(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._enter_tenant(p_tenant_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant the call acts for');
    PERFORM memory._set_tenant(p_tenant_id);
    IF NOT memory._holds_grant(p_tenant_id) THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %',
                        memory._acting_role(), p_tenant_id
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'an administrator grants it with memory.grant_tenant(role, tenant); the grant counts for roles with the granted role''s privileges (INHERIT)';
    END IF;
END
$$;

ALTER FUNCTION memory._enter_tenant(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION _enter_tenant(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._enter_tenant(p_tenant_id uuid) IS 'Internal: check the caller''s grant for a tenant (42501) and make it the tenant of the transaction';

-- FUNCTION _enter_tenant(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._enter_tenant(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._enter_tenant(p_tenant_id uuid) TO memory_reader;
GRANT ALL ON FUNCTION memory._enter_tenant(p_tenant_id uuid) TO memory_writer;
GRANT ALL ON FUNCTION memory._enter_tenant(p_tenant_id uuid) TO memory_admin;

-- _enter_tenant_as_admin(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._enter_tenant_as_admin(p_tenant_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant to act on');
    PERFORM memory._set_tenant(p_tenant_id);
END
$$;

ALTER FUNCTION memory._enter_tenant_as_admin(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION _enter_tenant_as_admin(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._enter_tenant_as_admin(p_tenant_id uuid) IS 'Internal: check the caller (memory._acting_role()) is an administrator (42501) and make a tenant the tenant of the transaction';

-- FUNCTION _enter_tenant_as_admin(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._enter_tenant_as_admin(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._enter_tenant_as_admin(p_tenant_id uuid) TO memory_admin;

-- _enter_vector_cache(uuid, text, bytea[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_embedding_model IS NULL OR p_hashes IS NULL THEN
        RAISE EXCEPTION '% must not be NULL', CASE WHEN p_hashes IS NULL THEN 'p_hashes' ELSE 'p_embedding_model' END
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'pass the model that made the vectors and an array of content hashes (''{}'' for none)';
    END IF;
    IF p_embedding_model = '' OR pg_catalog.char_length(p_embedding_model) > memory._label_max() THEN
        RAISE EXCEPTION 'p_embedding_model % is empty or longer than % characters',
                        memory._quote(pg_catalog.quote_literal(p_embedding_model)), memory._label_max()
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the model''s name, e.g. all-MiniLM-L6-v2';
    END IF;
    PERFORM memory._check_limit('cache_hashes', 'p_hashes', pg_catalog.cardinality(p_hashes));
END
$$;

ALTER FUNCTION memory._enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) OWNER TO memory_owner;

-- FUNCTION _enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) IS 'Internal: enter the tenant and check the model name and the hash array of a vector-cache call';

-- FUNCTION _enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) TO memory_writer;

-- _entities_ann_index_name(bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._entities_ann_index_name(p_sim_no bigint) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 'entities_ann_' || p_sim_no::text
$$;

ALTER FUNCTION memory._entities_ann_index_name(p_sim_no bigint) OWNER TO memory_owner;

-- FUNCTION _entities_ann_index_name(p_sim_no bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._entities_ann_index_name(p_sim_no bigint) IS 'Internal: the name of a simulation''s partial HNSW index over its entities'' name vectors (with _summary: over their summary vectors), from its opaque number';

-- FUNCTION _entities_ann_index_name(p_sim_no bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._entities_ann_index_name(p_sim_no bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._entities_ann_index_name(p_sim_no bigint) TO memory_reader;
GRANT ALL ON FUNCTION memory._entities_ann_index_name(p_sim_no bigint) TO memory_admin;

-- _entity_names(text, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._entity_names(p_name text, p_attributes jsonb) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT DISTINCT pg_catalog.btrim(v.label)
      FROM (SELECT p_name
            UNION ALL
            SELECT a.alias
              FROM pg_catalog.jsonb_array_elements_text(
                       CASE pg_catalog.jsonb_typeof(p_attributes -> 'aliases')
                            WHEN 'array' THEN p_attributes -> 'aliases' ELSE '[]'::jsonb END) AS a (alias)
            UNION ALL
            SELECT p_attributes ->> 'alias' WHERE pg_catalog.jsonb_typeof(p_attributes -> 'alias') = 'string') AS v (label)
     WHERE pg_catalog.char_length(pg_catalog.btrim(v.label)) >= 2
$$;

ALTER FUNCTION memory._entity_names(p_name text, p_attributes jsonb) OWNER TO memory_owner;

-- FUNCTION _entity_names(p_name text, p_attributes jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._entity_names(p_name text, p_attributes jsonb) IS 'Internal: an entity''s name and aliases (attributes aliases / alias), trimmed, at least two characters';

-- FUNCTION _entity_names(p_name text, p_attributes jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._entity_names(p_name text, p_attributes jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._entity_names(p_name text, p_attributes jsonb) TO memory_reader;

-- _episodes_breadth(real, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT LEAST(memory._ann_breadth(p_index_rows),
             CASE WHEN p_top_k > 10 THEN 400 END,
             CASE WHEN p_pool IS NOT NULL THEN GREATEST(2 * p_pool, 200) END,
             CASE WHEN p_pool IS NULL AND p_top_k <= 10 AND p_index_rows > 0
                  THEN GREATEST(120, p_index_rows / 100)::integer END)
$$;

ALTER FUNCTION memory._episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer) OWNER TO memory_owner;

-- FUNCTION _episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer) IS 'Internal: hnsw.ef_search of a search through a simulation''s own episodes index, from its size, the hits asked for and the caller''s pool';

-- FUNCTION _episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer) TO memory_reader;

-- _fact_state(timestamp with time zone, timestamp with time zone, timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._fact_state(p_valid_at timestamp with time zone, p_invalid_at timestamp with time zone, p_expired_at timestamp with time zone, p_as_of timestamp with time zone) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT CASE WHEN p_valid_at > p_as_of THEN 'future'
                WHEN p_invalid_at <= p_as_of THEN 'ended'
                WHEN p_expired_at <= p_as_of THEN 'expired'
                ELSE 'current' END
$$;

ALTER FUNCTION memory._fact_state(p_valid_at timestamp with time zone, p_invalid_at timestamp with time zone, p_expired_at timestamp with time zone, p_as_of timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _fact_state(p_valid_at timestamp with time zone, p_invalid_at timestamp with time zone, p_expired_at timestamp with time zone, p_as_of timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._fact_state(p_valid_at timestamp with time zone, p_invalid_at timestamp with time zone, p_expired_at timestamp with time zone, p_as_of timestamp with time zone) IS 'Internal: current, ended, expired or future: the state of a fact at a world time';

-- FUNCTION _fact_state(p_valid_at timestamp with time zone, p_invalid_at timestamp with time zone, p_expired_at timestamp with time zone, p_as_of timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._fact_state(p_valid_at timestamp with time zone, p_invalid_at timestamp with time zone, p_expired_at timestamp with time zone, p_as_of timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._fact_state(p_valid_at timestamp with time zone, p_invalid_at timestamp with time zone, p_expired_at timestamp with time zone, p_as_of timestamp with time zone) TO memory_reader;

-- _facts_ann_index_name(bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._facts_ann_index_name(p_sim_no bigint) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 'facts_ann_' || p_sim_no::text
$$;

ALTER FUNCTION memory._facts_ann_index_name(p_sim_no bigint) OWNER TO memory_owner;

-- FUNCTION _facts_ann_index_name(p_sim_no bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._facts_ann_index_name(p_sim_no bigint) IS 'Internal: the name of a simulation''s partial HNSW index over its facts, from its opaque number';

-- FUNCTION _facts_ann_index_name(p_sim_no bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._facts_ann_index_name(p_sim_no bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._facts_ann_index_name(p_sim_no bigint) TO memory_reader;
GRANT ALL ON FUNCTION memory._facts_ann_index_name(p_sim_no bigint) TO memory_admin;

-- _fail_dead_attempts(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_loading record;
    v_now     timestamptz := pg_catalog.clock_timestamp();
    v_dead    uuid[];
BEGIN
    FOR v_loading IN
        SELECT a.attempt_id, a.lock_key, a.backend_pid, a.backend_start
          FROM memory.import_attempts AS a
         WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id AND a.state = 'loading'
    LOOP
        IF NOT memory._attempt_alive(v_loading.lock_key, v_loading.backend_pid, v_loading.backend_start) THEN
            v_dead := pg_catalog.array_append(v_dead, v_loading.attempt_id);
        END IF;
    END LOOP;
    IF v_dead IS NOT NULL THEN
        UPDATE memory.import_attempts AS a
           SET state = 'failed',
               error = 'the loading session ended before commit (importer killed, connection lost or server restarted)',
               finished_at = v_now
         WHERE a.tenant_id = p_tenant_id AND a.attempt_id = ANY (v_dead) AND a.state = 'loading';
        PERFORM memory._discard_staged(s.tenant_id, v_dead) FROM memory.simulations AS s
          WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    END IF;
    RETURN COALESCE(pg_catalog.cardinality(v_dead), 0);
END
$$;

ALTER FUNCTION memory._fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION _fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid) IS 'Internal: fail the loading attempts of a simulation whose session has ended, dropping their staged rows';

-- FUNCTION _fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- _field_problem(jsonb, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._field_problem(p_value jsonb, p_kind text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
    SELECT CASE
        WHEN p_value IS NULL OR pg_catalog.jsonb_typeof(p_value) = 'null' THEN
            CASE WHEN p_kind IN ('id', 'text!', 'label!', 'int!') THEN 'is missing' END
        WHEN p_kind IN ('id', 'text!', 'text', 'label!', 'label')
                AND pg_catalog.jsonb_typeof(p_value) <> 'string' THEN
            'must be a string, not ' || pg_catalog.jsonb_typeof(p_value)
        WHEN p_kind IN ('label!', 'label') AND pg_catalog.length(p_value #>> '{}') > memory._label_max() THEN
            pg_catalog.format('must be at most %s characters, not %s', memory._label_max(),
                              pg_catalog.length(p_value #>> '{}'))
        WHEN p_kind = 'id' AND (p_value #>> '{}') = '' THEN
            'must not be empty'
        WHEN p_kind IN ('int', 'int!') AND (pg_catalog.jsonb_typeof(p_value) <> 'number'
                OR NOT pg_catalog.pg_input_is_valid(p_value #>> '{}', 'integer')) THEN
            'must be an integer, not ' || pg_catalog.left(p_value::text, 40)
        WHEN p_kind = 'fraction' AND CASE WHEN pg_catalog.jsonb_typeof(p_value) <> 'number' THEN true
                                          ELSE (p_value #>> '{}')::numeric NOT BETWEEN 0 AND 1 END THEN
            'must be a number from 0 to 1, not ' || pg_catalog.left(p_value::text, 40)
        WHEN p_kind = 'object' AND pg_catalog.jsonb_typeof(p_value) <> 'object' THEN
            'must be an object, not ' || pg_catalog.jsonb_typeof(p_value)
        WHEN p_kind = 'text[]' AND (pg_catalog.jsonb_typeof(p_value) <> 'array'
                OR pg_catalog.jsonb_path_exists(p_value, '$[*] ? (@.type() != "string")')) THEN
            'must be an array of strings'
        WHEN p_kind = 'timestamp' AND (pg_catalog.jsonb_typeof(p_value) <> 'string'
                OR NOT pg_catalog.pg_input_is_valid(p_value #>> '{}', 'timestamptz')
                OR (p_value #>> '{}') OPERATOR(pg_catalog.~*) '\m(now|today|tomorrow|yesterday)\M') THEN
            'must be an ISO 8601 timestamp, not ' || pg_catalog.left(p_value::text, 40)
        WHEN p_kind = 'vector' AND pg_catalog.jsonb_typeof(p_value) <> 'array' THEN
            'must be an array of 384 numbers, not ' || pg_catalog.jsonb_typeof(p_value)
        WHEN p_kind = 'vector' AND pg_catalog.jsonb_array_length(p_value) <> 384 THEN
            pg_catalog.format('must have 384 dimensions, not %s', pg_catalog.jsonb_array_length(p_value))
        -- one pass over the elements for a good vector, a second one to name a bad one's problem
        WHEN p_kind = 'vector' AND pg_catalog.jsonb_path_exists(p_value,
                '$[*] ? (@.type() != "number" || @ > 3.4028234663852886e38 || @ < -3.4028234663852886e38)') THEN
            CASE WHEN pg_catalog.jsonb_path_exists(p_value, '$[*] ? (@.type() != "number")')
                 THEN 'must hold only numbers'
                 ELSE 'must hold numbers within the range of real (4-byte float)' END
        WHEN p_kind = 'vector' THEN
            memory._vector_problem((p_value #>> '{}')::public.vector)
    END
$_$;

ALTER FUNCTION memory._field_problem(p_value jsonb, p_kind text) OWNER TO memory_owner;

-- FUNCTION _field_problem(p_value jsonb, p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._field_problem(p_value jsonb, p_kind text) IS 'Internal: the problem with one field of a batch item for a kind (id, text!, text, int, vector...), or NULL';

-- FUNCTION _field_problem(p_value jsonb, p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._field_problem(p_value jsonb, p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._field_problem(p_value jsonb, p_kind text) TO memory_writer;

-- _function_fingerprints(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._function_fingerprints() RETURNS TABLE(signature text, security text, owner text, config text, acl text, body_md5 text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT p.oid::pg_catalog.regprocedure::text AS signature,
           CASE WHEN p.prosecdef THEN 'definer' ELSE 'invoker' END AS security,
           pg_catalog.pg_get_userbyid(p.proowner)::text AS owner,
           pg_catalog.array_to_string(ARRAY(
               SELECT c FROM pg_catalog.unnest(p.proconfig) AS c
                WHERE c NOT LIKE 'plan\_cache\_mode=%' ORDER BY c), ', ') AS config,
           CASE WHEN p.proacl IS NULL THEN 'PUBLIC=EXECUTE (default)'
                ELSE pg_catalog.array_to_string(ARRAY(
                    SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC'
                                ELSE pg_catalog.pg_get_userbyid(a.grantee)::text END || '=' || a.privilege_type
                      FROM pg_catalog.aclexplode(p.proacl) AS a
                     WHERE a.grantee OPERATOR(pg_catalog.<>) p.proowner ORDER BY 1), ', ') END AS acl,
           pg_catalog.md5(pg_catalog.concat_ws(E'\n', l.lanname, p.prokind, p.provolatile, p.proisstrict,
                                               p.proleakproof, p.proparallel,
                                               pg_catalog.pg_get_function_arguments(p.oid),
                                               pg_catalog.pg_get_function_result(p.oid),
                                               p.prosrc, p.prosqlbody::text)) AS body_md5
      FROM pg_catalog.pg_proc AS p
      JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
      JOIN pg_catalog.pg_language AS l ON l.oid = p.prolang
     WHERE n.nspname = 'memory'
$$;

ALTER FUNCTION memory._function_fingerprints() OWNER TO memory_owner;

-- FUNCTION _function_fingerprints(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._function_fingerprints() IS 'Internal: every function of schema memory with its security, owner, configuration, privileges and the md5 of its definition';

-- FUNCTION _function_fingerprints(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._function_fingerprints() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._function_fingerprints() TO memory_admin;

-- _group_roles(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._group_roles() RETURNS name[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT ARRAY['memory_owner', 'memory_reader', 'memory_writer', 'memory_admin']::name[]
$$;

ALTER FUNCTION memory._group_roles() OWNER TO memory_owner;

-- FUNCTION _group_roles(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._group_roles() IS 'Internal: the shared group roles of the migrations (never granted a tenant; the only holders of table privileges)';

-- FUNCTION _group_roles(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._group_roles() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._group_roles() TO memory_admin;

-- _health_tenant(uuid, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._health_tenant(p_tenant_id uuid, p_sample integer) RETURNS TABLE(section text, tenant_id uuid, simulation_id uuid, agent_id integer, metric text, value double precision, ok boolean, detail jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind    memory.record_kind;
    v_sim     record;
    v_rows    jsonb;
    v_bytes   jsonb;
    v_n       bigint;
    v_b       bigint;
    v_t_rows  bigint := 0;
    v_t_bytes bigint := 0;
    v_index   record;
    v_q       public.vector;
    v_hits    double precision;
    v_total   double precision;
    v_asked   integer;
    -- the embedded rows of a kind from which a simulation's index is due: the default
    -- p_min_rows of memory.ann_plan, ann_plan_facts and ann_plan_entities
    c_min_rows constant integer := 2000;
    v_kinds   record;
    v_ix      record;
    v_state   text;
    v_bridge  name;
    v_ann_rows real;
    -- on a Citus cluster facts and entities are searched exactly by design (ann_plan_facts
    -- and ann_plan_entities refuse there): their state is 'exact' whatever their number
    v_cluster boolean := memory._on_cluster();
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass a tenant id');
    PERFORM memory._check_limit('health_sample', 'p_sample', p_sample);
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    IF NOT (memory._holds_grant(p_tenant_id) OR pg_catalog.pg_has_role(memory._acting_role(), 'memory_admin', 'USAGE')) THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %', memory._acting_role(), p_tenant_id
            USING ERRCODE = 'insufficient_privilege', HINT = 'an administrator grants it with memory.grant_tenant(role, tenant)';
    END IF;
    tenant_id := p_tenant_id;
    FOR v_sim IN SELECT s.simulation_id, s.sim_no FROM memory.simulations AS s
                  WHERE s.tenant_id = p_tenant_id ORDER BY s.simulation_id LOOP
        simulation_id := v_sim.simulation_id;
        agent_id := NULL;
        v_rows := '{}'::jsonb;
        v_bytes := '{}'::jsonb;
        FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
            EXECUTE pg_catalog.format('SELECT pg_catalog.count(*), COALESCE(pg_catalog.sum(pg_catalog.pg_column_size(l.*)), 0)'
                                      ' FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2', v_kind.live)
               INTO v_n, v_b USING p_tenant_id, v_sim.simulation_id;
            v_rows := v_rows || pg_catalog.jsonb_build_object(v_kind.kind, v_n);
            v_bytes := v_bytes || pg_catalog.jsonb_build_object(v_kind.kind, v_b);
        END LOOP;
        SELECT pg_catalog.sum(r.value::bigint) INTO v_n FROM pg_catalog.jsonb_each_text(v_rows) AS r;
        SELECT pg_catalog.sum(r.value::bigint) INTO v_b FROM pg_catalog.jsonb_each_text(v_bytes) AS r;
        v_t_rows := v_t_rows + v_n;
        v_t_bytes := v_t_bytes + v_b;
        section := 'size'; ok := NULL;
        metric := 'rows'; value := v_n; detail := v_rows; RETURN NEXT;
        metric := 'bytes'; value := v_b; detail := v_bytes; RETURN NEXT;
        FOR v_index IN
            SELECT e.agent_id AS agent, pg_catalog.count(*) AS n, pg_catalog.sum(pg_catalog.pg_column_size(e.*)) AS b
              FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim.simulation_id
             GROUP BY e.agent_id ORDER BY e.agent_id
        LOOP
            agent_id := v_index.agent; detail := '{}'::jsonb;
            metric := 'episode_rows'; value := v_index.n; RETURN NEXT;
            metric := 'episode_bytes'; value := v_index.b; RETURN NEXT;
        END LOOP;
        agent_id := NULL;

        -- The simulation's search indexes, one row a kind: its episodes' index, its facts'
        -- and its entities' pair (the name vectors' index and that name with _summary),
        -- each against the embedded rows of its kind (the entities': those with a name vector).
        SELECT (SELECT pg_catalog.count(*) FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim.simulation_id AND e.embedding IS NOT NULL) AS episodes,
               (SELECT pg_catalog.count(*) FROM memory.edges AS f
                 WHERE f.tenant_id = p_tenant_id AND f.simulation_id = v_sim.simulation_id AND f.embedding IS NOT NULL) AS facts,
               (SELECT pg_catalog.count(*) FROM memory.nodes AS n
                 WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim.simulation_id AND n.embedding IS NOT NULL) AS entities
          INTO v_kinds;
        section := 'index'; v_ann_rows := NULL;
        FOR v_ix IN
            SELECT k.metric, k.counted, k.embedded, k.names
              FROM (VALUES (1, 'ann_index', 'embedded_episodes', v_kinds.episodes,
                            ARRAY[memory._ann_index_name(v_sim.sim_no)]),
                           (2, 'facts_ann_index', 'embedded_facts', v_kinds.facts,
                            ARRAY[memory._facts_ann_index_name(v_sim.sim_no)]),
                           (3, 'entities_ann_index', 'embedded_entities', v_kinds.entities,
                            ARRAY[memory._entities_ann_index_name(v_sim.sim_no),
                                  memory._entities_ann_index_name(v_sim.sim_no) || '_summary'])
                   ) AS k(ord, metric, counted, embedded, names)
             ORDER BY k.ord
        LOOP
            -- the index, or the pair's halves, that exist: how many, whether all are valid,
            -- their size, and the rows of the first (the name vectors' index of the pair) as
            -- the catalog holds them
            SELECT pg_catalog.count(c.oid) AS parts, COALESCE(pg_catalog.bool_and(i.indisvalid), true) AS valid,
                   pg_catalog.sum(pg_catalog.pg_relation_size(c.oid))::bigint AS bytes,
                   pg_catalog.max(c.reltuples) FILTER (WHERE x.n = 1) AS reltuples,
                   pg_catalog.max(x.name) FILTER (WHERE x.n = 1) AS index_name,
                   pg_catalog.max(x.name) FILTER (WHERE x.n = 2) AS summary_name
              INTO v_index
              FROM pg_catalog.unnest(v_ix.names) WITH ORDINALITY AS x(name, n)
              JOIN pg_catalog.pg_class AS c ON c.oid = pg_catalog.to_regclass('memory.' || x.name)
              JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid;
            v_state := CASE WHEN NOT v_index.valid THEN 'invalid'
                            WHEN v_index.parts = pg_catalog.cardinality(v_ix.names) THEN 'indexed'
                            WHEN v_ix.embedded < c_min_rows OR (v_cluster AND v_ix.metric <> 'ann_index') THEN 'exact'
                            ELSE 'missing' END;
            metric := v_ix.metric;
            value := COALESCE(v_index.reltuples, 0);
            ok := v_state IN ('indexed', 'exact');
            -- the episodes' bridge (an IVFFlat index search_episodes answers through while the
            -- HNSW index is missing or invalid: a concurrent build running, or interrupted),
            -- named when it exists and is valid; the state stays the HNSW index's own
            v_bridge := NULL;
            IF v_ix.metric = 'ann_index' AND v_state IN ('invalid', 'missing') THEN
                SELECT c.relname INTO v_bridge
                  FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid
                 WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._ann_ivf_index_name(v_sim.sim_no))
                   AND i.indisvalid;
            END IF;
            detail := pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                          'state', v_state, v_ix.counted, v_ix.embedded, 'bytes', v_index.bytes,
                          'index', v_index.index_name, 'summary_index', v_index.summary_name,
                          'bridge', v_bridge));
            RETURN NEXT;
            IF v_ix.metric = 'ann_index' AND v_state = 'indexed' THEN
                v_ann_rows := v_index.reltuples;
            END IF;
        END LOOP;

        -- Sampled recall of the approximate search against the exact one.
        IF v_ann_rows IS NOT NULL AND COALESCE(p_sample, 0) > 0 THEN
            v_hits := 0; v_total := 0; v_asked := 0;
            FOR v_q IN
                SELECT a.embedding OPERATOR(public.+) b.embedding
                  FROM (SELECT r.embedding, pg_catalog.row_number() OVER () AS n
                          FROM (SELECT e.embedding FROM memory.episodes AS e
                                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim.simulation_id
                                   AND e.embedding IS NOT NULL
                                 ORDER BY pg_catalog.random() LIMIT p_sample) AS r) AS a
                  JOIN (SELECT r.embedding, pg_catalog.row_number() OVER () AS n
                          FROM (SELECT e.embedding FROM memory.episodes AS e
                                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim.simulation_id
                                   AND e.embedding IS NOT NULL
                                 ORDER BY pg_catalog.random() LIMIT p_sample) AS r) AS b ON b.n = a.n
                 LIMIT p_sample
            LOOP
                v_asked := v_asked + 1;
                SELECT v_hits + pg_catalog.count(*) FILTER (WHERE x.episode_id IS NOT NULL),
                       v_total + pg_catalog.count(*)
                  INTO v_hits, v_total
                  FROM (SELECT e.episode_id FROM memory.episodes AS e
                         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim.simulation_id
                           AND e.embedding IS NOT NULL
                         ORDER BY e.embedding OPERATOR(public.<=>) v_q, e.episode_id LIMIT 10) AS t
                  LEFT JOIN (SELECT h.episode_id
                               FROM memory._search_episodes_ann(
                                   p_tenant_id => p_tenant_id,
                                   p_simulation_id => v_sim.simulation_id, p_sim_no => v_sim.sim_no,
                                   p_query => v_q, p_top_k => 10, p_agent_id => NULL,
                                   p_index_rows => v_ann_rows, p_round_from => NULL,
                                   p_round_to => NULL, p_from => NULL, p_to => NULL,
                                   p_pool => NULL) AS h) AS x
                         ON x.episode_id = t.episode_id;
            END LOOP;
            section := 'recall'; metric := 'recall_at_10';
            value := CASE WHEN v_total > 0 THEN v_hits / v_total END;
            ok := value IS NULL OR value >= 0.95;
            detail := pg_catalog.jsonb_build_object('queries', p_sample, 'sampled', v_asked, 'alert_below', 0.95);
            RETURN NEXT;
        END IF;
    END LOOP;

    simulation_id := NULL; agent_id := NULL; ok := NULL;
    SELECT pg_catalog.count(*), COALESCE(pg_catalog.sum(pg_catalog.pg_column_size(c.*)), 0) INTO v_n, v_b
      FROM memory.vector_cache AS c WHERE c.tenant_id = p_tenant_id;
    section := 'size'; metric := 'rows'; value := v_t_rows + v_n;
    detail := pg_catalog.jsonb_build_object('simulations', v_t_rows, 'vector_cache', v_n); RETURN NEXT;
    metric := 'bytes'; value := v_t_bytes + v_b;
    detail := pg_catalog.jsonb_build_object('simulations', v_t_bytes, 'vector_cache', v_b); RETURN NEXT;
    section := 'feed'; metric := 'changes';
    SELECT h.changes, pg_catalog.jsonb_build_object('last_change_at', h.last_change_at) INTO value, detail
      FROM memory.change_heads AS h WHERE h.tenant_id = p_tenant_id;
    value := COALESCE(value, 0); detail := COALESCE(detail, '{}'::jsonb);
    RETURN NEXT;
END
$_$;

ALTER FUNCTION memory._health_tenant(p_tenant_id uuid, p_sample integer) OWNER TO memory_owner;

-- FUNCTION _health_tenant(p_tenant_id uuid, p_sample integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._health_tenant(p_tenant_id uuid, p_sample integer) IS 'Internal: a tenant''s sizes, search indexes (episodes'', facts'' and entities'' per simulation), sampled recall of the episodes'' index and feed head (SECURITY DEFINER: administrators hold no tenant grant)';

-- FUNCTION _health_tenant(p_tenant_id uuid, p_sample integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._health_tenant(p_tenant_id uuid, p_sample integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._health_tenant(p_tenant_id uuid, p_sample integer) TO memory_reader;
GRANT ALL ON FUNCTION memory._health_tenant(p_tenant_id uuid, p_sample integer) TO memory_admin;

-- _holds_grant(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._holds_grant(p_tenant_id uuid) RETURNS boolean
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF EXISTS (
        SELECT 1
          FROM memory.tenant_grants AS g
         WHERE g.tenant_id = p_tenant_id
           AND pg_catalog.pg_has_role(memory._acting_role(),
                                      CASE WHEN g.node_role_oids IS NULL THEN g.role_oid
                                           ELSE (g.node_role_oids ->> memory._node_group()::text)::oid END,
                                      'USAGE')) THEN
        RETURN true;
    END IF;
    -- a superuser acts for every tenant, granted or not: it bypasses row-level security and
    -- could grant itself anyway, so refusing it (a tenant it has just created, before any
    -- grant) would only stand in the way of the embedded server's default login. Asked
    -- second, in a statement of its own (see above on pg_roles and Citus).
    RETURN COALESCE((SELECT r.rolsuper FROM pg_catalog.pg_roles AS r WHERE r.rolname = memory._acting_role()), false);
END
$$;

ALTER FUNCTION memory._holds_grant(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION _holds_grant(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._holds_grant(p_tenant_id uuid) IS 'Internal: whether the caller (memory._acting_role()) has the privileges of a role granted the tenant';

-- FUNCTION _holds_grant(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._holds_grant(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._holds_grant(p_tenant_id uuid) TO memory_reader;
GRANT ALL ON FUNCTION memory._holds_grant(p_tenant_id uuid) TO memory_writer;
GRANT ALL ON FUNCTION memory._holds_grant(p_tenant_id uuid) TO memory_admin;

-- _index_words(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._index_words() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind "char";
    v_key  text;
    v_text text;
    v_more text;
    -- a transition table's rows as (tenant_id, simulation_id, key, body, more)
    v_rows constant text := 'SELECT r.tenant_id, r.simulation_id, r.%1$I AS key, r.%2$I AS body, %3$s AS more FROM %4$I AS r'
                            ' WHERE r.tenant_id = $2';
    -- a row's postings (n: the row as v_rows gives it; $1 the kind)
    v_postings constant text :=
        'SELECT u.lexeme AS word, $1 AS kind, LEAST(COALESCE(pg_catalog.cardinality(u.positions), 1), 32767)::smallint AS tf,
                (CASE WHEN ''A'' = ANY (u.weights) THEN ''A'' ELSE ''B'' END)::"char" AS weight,
                LEAST(pg_catalog.length(d.doc), 32767)::smallint AS doc_len
           FROM (SELECT memory._words_doc(n.body, n.more) AS doc OFFSET 0) AS d CROSS JOIN LATERAL pg_catalog.unnest(d.doc) AS u
          WHERE n.body IS NOT NULL
         UNION ALL
         SELECT g.trigram, ''t''::"char", 1::smallint, ''A''::"char", LEAST(pg_catalog.cardinality(t.grams), 32767)::smallint
           FROM (SELECT memory._name_trigrams(n.body) AS grams WHERE $1 = ''n'' OFFSET 0) AS t
          CROSS JOIN LATERAL pg_catalog.unnest(t.grams) AS g (trigram)';
    -- on a shard: a transition table's rows as read into jsonb ($3)
    c_from_jsonb constant text := 'SELECT r.* FROM pg_catalog.jsonb_to_recordset($3)'
                                  ' AS r (tenant_id uuid, simulation_id uuid, key uuid, body text, more text)';
    v_old    text;
    v_new    text;
    v_tenant uuid;
    v_shard  boolean := TG_TABLE_NAME OPERATOR(pg_catalog.<>) TG_ARGV[0];
    v_old_rows jsonb;
    v_new_rows jsonb;
    v_call   text := pg_catalog.current_setting('memory.tenant_id', true);
BEGIN
    -- nothing to do for a statement that wrote no row (an upsert's INSERT trigger when every
    -- row conflicted, an unchanged replay's UPDATE): no dynamic statement planned
    IF TG_OP = 'DELETE' THEN
        IF NOT EXISTS (SELECT 1 FROM old_rows) THEN
            RETURN NULL;
        END IF;
    ELSIF NOT EXISTS (SELECT 1 FROM new_rows) THEN
        RETURN NULL;
    END IF;
    SELECT m.kind, m.key, m.body, m.more INTO v_kind, v_key, v_text, v_more
      FROM (VALUES ('episodes', 'e'::"char", 'episode_key', 'content', 'NULL::text'),
                   ('edges', 'f'::"char", 'edge_key', 'fact', 'NULL::text'),
                   ('nodes', 'n'::"char", 'node_key', 'name', 'r.summary')) AS m (tbl, kind, key, body, more)
     WHERE m.tbl = TG_ARGV[0] AND TG_NARGS = 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'memory._index_words fired on %.% for %', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_ARGV[0]
            USING ERRCODE = 'triggered_action_exception',
                  HINT = 'the trigger names its table as its one argument: episodes, edges or nodes';
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        v_old := pg_catalog.format(v_rows, v_key, v_text, v_more, 'old_rows');
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        v_new := pg_catalog.format(v_rows, v_key, v_text, v_more, 'new_rows');
    END IF;
    IF TG_OP = 'UPDATE' THEN
        -- only the rows whose text changed
        v_old := 'SELECT o.* FROM (' OPERATOR(pg_catalog.||) v_old OPERATOR(pg_catalog.||) ') AS o JOIN ('
                 OPERATOR(pg_catalog.||) v_new OPERATOR(pg_catalog.||) ') AS n USING (tenant_id, simulation_id, key)'
                 ' WHERE o.body IS DISTINCT FROM n.body OR o.more IS DISTINCT FROM n.more';
        v_new := 'SELECT n.* FROM (' OPERATOR(pg_catalog.||) pg_catalog.format(v_rows, v_key, v_text, v_more, 'new_rows')
                 OPERATOR(pg_catalog.||) ') AS n JOIN (' OPERATOR(pg_catalog.||) pg_catalog.format(v_rows, v_key, v_text, v_more, 'old_rows')
                 OPERATOR(pg_catalog.||) ') AS o USING (tenant_id, simulation_id, key)'
                 ' WHERE o.body IS DISTINCT FROM n.body OR o.more IS DISTINCT FROM n.more';
    END IF;
    FOR v_tenant IN EXECUTE 'SELECT DISTINCT r.tenant_id FROM '
                            OPERATOR(pg_catalog.||) CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END
                            OPERATOR(pg_catalog.||) ' AS r' LOOP
        PERFORM pg_catalog.set_config('memory.tenant_id', v_tenant::text, true);
        IF v_shard THEN
            -- the transition tables' rows of the tenant as jsonb, read where Citus plans nothing
            IF v_old IS NOT NULL THEN
                EXECUTE 'SELECT pg_catalog.jsonb_agg(x) FROM (' OPERATOR(pg_catalog.||) v_old OPERATOR(pg_catalog.||) ') AS x'
                   INTO v_old_rows USING v_kind, v_tenant;
            END IF;
            IF v_new IS NOT NULL THEN
                EXECUTE 'SELECT pg_catalog.jsonb_agg(x) FROM (' OPERATOR(pg_catalog.||) v_new OPERATOR(pg_catalog.||) ') AS x'
                   INTO v_new_rows USING v_kind, v_tenant;
            END IF;
        END IF;
        IF v_old IS NOT NULL THEN
            -- a simulation that went takes all of its postings
            EXECUTE 'DELETE FROM memory.word_postings AS w USING (SELECT DISTINCT o.tenant_id, o.simulation_id FROM ('
                    OPERATOR(pg_catalog.||) CASE WHEN v_shard THEN c_from_jsonb ELSE v_old END OPERATOR(pg_catalog.||) ') AS o
                      WHERE NOT EXISTS (SELECT 1 FROM memory.simulations AS s
                                         WHERE s.tenant_id = $2 AND s.simulation_id = o.simulation_id)) AS g
                     WHERE w.tenant_id = $2 AND w.simulation_id = g.simulation_id'
              USING v_kind, v_tenant, v_old_rows;
            EXECUTE 'DELETE FROM memory.word_postings AS w USING (SELECT n.tenant_id, n.simulation_id, n.key, p.word, p.kind FROM ('
                    OPERATOR(pg_catalog.||) CASE WHEN v_shard THEN c_from_jsonb ELSE v_old END OPERATOR(pg_catalog.||) ') AS n
                      CROSS JOIN LATERAL (' OPERATOR(pg_catalog.||) v_postings OPERATOR(pg_catalog.||) ') AS p) AS d
                     WHERE w.tenant_id = $2 AND w.simulation_id = d.simulation_id AND w.word = d.word
                       AND w.kind = d.kind AND w.row_key = d.key'
              USING v_kind, v_tenant, v_old_rows;
        END IF;
        IF v_new IS NOT NULL THEN
            EXECUTE 'INSERT INTO memory.word_postings (tenant_id, simulation_id, word, kind, row_key, tf, weight, doc_len)
                     SELECT $2, n.simulation_id, p.word, p.kind, n.key, p.tf, p.weight, p.doc_len FROM ('
                    OPERATOR(pg_catalog.||) CASE WHEN v_shard THEN c_from_jsonb ELSE v_new END OPERATOR(pg_catalog.||) ') AS n
                      CROSS JOIN LATERAL (' OPERATOR(pg_catalog.||) v_postings OPERATOR(pg_catalog.||) ') AS p
                     ORDER BY p.word, p.kind, n.key'
              USING v_kind, v_tenant, v_new_rows;
        END IF;
    END LOOP;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_call, ''), true);
    RETURN NULL;
END
$_$;

ALTER FUNCTION memory._index_words() OWNER TO memory_owner;

-- FUNCTION _index_words(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._index_words() IS 'Internal: trigger keeping memory.word_postings the words of the episodes, facts and entities as each statement left them';

-- FUNCTION _index_words(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._index_words() FROM PUBLIC;

-- _installed_functions(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._installed_functions() RETURNS TABLE(signature text, security text, owner text, config text, acl text, body_md5 text, cluster_only boolean)
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    VALUES
        ('memory._acting_role()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '76894cb1b31f58d76aafb31a8d9e9ba1', false),
        ('memory._action_said(text,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'c4196266a32d19e0c6b9940a65a33474', false),
        ('memory._ann_breadth(real)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '2b7677a4f32f96682668b5ca1466c4c9', false),
        ('memory._ann_counts(uuid,integer,text)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '9dec2ad02e0d100c76ec264552a5b35a', false),
        ('memory._ann_index_name(bigint)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', 'ae302955974008b68b9a68ddb3bc0695', false),
        ('memory._ann_ivf_index_name(bigint)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '0a0c021b4eb401e1110476626f59f835', false),
        ('memory._ann_plan(text,integer,integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '307fd6ad37f417f5c1eefba2fb50a394', false),
        ('memory._ann_statement_list(text,text,text,text,name)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '5cf77c2ceb59a50357f48990fc24438f', false),
        ('memory._ann_statements(bigint,text,integer,integer,boolean,regclass)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'a9ddada3472c318a0d01afbd0b208735', false),
        ('memory._ann_wanted(integer,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '8ddaa274a57135b273acc2bad2c586ed', false),
        ('memory._attempt_alive(integer,integer,timestamp with time zone)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'f7623d812a573974af7727c68393a4fa', false),
        ('memory._attempt_lock_class()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', '653af550d9405f36d55f39f343a4c102', false),
        ('memory._attempt_lock_held(integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', 'efdad4f9bf69f21246203c0b314339f2', false),
        ('memory._check_batch(text,jsonb,jsonb,text[])', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'b3aa268a1e7c67cb1ee34dfd5790b1cc', false),
        ('memory._check_fact_state(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'cf0b715a4d584676179d7c6758b693e3', false),
        ('memory._check_items_model(uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f1441e273a03dbe63c39b45a143e84d3', false),
        ('memory._check_limit(text,text,bigint)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '5914f03e0e008194b9a894b78b34ceaf', false),
        ('memory._check_query_model(uuid,uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'b2870453507c919ce306db12f7bb120c', false),
        ('memory._check_query_vector(public.vector)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '8126751ce095ba7ddb25db4ec3dae5a7', false),
        ('memory._check_quota(uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '58765201bdc9155b13804633b20ebb82', false),
        ('memory._clump_breadth(bigint,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '3ea0a1eb28a74e90c6a89d2bdbbe5d94', false),
        ('memory._clump_build(uuid,bigint,text,integer,integer)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'd78b35aebea6b51877804683ae1e786f', false),
        ('memory._clump_builds(uuid)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '38a3c845921b382b04ed600071ba1b9c', false),
        ('memory._clump_collapse(uuid,uuid,bigint,memory.episode_hit[],integer[])', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '70c3c9eb9977f1695d7d25186a12c227', false),
        ('memory._clump_index_name(bigint,bigint)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '8e30fda99fb455af113bd59e0e1a5646', false),
        ('memory._clump_plan(integer,integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '028d0232a0bde8a06b8b567ea413cb7b', false),
        ('memory._clump_search(uuid,uuid,bigint,bigint,public.vector,integer)', 'invoker', 'memory_owner', 'enable_sort=off, hnsw.ef_search=400, hnsw.iterative_scan=off, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'b6a9112a5fef8f0510953d81251eecb4', false),
        ('memory._clump_state(uuid,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '14338c2f0712d264f65960cd9adb0275', false),
        ('memory._compact_episodes(uuid,uuid,real,boolean)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', '', '47b9ac8eb48bc01f240693bf7cca3e64', false),
        ('memory._current_tenant_id()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '52a4bbf748c4a714e4265605f61617f2', false),
        ('memory._default_model()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '689f180e75a292c43df11fa018682b25', false),
        ('memory._delete_grant(uuid,oid)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '4ed3acade97b3bd9a451f518c53afe99', false),
        ('memory._delete_simulation(uuid,uuid)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '895f03fbdce543389d3597272cc2b13a', false),
        ('memory._discard_staged(uuid,uuid[])', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'a1e93a263892d2f433a7ae734314a84f', false),
        ('memory._edge_detail(memory.edges)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '9c089003f9207c4a61d2d69c98cd8420', false),
        ('memory._end_grant(uuid,oid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '474a722a700ca7dac7c061130b1c556f', false),
        ('memory._enforce_quota(uuid,text)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'e4fb8d100ff5437fe4fe340d8dc5cdb5', false),
        ('memory._enter_page(text,uuid,uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'a0d6e17c20878dde1b38b449ce7cc9af', false),
        ('memory._enter_simulation(uuid,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', 'dc75d66bb78acf8332cd1fb766b3b65c', false),
        ('memory._enter_tenant(uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '8dfed459c0f84772b5da5c549d7663ea', false),
        ('memory._enter_tenant_as_admin(uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'a07c7478fa3f7a300c447615dddea79c', false),
        ('memory._enter_vector_cache(uuid,text,bytea[])', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'c1813e405d92ce60a26071fcfeb06edc', false),
        ('memory._entities_ann_index_name(bigint)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', 'd923cc1fd1bb77f861061686f2b1c8f3', false),
        ('memory._entity_names(text,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '3cdfddcafcc2551ff3bfcbf0819bc96d', false),
        ('memory._episodes_breadth(real,integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '3ab964e0cb073549874e5daf105cf1a5', false),
        ('memory._fact_state(timestamp with time zone,timestamp with time zone,timestamp with time zone,timestamp with time zone)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'b70babaf1c15be4f11192f4f1191645a', false),
        ('memory._facts_ann_index_name(bigint)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '50328be2703ac85844b58d614a9a7ecf', false),
        ('memory._fail_dead_attempts(uuid,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6474b0aabd1e5351bb7a4cdf997577c5', false),
        ('memory._field_problem(jsonb,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6cf8520e40a30f7693123cf4861233e5', false),
        ('memory._function_fingerprints()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '9d5f770d99404344e0c73b64eb685914', false),
        ('memory._group_roles()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '26042769b5c2db52cfaae36609333624', false),
        ('memory._health_tenant(uuid,integer)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', 'b847ccb3c10a7b1500a4c0ef40112a4e', false),
        ('memory._holds_grant(uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '12e5e22f66f7556b94206bfaf9b5143c', false),
        ('memory._index_words()', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', '', 'fd3cbd66ba6087cfe69ece14740f1028', false),
        ('memory._installed_policies()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '6b4cbd7ba5b7ed387f4ac9d57ed58161', false),
        ('memory._kind(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', 'ef54e58aef42b081b621fd1f0b93ad64', false),
        ('memory._kind_columns(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '60be66f17c323b7bee73f792e06acc4c', false),
        ('memory._kind_key(text,text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'e9102568bf7756c17c45d8230251a64e', false),
        ('memory._kind_problems(text,memory.import_attempts)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'a01ce51662d96aea5b0d353654dfb063', false),
        ('memory._known(anyelement,uuid,uuid,timestamp with time zone)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'dad8e004b708fa987f3cc0507ce3223d', false),
        ('memory._label_max()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '1dbe62f77eb846a8b0b9361391a89734', false),
        ('memory._limit(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '510c14cf40c7ef2bcb27a4babfb3b887', false),
        ('memory._link_evidence(uuid,uuid)', 'definer', 'memory_owner', 'enable_nestloop=off, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6216275003d5e9fdc6022b5f789763d5', false),
        ('memory._merge(text,uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '5e9603c4d3c9a67c67811b1c63f1ae24', false),
        ('memory._merge_edges(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '889c8f28e01239165edee07d06131188', false),
        ('memory._merge_episodes(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '640c3717b399d5059ee5b6f3be21f4b9', false),
        ('memory._merge_nodes(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'c95b874f2cad9677e3aab44ead5093b6', false),
        ('memory._merge_predictions(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '025d0b2b16544491c11fd0be77394d40', false),
        ('memory._merge_profiles(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '8b3d970f643659af24a383e4a543fa1b', false),
        ('memory._merge_report_chunks(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6062a753c71d5cbe7e6a2fbbfbaacf14', false),
        ('memory._merge_report_log(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '24a543b4fb7e1e5c54e2d68bbeb8953e', false),
        ('memory._merge_report_sections(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '2fab1da44189c013ab1551b6f27d1c5d', false),
        ('memory._merge_reports(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'a3fc254deaadd86773c6a6ce1a93287d', false),
        ('memory._merge_sql(text,boolean)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '0106af8ca46eda8e07c0cf4d2f451c65', false),
        ('memory._model(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '72c1f050981b57c4090f18c1b4a6cb37', false),
        ('memory._name_candidates(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'a0f05a611c3eb349c6765014ee43cd91', false),
        ('memory._name_match(text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '5bead449f9dc01da3e0fb21c336a5bf1', false),
        ('memory._name_trigrams(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', '92c95ac4ff67b59dd33674ee5e89de53', false),
        ('memory._named_agents(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '623b16d5ed723e38a21d72c10fa2ec3b', false),
        ('memory._near_copy()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', 'c00395cdc49561d38b5033eaed6a3995', false),
        ('memory._node_group()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '6066b68d257a3a73fd0a048513077082', false),
        ('memory._node_role_oids(oid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '4d23a1af71f36f0936982b560a485fe5', false),
        ('memory._not_null(anyelement,text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '81f7e3254c7aacf11730dca8ec5dad50', false),
        ('memory._on_cluster()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '39cc2487346a4cc1412b851945767bb5', false),
        ('memory._one_of(text,text,text[],text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '6b98484b28be065c5f4699a544e5bcae', false),
        ('memory._outcomes()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', '12c07968457faf0f28389f5e4bf5a9af', false),
        ('memory._page_rows(integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '221def7f8cb176df6c6ce56e31a80dcf', false),
        ('memory._prune(text,uuid,uuid,uuid,text[])', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f90074e42f28fdfee282416cfb02166a', false),
        ('memory._quota_used(uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', '', '7945160f4bd7740dedcb2ff5f9d566bf', false),
        ('memory._quote(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', '91691779d956f464c76f41de654264c0', false),
        ('memory._recall_graph(uuid,uuid,text,integer,integer,timestamp with time zone,uuid[],real[])', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ed425457ab27c045b1dbdfd25ff7f78b', false),
        ('memory._recall_list(jsonb,text,text[],text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '6603ecc82076d1f8cdbf82f9940cd8ed', false),
        ('memory._recall_option(jsonb,text,double precision,double precision,double precision)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'e94331ac67785390e11c607ca53bc087', false),
        ('memory._record_change(uuid,uuid,text,text,text[],jsonb,uuid,jsonb)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_writer=EXECUTE', 'e6ce97b2143c66eca421418c034a1def', false),
        ('memory._record_history()', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', '', '8c86d2c866af9b29cee06f52baec1c14', false),
        ('memory._record_import(uuid,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '02347f011e0087e23c9eb1371eaf8d41', false),
        ('memory._record_kinds()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', 'e4a393c67f59208382f83601bf07f725', false),
        ('memory._record_upsert(text,uuid,uuid,jsonb,bigint,bigint)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '5fa74bef6908baa9e68278ba161d6e63', false),
        ('memory._reembed_model(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '58392a22f62e34d7f3d29748aec6cdb1', false),
        ('memory._reembed_sources(uuid,uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '21af368951c0a225a97d8e882541e00a', false),
        ('memory._refuse_on_cluster(text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '4ab6df52f16027dc0e270407525a8a47', false),
        ('memory._release_attempt_lock(integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6e6e24b955792699db08513c3869fb48', false),
        ('memory._require_admin()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '37fa153de6baaf3556da9a9e3d4d48c3', false),
        ('memory._require_attempt(uuid,uuid,boolean)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '7f902d6cdca12fde1b9285900f59e212', false),
        ('memory._require_row(text,uuid,uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'b1b0dc3c3e7997695c06a837ebe0eaae', false),
        ('memory._require_simulation(uuid,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', '175101a744e50c8d2a7510ca1d8d1087', false),
        ('memory._said_something(uuid,uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'f2e032017672643cef00e6d6b56f2b4d', false),
        ('memory._search_episodes(uuid,uuid,public.vector,integer,integer,integer,integer,timestamp with time zone,timestamp with time zone,boolean,text,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '6993717f22867c1dbde2b0b5548d7d6b', false),
        ('memory._search_episodes_ann(uuid,uuid,bigint,public.vector,integer,integer,real,integer,integer,timestamp with time zone,timestamp with time zone,integer)', 'invoker', 'memory_owner', 'enable_sort=off, hnsw.ef_search=400, hnsw.iterative_scan=relaxed_order, hnsw.max_scan_tuples=100000, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '016ae6dc7dda13d836e5e03ec40d97fc', false),
        ('memory._search_episodes_ivf(uuid,uuid,bigint,public.vector,integer,integer,integer,integer,timestamp with time zone,timestamp with time zone,integer)', 'invoker', 'memory_owner', 'enable_sort=off, ivfflat.iterative_scan=relaxed_order, ivfflat.max_probes=60, ivfflat.probes=40, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'a2322598b0d88aed3e424019f4ea1473', false),
        ('memory._search_facts(uuid,uuid,public.vector,integer,text,timestamp with time zone,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '71bb3327bd52fd5bcd2a29fe878103e6', false),
        ('memory._search_facts_ann(uuid,uuid,bigint,public.vector,integer,text,timestamp with time zone,real,integer)', 'invoker', 'memory_owner', 'enable_sort=off, hnsw.ef_search=400, hnsw.iterative_scan=relaxed_order, hnsw.max_scan_tuples=20000, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ee8b1faceb6cee93ba43fe0094471729', false),
        ('memory._search_nodes(uuid,uuid,public.vector,integer,text,text,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '387faa17965e81f909cfe7f44ae45f24', false),
        ('memory._search_nodes_ann(uuid,uuid,bigint,public.vector,integer,text,text,real,integer)', 'invoker', 'memory_owner', 'enable_sort=off, hnsw.ef_search=200, hnsw.iterative_scan=relaxed_order, hnsw.max_scan_tuples=20000, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '18b46759b885e413326a3e8ee1096448', false),
        ('memory._search_words(uuid,uuid,text,integer,text[],uuid[],real[])', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '50fd4e147c7ba0e70fb8477963f4b037', false),
        ('memory._set_tenant(uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', 'ea1ab8b39f87e40016f8d2ea7f64cedc', false),
        ('memory._simulation_model(uuid,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '244bf1b031758b6b0e252a7a9d0d5b44', false),
        ('memory._skip_dangling(uuid,uuid)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '9e771fd1286256e0d3037bc7ced4baf4', false),
        ('memory._stage_kind(text,uuid,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '0c681b91f383ac61a464bf6cf4fc394f', false),
        ('memory._staging_duplicate(text,uuid,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f69bc8df76f9845b2165b54375f71089', false),
        ('memory._staging_problem(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6745eb3f0ae50f2350e3882db8a585ed', false),
        ('memory._stored_dimensions()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE, memory_writer=EXECUTE', 'a00063f5b5893f463d2d49b5deacb26d', false),
        ('memory._sweep_tenant(uuid,timestamp with time zone)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'a99aab9308e386faee2fd1d37a81a699', false),
        ('memory._text_hash(text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '9b18070791a3bbbec385f667a8a9fa95', false),
        ('memory._top_k(integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '8e0003e801d19da81e4883fe598ecde5', false),
        ('memory._upsert(text,uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '17d3b9b05fe66845dab5cb6995ceac0b', false),
        ('memory._use_custom_plans()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', '', 'f3cd12b371442e628078e0465ff834b7', false),
        ('memory._vector_problem(public.vector)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', 'ff8263ccfa17fc7267e11fe79275935f', false),
        ('memory._warm_indexes(uuid,uuid)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'bf83d67627c736a1edf53ee74a59be76', false),
        ('memory._words_doc(text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', '5207195ddd5717222ffb05dc912ae2ce', false),
        ('memory._words_prepare(text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '198f2743e46a19fcb3b1173db997810f', false),
        ('memory._words_query(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '932e6de9ea1d84344b537c909d7b8dec', false),
        ('memory._words_text(text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE, memory_writer=EXECUTE', '1d91a16a70b91362e4edac23d7624c76', false),
        ('memory._zep_attempts_max()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '5b37672100c7f1100a1920089675db1f', false),
        ('memory._zep_batch_max()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '10a5ddcc53c13e31cc11001a00e1f503', false),
        ('memory._zep_edge(memory.edge_detail,timestamp with time zone)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ce467b7698f663419598b30395487a10', false),
        ('memory._zep_edge_item(memory.edges)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '9df7dd211f552c1c73706b30065494ef', false),
        ('memory._zep_episode(memory.zep_episodes)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ed2c7b80310588e7683ad076bae26e6c', false),
        ('memory._zep_graph_json(uuid,text,jsonb,timestamp with time zone)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '22f91eb39f953527631924ebd9076f76', false),
        ('memory._zep_home(uuid,text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'b63e6ba7408200ac8eb15155abc75c42', false),
        ('memory._zep_node(text,text,text,text[],text,jsonb,timestamp with time zone)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'a0ba74f703ca7cfef400f31b1405acb9', false),
        ('memory._zep_pair_allowed(jsonb,text,text,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'a7eac6c6d0e121d67b18ca21a542e9c2', false),
        ('memory._zep_resolve_entity(uuid,uuid,text,text,public.vector,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f904a5cf7ace1b63611bdb651b27043c', false),
        ('memory._zep_simulation(uuid,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'e2dea6aa2ba4efcd59ebc7fa6c646e4b', false),
        ('memory._zep_time(timestamp with time zone)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'e4fd76df50106b677df2939b8a2c0909', false),
        ('memory._zep_type_problem(text,jsonb,integer,jsonb)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '7b55e72bfe95473d4c90141eab90a9ed', false),
        ('memory._zep_types_max()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'cc38bc82f4b651ed2eb04a505084d207', false),
        ('memory.abort_import(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '3d3a398f6fcd7556e4be9ac0efc22ba1', false),
        ('memory.ann_index(bigint,text,integer,integer,boolean)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '9d1b317b24e1aa92084d63edae7dc682', false),
        ('memory.ann_index_entities(bigint,text,integer,integer,boolean)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '8969e9980867dd558cb83a7cebea20a1', false),
        ('memory.ann_index_facts(bigint,text,integer,integer,boolean)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '8be00eb197a8cf1ec6a415d8f3520047', false),
        ('memory.ann_index_tenant(uuid,uuid,text,integer,integer)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '4bbf2f83db3ff51dba63f1dee5dc6baa', false),
        ('memory.ann_plan(integer,integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '0c3201c72777dd5146402b57fd2a111a', false),
        ('memory.ann_plan_entities(integer,integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'ab7f1636e2db2c7d4465d9db69ad4bf1', false),
        ('memory.ann_plan_facts(integer,integer,integer)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'c274a19646882ce6ca9f9ddec1903c16', false),
        ('memory.api_key_role(bytea)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'fd83db9b67a2d244346520a1c3eaa0e4', false),
        ('memory.api_keys(uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '4d1ce1dae1130ca94d4d40fc5bd0bd06', false),
        ('memory.begin_import(uuid,uuid,jsonb,boolean,jsonb,text,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '59fc07a4c27b20a392f3584db3f2a671', false),
        ('memory.cache_vectors(uuid,text,bytea[],public.vector[])', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '959c59060b1eba1a5f5302023f3c8cf4', false),
        ('memory.cached_vectors(uuid,text,bytea[])', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '822f0b288c75b0d8881a706151fa7d6c', false),
        ('memory.changes_since(uuid,bigint,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '5ec4163ae2f9e6c86dec8d7c808465b0', false),
        ('memory.commit_import(uuid,uuid)', 'invoker', 'memory_owner', 'enable_nestloop=off, lock_timeout=60s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '23d0a283f945939be3adb47047b8c89e', false),
        ('memory.committed_hashes(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '17352155513e7e5514a92d4e47466317', false),
        ('memory.compact_episodes(uuid,uuid,real,boolean)', 'definer', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'af5b9c3e184af1c88443cd1657ed7158', false),
        ('memory.create_api_key(uuid,name,bytea,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '02fed51c16a9681d5668cc4928de7af7', false),
        ('memory.create_tenant(text,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'c320ad93d7b9aedf219178d07aa7f598', false),
        ('memory.delete_simulation(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6f12e7e4e3e8a7ab22035dbaac9e206e', false),
        ('memory.delete_tenant(uuid)', 'definer', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '0d44e49008b8f23badef90055317aaf7', false),
        ('memory.entity_summary(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '6dce3b7cc5577c722df49108f8ab9c4c', false),
        ('memory.episode_vector(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '97e2f074d5e8c17ffd352a033ac20402', false),
        ('memory.episodes(uuid,uuid,integer,text,text,integer,integer,timestamp with time zone,timestamp with time zone,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'b7f692ffeff11791471e6a1f8a5797e2', false),
        ('memory.evidence(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ec396089c1d006ee460dbfd104dcc913', false),
        ('memory.facts(uuid,uuid,text,text,timestamp with time zone,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '1ab0a08b9f049ed84ad9c0fe10d78d5d', false),
        ('memory.get_edge(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'd1a2d7907e6f79ea5b69b24dc7042b31', false),
        ('memory.get_node(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'd0eb08e93bacb330ffebb8eb821dc1c9', false),
        ('memory.grant_tenant(name,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'a3a915f05d9e9886092dc2dfe38bffc2', false),
        ('memory.graph_edges(uuid,uuid,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'c7cffc596563773e10c1a659f31dd093', false),
        ('memory.graph_nodes(uuid,uuid,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'b1f3a56e38b6478c396cf2846e303aa0', false),
        ('memory.health(uuid,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', 'b8c95d11629da6b8ed22a5a49cdc1b00', false),
        ('memory.health_tenant(uuid,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '7827380782f1267bbe4ffb33e9622d71', false),
        ('memory.history(uuid,uuid,text,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '9c91b57f392f5446407810b8c591182c', false),
        ('memory.import_attempts(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '079e39d3b9a86abd38eed54832f01d84', false),
        ('memory.link_evidence(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'de3430184638309c6e9a9815320b1ab5', false),
        ('memory.list_models()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', 'ce6864122161e44f4b0fe2fc7e9d7695', false),
        ('memory.list_simulations(uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'bcf1da7011e6dd9454fba858ecd73eb1', false),
        ('memory.list_tenants()', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', 'b586af509d163621749d7a0cbfa5b159', false),
        ('memory.match_entities(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'dd69271db5b99f64b2708741dd2fac31', false),
        ('memory.model_of(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ee844fcf6e5dfd9fbbb9ed57bf56e254', false),
        ('memory.neighbors(uuid,uuid,text,integer,text[],text,timestamp with time zone,timestamp with time zone,boolean,integer)', 'invoker', 'memory_owner', 'enable_nestloop=off, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '2f4c358a1ae3b86cf4991521e6d78a44', false),
        ('memory.nodes_by_type(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '05d0a18fd24eaa6187941d9112dc04b1', false),
        ('memory.nodes_named(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '5cfdce16af2b3fcc919257a98e0e640d', false),
        ('memory.open_staging()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f0a29994bff664eb345907fcbc36f0cc', false),
        ('memory.panorama(uuid,uuid,text,public.vector,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'fa9120a4d8d48f9011af3b7438ceea0d', false),
        ('memory.paths(uuid,uuid,text,text,integer)', 'invoker', 'memory_owner', 'enable_nestloop=off, lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'd6ac8158188f383dc9b64e8a38134a6f', false),
        ('memory.predictions(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '879b97e8d26886192ec82641beb6e7a9', false),
        ('memory.profiles(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '3af2df50a726f3758fb10eeda29a269a', false),
        ('memory.quotas(uuid)', 'definer', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE, memory_reader=EXECUTE', '5f3f9faf0fa9e795eeb04e8fae2d6b67', false),
        ('memory.recall(uuid,uuid,text,public.vector,integer,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '43cd9ef6dd6399c6b7e83f9e15b132bf', false),
        ('memory.record_outcome(uuid,uuid,text,text,text,timestamp with time zone)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f7ff317bf0689141c55901522d51aab5', false),
        ('memory.reembed_texts(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '8b43a613d0249b323f1a174484d55a4e', false),
        ('memory.report_log(uuid,uuid,text,integer,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '610b62bba50649480b2a1629bbb50ae5', false),
        ('memory.report_sections(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'eb961b56fb248001691fbbfd96e9cb9b', false),
        ('memory.reports(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '99a5b9f145d3d599143c9c1d7e3ed947', false),
        ('memory.revoke_api_key(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '43144b64ea7b48b89661c799e2f0cceb', false),
        ('memory.revoke_tenant(name,uuid)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '02e664882edbb1f83fccb87b1275dcca', false),
        ('memory.rls_audit()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '2cc1a7929c3cad7bb259fed9a10dfd36', false),
        ('memory.rls_audit_shards()', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '26598eff99e7190d328fe11eb941aa1f', true),
        ('memory.route(text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '26a06e7f1d7e91cf4edff1b9db84a4ab', false),
        ('memory.search_episodes(uuid,uuid,public.vector,integer,integer,integer,integer,timestamp with time zone,timestamp with time zone,boolean,text)', 'invoker', 'memory_owner', 'search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '04fc06bc0e564c96495d49582a64f36a', false),
        ('memory.search_facts(uuid,uuid,public.vector,integer,text,timestamp with time zone,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '66deaef0088f0c5a2d6429bd5a82f922', false),
        ('memory.search_nodes(uuid,uuid,public.vector,integer,text,text,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'a519aef32490ac0304c10810168fc88b', false),
        ('memory.search_reports(uuid,uuid,public.vector,integer,text,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '0674b72f2988d16e979b5ab83b4229cf', false),
        ('memory.search_words(uuid,uuid,text,integer,text[])', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'd84f8188d7d90430a226fdd62db52709', false),
        ('memory.set_model(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '68dc87244496b1366bf0b9138606b1af', false),
        ('memory.set_quota(uuid,text,bigint)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '6d216f6b8067fd7c366646652025c535', false),
        ('memory.set_retention(uuid,integer,real,boolean)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'ee1e3e93cb8838666f8bf7e47fbdcc77', false),
        ('memory.set_route_rule(text,text)', 'definer', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', '8591276a8e436dcb9754573d25603c96', false),
        ('memory.set_tenant_model(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f085cd5b476b5b7b06431b3cddaaa879', false),
        ('memory.simulation_stats(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '76596a73ee167f2edebd8dfc35d5eb1d', false),
        ('memory.stage_rows(uuid,uuid)', 'invoker', 'memory_owner', 'enable_nestloop=off, lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'b50ccf4766fec70bf4ff6dc6b2707d5a', false),
        ('memory.sweep(uuid,timestamp with time zone)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'c0d58f5b8fbb0409962b7e6e70dd0ff7', false),
        ('memory.sweep_tenant(uuid,timestamp with time zone)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_admin=EXECUTE', 'e4d79e900ba70ae1a4f547f3f86deb5a', false),
        ('memory.switch_model(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'b1a3b7ec95b43c2eb558fe1ec34241d0', false),
        ('memory.timeline(uuid,uuid,text,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '1d0a79f852e4a672281312fc3c43d225', false),
        ('memory.upsert_edges(uuid,uuid,jsonb,boolean)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'a8c5171f08f23be2198f8c8bcc531d73', false),
        ('memory.upsert_episodes(uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '24280b240afbe755f2f9bf5e03696548', false),
        ('memory.upsert_nodes(uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '065afe867b27f4cbba0d58f949e41d16', false),
        ('memory.upsert_predictions(uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6e726640f198af841bedb7d1e3f8004e', false),
        ('memory.upsert_profiles(uuid,uuid,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '2e64f114b89c93fa8a17c91ae3f2ea59', false),
        ('memory.upsert_simulation(uuid,uuid,text,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '4d50e1bced9b3ccadf57e50f6a5ff9d3', false),
        ('memory.validate_import(uuid,uuid)', 'invoker', 'memory_owner', 'enable_nestloop=off, lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'f3f4094686a9ff999b030159c273ea05', false),
        ('memory.warm(uuid,uuid)', 'invoker', 'memory_owner', 'enable_seqscan=off, lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '8208aa3451ad53ca50e634a0ae012d07', false),
        ('memory.zep_add_episodes(uuid,text,jsonb,uuid)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'a8ebf2021212683e1958f42a978c69a5', false),
        ('memory.zep_apply_extraction(uuid,uuid,integer,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '6ba922ba1a0631a7ab3d783b183a0d14', false),
        ('memory.zep_claim_episodes(uuid,integer,integer)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'ced0d021f01806b39ec5684fc35ef45f', false),
        ('memory.zep_create_graph(uuid,text,text,text,text)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'e7f426317e7890cc4a86f0701061de8c', false),
        ('memory.zep_delete_graph(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', 'd0ebe0f1b7a7a274c534b55ff0f65f4d', false),
        ('memory.zep_edge(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'dc6319ca449204e474673a45646060fc', false),
        ('memory.zep_edges(uuid,text,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '8e722b09a524b6fd4ffedc71e6e587cd', false),
        ('memory.zep_episode(uuid,uuid)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '2e8db7b65ac39e9e626b05490027f117', false),
        ('memory.zep_extraction_context(uuid,uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '11f8185816edc46608523903f93f04bd', false),
        ('memory.zep_fail_extraction(uuid,uuid,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '1661bff98f998d0c92b600b5634c9c6e', false),
        ('memory.zep_graph(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ee4d4ff3442a094893598f4984b2ea10', false),
        ('memory.zep_graph_episodes(uuid,text,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '837fed211ee26d133d9bb6af4fd638d0', false),
        ('memory.zep_graphs(uuid,integer,integer)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'bd90c4ad5ba33095d248f797eaf0c671', false),
        ('memory.zep_node(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '1576a9e7862fe03b437b8fbad901ac71', false),
        ('memory.zep_node_edges(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '41449b7622c496e577e52bc6f315643e', false),
        ('memory.zep_nodes(uuid,text,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'ff32353507078f06c2069e98876a9521', false),
        ('memory.zep_ontology(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', '475c24761440e699c434c8baed9e12a8', false),
        ('memory.zep_retry_episodes(uuid,text)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '8fab734cc02aee02fbbdb04eee51518e', false),
        ('memory.zep_search(uuid,text,text,public.vector,text,integer,text)', 'invoker', 'memory_owner', 'lock_timeout=5s, search_path=pg_catalog, pg_temp', 'memory_reader=EXECUTE', 'eba91b3427e7e42d42e515c9c32f5063', false),
        ('memory.zep_set_ontology(uuid,text[],jsonb,jsonb)', 'invoker', 'memory_owner', 'lock_timeout=30s, search_path=pg_catalog, pg_temp', 'memory_writer=EXECUTE', '5eff89563ee73da52a11df79620e7bcd', false)
$$;

ALTER FUNCTION memory._installed_functions() OWNER TO memory_owner;

-- FUNCTION _installed_functions(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._installed_functions() IS 'Internal: the fingerprints of the functions the release installed (generated by make schema)';

-- FUNCTION _installed_functions(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._installed_functions() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._installed_functions() TO memory_admin;

-- _installed_policies(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._installed_policies() RETURNS TABLE(table_name name, policy_name name, permissive boolean, roles name[], command text, qual text, with_check text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    WITH e AS (
        SELECT '(tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))'::text AS call_tenant,
               'pg_has_role(CURRENT_USER, ''memory_admin''::name, ''MEMBER''::text)'::text AS admin,
               -- V0024: the grant's role on this node (role_oid, or node_role_oids on a Citus cluster)
               E'pg_has_role(CURRENT_USER,\nCASE\n    WHEN (node_role_oids IS NULL) THEN role_oid\n    ELSE ((node_role_oids ->> (memory._node_group())::text))::oid\nEND, ''USAGE''::text)'::text AS own_grant
    ), tables AS (
        SELECT t::name AS table_name, t NOT IN ('tenants', 'tenant_grants', 'api_keys') AS tenant_data
          FROM pg_catalog.unnest(ARRAY['tenants', 'tenant_grants', 'simulations', 'nodes', 'edges', 'episodes',
                                       'profiles', 'import_attempts', 'staged_nodes', 'staged_edges',
                                       'staged_episodes', 'staged_profiles', 'vector_cache',
                                       -- V0014: reports and predictions
                                       'reports', 'report_sections', 'report_chunks', 'report_log',
                                       'predictions', 'prediction_outcomes', 'staged_reports',
                                       'staged_report_sections', 'staged_report_chunks',
                                       'staged_report_log', 'staged_predictions',
                                       -- V0015: the versions a change ended
                                       'row_history',
                                       -- V0016: the evidence behind a fact
                                       'edge_evidence',
                                       -- V0022: the model of a tenant's new simulations
                                       'tenant_models',
                                       -- V0020: the words index
                                       'word_postings',
                                       -- V0021: the change feed, retention and compaction
                                       'changes', 'change_heads', 'retention_rules', 'episode_clumps',
                                       -- V0026: the clumps and representatives of indexed simulations
                                       'search_builds', 'search_points', 'search_clumps', 'search_clump_chunks',
                                       -- V0038: the tenants' quotas
                                       'tenant_quotas',
                                       -- V0043: the keys of swarm-memory serve (administrators'
                                       -- alone, as the grants: below)
                                       'api_keys',
                                       -- V0044: graphs written through swarm-memory serve
                                       'zep_ontologies', 'zep_episodes']) AS t
    )
    SELECT t.table_name, p.policy_name::name, true, ARRAY[p.role]::name[], p.command, p.qual, p.with_check
      FROM tables AS t CROSS JOIN e
      CROSS JOIN LATERAL (VALUES
          ('owner_sees_rows_of_the_entered_call_tenant', 'memory_owner', 'SELECT', e.call_tenant, NULL),
          ('owner_removes_rows_of_the_entered_call_tenant', 'memory_owner', 'DELETE', e.call_tenant, NULL)
      ) AS p (policy_name, role, command, qual, with_check)
    UNION ALL
    SELECT t.table_name, p.policy_name::name, true, ARRAY[p.role]::name[], p.command, p.qual, p.with_check
      FROM tables AS t CROSS JOIN e
      CROSS JOIN LATERAL (VALUES
          ('readers_see_rows_of_the_granted_call_tenant', 'memory_reader', 'SELECT', e.call_tenant, NULL),
          ('writers_add_rows_to_the_granted_call_tenant', 'memory_writer', 'INSERT', NULL, e.call_tenant),
          ('writers_change_rows_of_the_granted_call_tenant', 'memory_writer', 'UPDATE', e.call_tenant, e.call_tenant),
          ('writers_remove_rows_of_the_granted_call_tenant', 'memory_writer', 'DELETE', e.call_tenant, NULL)
      ) AS p (policy_name, role, command, qual, with_check)
     WHERE t.tenant_data
       -- memory.vector_cache is append-only: readers see, writers add, nothing more.
       AND (t.table_name <> 'vector_cache' OR p.command IN ('SELECT', 'INSERT'))
       -- memory.row_history: readers see; memory_owner adds (below), no tenant role writes.
       AND (t.table_name <> 'row_history' OR p.command = 'SELECT')
       -- memory.edge_evidence (V0016): the same; memory._link_evidence writes it.
       AND (t.table_name <> 'edge_evidence' OR p.command = 'SELECT')
       -- memory.word_postings (V0020): the same; the trigger memory._index_words writes it.
       AND (t.table_name <> 'word_postings' OR p.command = 'SELECT')
       -- V0026: the same; memory._clump_build writes them.
       AND (t.table_name NOT IN ('search_builds', 'search_points', 'search_clumps', 'search_clump_chunks')
            OR p.command = 'SELECT')
       -- V0021, V0038: the same; memory_owner's definer functions write them (below).
       AND (t.table_name NOT IN ('changes', 'change_heads', 'retention_rules', 'episode_clumps', 'tenant_quotas')
            OR p.command = 'SELECT')
    UNION ALL
    SELECT 'row_history'::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e
    UNION ALL
    SELECT 'edge_evidence'::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e
    UNION ALL
    SELECT 'word_postings'::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e
    UNION ALL
    SELECT w.table_name::name, 'owner_adds_rows_to_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'INSERT', NULL, e.call_tenant
      FROM e CROSS JOIN (VALUES ('search_builds'), ('search_points'), ('search_clumps'), ('search_clump_chunks')) AS w (table_name)
    UNION ALL
    SELECT 'search_builds'::name, 'owner_changes_rows_of_the_entered_call_tenant'::name, true,
           ARRAY['memory_owner']::name[], 'UPDATE', e.call_tenant, e.call_tenant
      FROM e
    -- V0021: memory_owner adds to the feed (no UPDATE: a change is never rewritten), advances
    -- a head, replaces rules and clumps; V0038: sets and locks a tenant's caps.
    UNION ALL
    SELECT w.table_name::name, p.policy_name::name, true, ARRAY['memory_owner']::name[], p.command, p.qual, p.with_check
      FROM e CROSS JOIN LATERAL (VALUES
          ('owner_adds_rows_to_the_entered_call_tenant', 'INSERT', NULL, e.call_tenant),
          ('owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', e.call_tenant, e.call_tenant)
      ) AS p (policy_name, command, qual, with_check)
      CROSS JOIN LATERAL (VALUES ('changes'), ('change_heads'), ('retention_rules'), ('episode_clumps'),
                                 ('tenant_quotas')) AS w (table_name)
     WHERE p.command = 'INSERT' OR w.table_name <> 'changes'
    UNION ALL
    SELECT p.table_name::name, p.policy_name::name, true, ARRAY[p.role]::name[], p.command, p.qual, p.with_check
      FROM e CROSS JOIN LATERAL (VALUES
          ('tenants', 'admins_manage_all_tenants', 'memory_admin', 'ALL', e.admin, e.admin),
          ('tenants', 'readers_see_the_granted_call_tenant', 'memory_reader', 'SELECT', e.call_tenant, NULL),
          ('tenant_grants', 'admins_manage_all_grants', 'memory_admin', 'ALL', e.admin, e.admin),
          ('tenant_grants', 'roles_see_their_own_grants', 'memory_reader', 'SELECT', e.own_grant, NULL),
          ('api_keys', 'admins_manage_all_keys', 'memory_admin', 'ALL', e.admin, e.admin),
          ('api_keys', 'roles_see_their_own_keys', 'memory_reader', 'SELECT',
           'pg_has_role(CURRENT_USER, role_oid, ''USAGE''::text)', NULL)
      ) AS p (table_name, policy_name, role, command, qual, with_check)
    -- V0018: memory.route_rules, the installation's routing phrases
    UNION ALL
    SELECT 'route_rules'::name, 'roles_read_every_rule'::name, true, ARRAY['memory_admin', 'memory_reader']::name[],
           'SELECT', 'true', NULL
    UNION ALL
    SELECT 'route_rules'::name, 'owner_manages_every_rule'::name, true, ARRAY['memory_owner']::name[],
           'ALL', 'true', 'true'
    -- V0022: memory.embedding_models, the installation's models (a model comes with a migration)
    UNION ALL
    SELECT 'embedding_models'::name, 'roles_read_every_model'::name, true, ARRAY['memory_admin', 'memory_reader']::name[],
           'SELECT', 'true', NULL
$$;

ALTER FUNCTION memory._installed_policies() OWNER TO memory_owner;

-- FUNCTION _installed_policies(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._installed_policies() IS 'Internal: every policy sql/policies installs, with its command, roles and expressions as pg_get_expr prints them (memory.rls_audit compares with it)';

-- FUNCTION _installed_policies(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._installed_policies() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._installed_policies() TO memory_admin;

-- _kind(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._kind(p_kind text) RETURNS memory.record_kind
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_kind memory.record_kind;
BEGIN
    SELECT * INTO v_kind FROM memory._record_kinds() AS k WHERE k.kind = p_kind;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown record kind %', pg_catalog.left(p_kind, 40)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of ' || (SELECT pg_catalog.string_agg(k.kind, ', ' ORDER BY k.ord)
                                          FROM memory._record_kinds() AS k);
    END IF;
    RETURN v_kind;
END
$$;

ALTER FUNCTION memory._kind(p_kind text) OWNER TO memory_owner;

-- FUNCTION _kind(p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._kind(p_kind text) IS 'Internal: a record kind by name (22023 for an unknown one)';

-- FUNCTION _kind(p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._kind(p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._kind(p_kind text) TO memory_reader;
GRANT ALL ON FUNCTION memory._kind(p_kind text) TO memory_writer;

-- _kind_columns(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._kind_columns(p_kind text) RETURNS TABLE(col name, type_sql text, required boolean, default_sql text, committed boolean, check_kind text, value_sql text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),
           a.attnotnull AND d.adbin IS NULL, pg_catalog.pg_get_expr(d.adbin, d.adrelid),
           EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS l
                    WHERE l.attrelid = k.live AND l.attname = a.attname AND NOT l.attisdropped),
           CASE WHEN k.batch_spec ->> a.attname IN ('label', 'label!') THEN 'label'
                WHEN a.atttypid = 'public.vector'::pg_catalog.regtype THEN 'vector' END,
           CASE WHEN a.attname = 'embedding_model' THEN
                    'CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END'
                WHEN d.adbin IS NOT NULL THEN
                    pg_catalog.format('COALESCE(s.%I, %s)', a.attname, pg_catalog.pg_get_expr(d.adbin, d.adrelid))
                ELSE pg_catalog.format('s.%I', a.attname) END
      FROM memory._kind(p_kind) AS k
      JOIN pg_catalog.pg_attribute AS a
        ON a.attrelid = k.staged AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attname NOT IN ('tenant_id', 'attempt_id')
     ORDER BY a.attnum
$$;

ALTER FUNCTION memory._kind_columns(p_kind text) OWNER TO memory_owner;

-- FUNCTION _kind_columns(p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._kind_columns(p_kind text) IS 'Internal: the data columns of a record kind, from its staged table, with what the write path needs';

-- FUNCTION _kind_columns(p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._kind_columns(p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._kind_columns(p_kind text) TO memory_writer;

-- _kind_key(text, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._kind_key(p_kind text, p_left text, p_right text) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.string_agg(pg_catalog.format('%I.%I = %I.%I', p_left, a.attname, p_right, a.attname),
                                 ' AND ' ORDER BY c.ord)
      FROM memory._kind(p_kind) AS k
      JOIN pg_catalog.pg_index AS i ON i.indrelid = k.live AND i.indisprimary
     CROSS JOIN LATERAL pg_catalog.unnest(i.indkey) WITH ORDINALITY AS c(attnum, ord)
      JOIN pg_catalog.pg_attribute AS a ON a.attrelid = k.live AND a.attnum = c.attnum
     WHERE a.attname NOT IN ('tenant_id', 'simulation_id')
$$;

ALTER FUNCTION memory._kind_key(p_kind text, p_left text, p_right text) OWNER TO memory_owner;

-- FUNCTION _kind_key(p_kind text, p_left text, p_right text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._kind_key(p_kind text, p_left text, p_right text) IS 'Internal: the join condition on a record kind''s key between two aliases';

-- FUNCTION _kind_key(p_kind text, p_left text, p_right text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._kind_key(p_kind text, p_left text, p_right text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._kind_key(p_kind text, p_left text, p_right text) TO memory_writer;

-- _kind_problems(text, memory.import_attempts); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._kind_problems(p_kind text, p_attempt memory.import_attempts) RETURNS TABLE(problem text, item_id text, detail text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_staged bigint;
    v_kind   memory.record_kind := memory._kind(p_kind);
BEGIN
    EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = $2',
                              v_kind.staged)
       INTO v_staged USING p_attempt.tenant_id, p_attempt.attempt_id;
    IF p_attempt.declared ? p_kind AND (p_attempt.declared ->> p_kind)::bigint <> v_staged THEN
        RETURN QUERY SELECT 'count_mismatch'::text, NULL::text,
               pg_catalog.format('declared %s, staged %s', p_attempt.declared ->> p_kind, v_staged);
    END IF;
    IF EXISTS (SELECT 1 FROM memory._kind_columns(p_kind) AS c WHERE c.col = 'content_hash') THEN
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT %L::text, s.%I, %L::text FROM %s AS s'
            ' WHERE s.tenant_id = $1 AND s.attempt_id = $2'
            '   AND s.embedding IS NULL AND s.content_hash IS NOT NULL'
            '   AND NOT EXISTS (SELECT 1 FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $3'
            '                      AND %s AND l.content_hash = s.content_hash AND l.embedding IS NOT NULL)',
            'missing_embedding', v_kind.id_column,
            'staged without embedding; no committed row has its content hash',
            v_kind.staged, v_kind.live, memory._kind_key(p_kind, 'l', 's'))
        USING p_attempt.tenant_id, p_attempt.attempt_id, p_attempt.simulation_id;
    END IF;
    IF p_kind = 'edges' THEN
        RETURN QUERY
        SELECT CASE WHEN p_attempt.skip_dangling THEN 'skipped_edge' ELSE 'dangling_edge' END, e.edge_id,
               pg_catalog.format('%s node %s is not in the import',
                                 CASE WHEN sn.node_id IS NULL THEN 'source' ELSE 'target' END,
                                 CASE WHEN sn.node_id IS NULL THEN e.source_id ELSE e.target_id END)
          FROM memory.staged_edges AS e
          LEFT JOIN memory.staged_nodes AS sn
            ON sn.tenant_id = p_attempt.tenant_id AND sn.attempt_id = p_attempt.attempt_id
           AND sn.node_key = pg_catalog.md5(e.source_id)::uuid
          LEFT JOIN memory.staged_nodes AS tn
            ON tn.tenant_id = p_attempt.tenant_id AND tn.attempt_id = p_attempt.attempt_id
           AND tn.node_key = pg_catalog.md5(e.target_id)::uuid
         WHERE e.tenant_id = p_attempt.tenant_id AND e.attempt_id = p_attempt.attempt_id
           AND (sn.node_id IS NULL OR tn.node_id IS NULL);
    END IF;
END
$_$;

ALTER FUNCTION memory._kind_problems(p_kind text, p_attempt memory.import_attempts) OWNER TO memory_owner;

-- FUNCTION _kind_problems(p_kind text, p_attempt memory.import_attempts); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._kind_problems(p_kind text, p_attempt memory.import_attempts) IS 'Internal: count mismatches, missing embeddings and dangling edges of one record kind of an import attempt';

-- FUNCTION _kind_problems(p_kind text, p_attempt memory.import_attempts); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._kind_problems(p_kind text, p_attempt memory.import_attempts) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._kind_problems(p_kind text, p_attempt memory.import_attempts) TO memory_writer;

-- _known(anyelement, uuid, uuid, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid, p_known_at timestamp with time zone) RETURNS SETOF anyelement
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind memory.record_kind := memory._kind(
        (SELECT c.relname FROM pg_catalog.pg_class AS c
          WHERE c.reltype = pg_catalog.pg_typeof(p_row)::oid
            AND c.relnamespace = 'memory'::pg_catalog.regnamespace));
BEGIN
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT r.* FROM %1$s AS r'
        ' WHERE r.tenant_id = $1 AND r.simulation_id = $2 AND r.updated_at <= $3'
        ' UNION ALL'
        ' SELECT r.*'
        '   FROM memory.row_history AS h'
        '  CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::%1$s, h.data) AS r'
        '  WHERE h.tenant_id = $1 AND h.simulation_id = $2 AND h.kind = %2$L'
        '    AND h.recorded_from <= $3 AND h.recorded_to > $3',
        v_kind.live, v_kind.kind)
    USING p_tenant_id, p_simulation_id, p_known_at;
END
$_$;

ALTER FUNCTION memory._known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid, p_known_at timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid, p_known_at timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid, p_known_at timestamp with time zone) IS 'Internal: the rows of a record kind in a simulation as the memory held them at a moment (record time)';

-- FUNCTION _known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid, p_known_at timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid, p_known_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid, p_known_at timestamp with time zone) TO memory_reader;

-- _label_max(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._label_max() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 200
$$;

ALTER FUNCTION memory._label_max() OWNER TO memory_owner;

-- FUNCTION _label_max(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._label_max() IS 'Internal: the most characters a label (a type or a platform) may have';

-- FUNCTION _label_max(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._label_max() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._label_max() TO memory_reader;
GRANT ALL ON FUNCTION memory._label_max() TO memory_writer;
GRANT ALL ON FUNCTION memory._label_max() TO memory_admin;

-- _limit(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._limit(p_name text) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_limit bigint := CASE p_name
        WHEN 'batch_rows' THEN 10000
        WHEN 'batch_bytes' THEN 64 * 1024 * 1024
        WHEN 'object_bytes' THEN 1024 * 1024
        WHEN 'string_bytes' THEN 1024 * 1024
        WHEN 'list_elements' THEN 1000
        WHEN 'quoted_chars' THEN 200
        WHEN 'cache_hashes' THEN 100000
        WHEN 'word_candidates' THEN 300
        WHEN 'question_bytes' THEN 4096
        WHEN 'name_comparisons' THEN 1000
        WHEN 'health_sample' THEN 100 END;
BEGIN
    RETURN COALESCE(v_limit, memory._one_of('limit', p_name, '{batch_rows, batch_bytes, object_bytes, string_bytes, list_elements, quoted_chars, cache_hashes, word_candidates, question_bytes, name_comparisons, health_sample}')::bigint);
END
$$;

ALTER FUNCTION memory._limit(p_name text) OWNER TO memory_owner;

-- FUNCTION _limit(p_name text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._limit(p_name text) IS 'Internal: the cap of a named limit (batch_rows, batch_bytes, object_bytes, string_bytes, list_elements, quoted_chars, cache_hashes, word_candidates, question_bytes, name_comparisons, health_sample)';

-- FUNCTION _limit(p_name text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._limit(p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._limit(p_name text) TO memory_reader;
GRANT ALL ON FUNCTION memory._limit(p_name text) TO memory_writer;
GRANT ALL ON FUNCTION memory._limit(p_name text) TO memory_admin;

-- _link_evidence(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._link_evidence(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(sources bigint, mentions bigint, added bigint, removed bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET enable_nestloop TO 'off'
    AS $$
DECLARE
    v_want        memory.edge_evidence[];
    v_added       bigint;
    v_removed     bigint;
    v_actions     bigint;
    v_facts       bigint;
    v_common      bigint;
    v_meaning     boolean;
    c_meaning_z    constant double precision := 2.0;
    c_meaning_top  constant integer := 10;
    c_meaning_min  constant integer := 30;
    c_meaning_pairs constant bigint := 1000000;
    c_fact_words   constant integer := 2;
    c_common_share constant double precision := 0.1;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    SELECT pg_catalog.count(*) INTO v_actions FROM memory.episodes AS x
     WHERE x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id AND x.content IS NOT NULL;
    SELECT pg_catalog.count(*) INTO v_facts FROM memory.edges AS d
     WHERE d.tenant_id = p_tenant_id AND d.simulation_id = p_simulation_id AND d.embedding IS NOT NULL;
    v_common := GREATEST(pg_catalog.ceil(v_actions * c_common_share)::bigint, 2);
    v_meaning := v_facts * v_actions <= c_meaning_pairs;
    v_want := ARRAY(
        WITH facts AS MATERIALIZED (
            SELECT d.edge_key, d.source_key, d.target_key, d.valid_at, d.invalid_at, d.attributes, d.fact,
                   d.embedding, d.embedding_model
              FROM memory.edges AS d
             WHERE d.tenant_id = p_tenant_id AND d.simulation_id = p_simulation_id
        ), names AS MATERIALIZED (
            SELECT n.node_key, v.label, pg_catalog.lower(v.label) AS needle
              FROM memory.nodes AS n
             CROSS JOIN LATERAL memory._entity_names(n.name, n.attributes) AS v (label)
             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
               AND n.node_key IN (SELECT f.source_key FROM facts AS f UNION SELECT f.target_key FROM facts AS f)
        ), name_words AS MATERIALIZED (
            -- each name's words as the postings hold them (memory._words_doc)
            SELECT nm.node_key, nm.label, nm.needle, w.word
              FROM names AS nm
             CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.tsvector_to_array(memory._words_doc(nm.label))) AS w (word)
        ), fact_words AS MATERIALIZED (
            SELECT DISTINCT f.edge_key, w.word
              FROM facts AS f
             CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.tsvector_to_array(memory._words_doc(f.fact))) AS w (word)
             WHERE f.fact IS NOT NULL
        ), act_words AS MATERIALIZED (
            -- the actions holding some name's or fact's word: each word looked up in the words
            -- index (memory.word_postings, V0020) by equality, which row-level security lets
            -- the index serve
            SELECT p.row_key AS episode_key, p.word
              FROM (SELECT nw.word FROM name_words AS nw UNION SELECT fw.word FROM fact_words AS fw) AS w
             CROSS JOIN LATERAL (SELECT p.row_key, p.word FROM memory.word_postings AS p
                                  WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                                    AND p.word = w.word AND p.kind = 'e') AS p
        ), word_counts AS MATERIALIZED (
            SELECT a.word, pg_catalog.count(*) AS n FROM act_words AS a GROUP BY a.word
        ), rarest AS (
            -- each name by its rarest word among the actions: the actions holding that word
            -- are the only ones that can hold the name
            SELECT DISTINCT ON (nw.node_key, nw.label) nw.node_key, nw.label, nw.needle, nw.word
              FROM name_words AS nw
              LEFT JOIN word_counts AS c ON c.word = nw.word
             ORDER BY nw.node_key, nw.label, COALESCE(c.n, 0), nw.word
        ), agent_list AS MATERIALIZED (
            SELECT DISTINCT x.agent_name, pg_catalog.lower(x.agent_name) AS lowered FROM memory.episodes AS x
             WHERE x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
               AND x.content IS NOT NULL AND x.agent_name IS NOT NULL
        ), agents AS MATERIALIZED (
            -- the names each agent's name holds: names x agents (both small) first, so that
            -- the episodes join by equality (a plan that compared every name with every
            -- episode's agent, chosen when the new rows had no statistics yet, did not finish
            -- on a large import)
            SELECT nm.node_key, nm.label, g.agent_name
              FROM names AS nm
              JOIN agent_list AS g ON pg_catalog.strpos(g.lowered, nm.needle) > 0
        ), named AS (
            -- in the text: the actions holding the name's rarest word, then the name itself
            -- as a substring; as the agent: by the agents' names
            SELECT r.node_key, r.label, x.episode_key, x.episode_id, x.occurred_at,
                   memory._action_said(x.content, x.metadata) IS NOT NULL AS said
              FROM rarest AS r
              JOIN act_words AS a ON a.word = r.word
              JOIN memory.episodes AS x ON x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                   AND x.episode_key = a.episode_key
             WHERE pg_catalog.strpos(pg_catalog.lower(x.content), r.needle) > 0
            UNION
            SELECT g.node_key, g.label, x.episode_key, x.episode_id, x.occurred_at,
                   memory._action_said(x.content, x.metadata) IS NOT NULL
              FROM agents AS g
              JOIN memory.episodes AS x ON x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                   AND x.agent_name = g.agent_name AND x.content IS NOT NULL
        ), hits AS MATERIALIZED (
            SELECT n.node_key, n.episode_key, n.episode_id, n.occurred_at, n.said,
                   pg_catalog.array_agg(n.label ORDER BY n.label) AS labels
              FROM named AS n
             GROUP BY n.node_key, n.episode_key, n.episode_id, n.occurred_at, n.said
        ), fact_terms AS MATERIALIZED (
            -- the words of a fact that can stand beside one of its entities: not a word of
            -- that entity's names, and not common among the actions
            SELECT f.edge_key, e.node_key, fw.word
              FROM facts AS f
             CROSS JOIN LATERAL (SELECT f.source_key UNION SELECT f.target_key) AS e (node_key)
              JOIN fact_words AS fw ON fw.edge_key = f.edge_key
              LEFT JOIN word_counts AS c ON c.word = fw.word
             WHERE COALESCE(c.n, 0) <= v_common
               AND NOT EXISTS (SELECT 1 FROM name_words AS nw WHERE nw.node_key = e.node_key AND nw.word = fw.word)
        ), term_need AS (
            SELECT t.edge_key, t.node_key, LEAST(pg_catalog.count(*), c_fact_words) AS need
              FROM fact_terms AS t GROUP BY t.edge_key, t.node_key
        ), by_names AS (
            -- both entities named
            SELECT f.edge_key, hs.episode_id, hs.occurred_at, 0 AS rank,
                   CASE WHEN f.source_key = f.target_key THEN hs.labels
                        ELSE hs.labels OPERATOR(pg_catalog.||) ht.labels END AS matched
              FROM facts AS f
              JOIN hits AS hs ON hs.node_key = f.source_key
              JOIN hits AS ht ON ht.node_key = f.target_key AND ht.episode_key = hs.episode_key
            UNION ALL
            -- one entity named, with words of the fact
            SELECT t.edge_key, h.episode_id, h.occurred_at, 1,
                   h.labels OPERATOR(pg_catalog.||) pg_catalog.array_agg(DISTINCT t.word ORDER BY t.word)
              FROM fact_terms AS t
              JOIN hits AS h ON h.node_key = t.node_key AND h.said
              JOIN act_words AS a ON a.word = t.word AND a.episode_key = h.episode_key
              JOIN term_need AS q ON q.edge_key = t.edge_key AND q.node_key = t.node_key
             GROUP BY t.edge_key, t.node_key, h.episode_id, h.occurred_at, h.labels, q.need
            HAVING pg_catalog.count(DISTINCT t.word) >= q.need
        ), names_best AS (
            SELECT DISTINCT ON (b.edge_key, b.episode_id) b.edge_key, b.episode_id, b.matched
              FROM by_names AS b
              JOIN facts AS f ON f.edge_key = b.edge_key
             WHERE b.occurred_at IS NULL
                OR (b.occurred_at >= COALESCE(f.valid_at, '-infinity') AND b.occurred_at < COALESCE(f.invalid_at, 'infinity'))
             ORDER BY b.edge_key, b.episode_id, b.rank, pg_catalog.cardinality(b.matched) DESC
        ), meaning_stats AS MATERIALIZED (
            -- each fact's cosines over the simulation's actions with text, of its model
            SELECT f.edge_key, pg_catalog.avg(c.cos) AS mean, pg_catalog.stddev_pop(c.cos) AS sd,
                   pg_catalog.count(*) AS n
              FROM facts AS f
              JOIN memory.episodes AS x ON x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                   AND x.embedding_model = f.embedding_model
             CROSS JOIN LATERAL (SELECT 1 - (x.embedding OPERATOR(public.<=>) f.embedding) AS cos) AS c
             WHERE v_meaning AND f.embedding IS NOT NULL
               AND memory._action_said(x.content, x.metadata) IS NOT NULL
             GROUP BY f.edge_key
        ), by_meaning AS (
            SELECT f.edge_key, t.episode_id
              FROM facts AS f
              JOIN meaning_stats AS s ON s.edge_key = f.edge_key AND s.n >= c_meaning_min AND s.sd > 0
             CROSS JOIN LATERAL (
                   SELECT x.episode_id, 1 - (x.embedding OPERATOR(public.<=>) f.embedding) AS cos
                     FROM memory.episodes AS x
                    WHERE x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                      AND x.embedding_model = f.embedding_model
                      AND memory._action_said(x.content, x.metadata) IS NOT NULL
                      AND (x.occurred_at IS NULL
                           OR (x.occurred_at >= COALESCE(f.valid_at, '-infinity')
                               AND x.occurred_at < COALESCE(f.invalid_at, 'infinity')))
                    ORDER BY x.embedding OPERATOR(public.<=>) f.embedding, x.episode_id
                    LIMIT c_meaning_top) AS t
             WHERE (t.cos - s.mean) / s.sd >= c_meaning_z
        ), mentions AS (
            SELECT COALESCE(nb.edge_key, bm.edge_key) AS edge_key, COALESCE(nb.episode_id, bm.episode_id) AS episode_id,
                   nb.matched,
                   CASE WHEN nb.edge_key IS NULL THEN ARRAY['meaning']
                        WHEN bm.edge_key IS NULL THEN ARRAY['names']
                        ELSE ARRAY['names', 'meaning'] END AS found_by
              FROM names_best AS nb
              FULL JOIN by_meaning AS bm ON bm.edge_key = nb.edge_key AND bm.episode_id = nb.episode_id
        )
        SELECT ROW(p_tenant_id, p_simulation_id, w.edge_key, w.kind, w.episode_id,
                   pg_catalog.md5(w.episode_id)::uuid, w.position, w.matched, w.found_by,
                   (SELECT (1 - (x.embedding OPERATOR(public.<=>) f.embedding))::real
                      FROM facts AS f
                      JOIN memory.episodes AS x ON x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                           AND x.episode_key = pg_catalog.md5(w.episode_id)::uuid
                           AND x.embedding_model = f.embedding_model
                     WHERE f.edge_key = w.edge_key))::memory.edge_evidence
          FROM (SELECT m.edge_key, 'mention' AS kind, m.episode_id, NULL::integer AS position, m.matched, m.found_by
                  FROM mentions AS m
                UNION ALL
                (SELECT DISTINCT ON (f.edge_key, s.id) f.edge_key, 'source', s.id, s.ord::integer, NULL::text[],
                        ARRAY['id']
                   FROM facts AS f
                  CROSS JOIN LATERAL pg_catalog.jsonb_array_elements_text(
                             CASE pg_catalog.jsonb_typeof(f.attributes -> 'episodes')
                                  WHEN 'array' THEN f.attributes -> 'episodes' ELSE '[]'::jsonb END)
                             WITH ORDINALITY AS s (id, ord)
                  WHERE s.id <> ''
                  ORDER BY f.edge_key, s.id, s.ord)) AS w);

    DELETE FROM memory.edge_evidence AS l
     WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
       AND NOT EXISTS (SELECT 1 FROM pg_catalog.unnest(v_want) AS w
                        WHERE w.edge_key = l.edge_key AND w.kind = l.kind AND w.episode_key = l.episode_key
                          AND w.position IS NOT DISTINCT FROM l.position
                          AND w.matched IS NOT DISTINCT FROM l.matched
                          AND w.found_by IS NOT DISTINCT FROM l.found_by
                          AND w.score IS NOT DISTINCT FROM l.score);
    GET DIAGNOSTICS v_removed = ROW_COUNT;
    INSERT INTO memory.edge_evidence (tenant_id, simulation_id, edge_key, kind, episode_id, position, matched,
                                      found_by, score)
    SELECT w.tenant_id, w.simulation_id, w.edge_key, w.kind, w.episode_id, w.position, w.matched, w.found_by, w.score
      FROM pg_catalog.unnest(v_want) AS w
     WHERE NOT EXISTS (SELECT 1 FROM memory.edge_evidence AS l
                        WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
                          AND l.edge_key = w.edge_key AND l.kind = w.kind AND l.episode_key = w.episode_key);
    GET DIAGNOSTICS v_added = ROW_COUNT;
    RETURN QUERY
    SELECT pg_catalog.count(*) FILTER (WHERE w.kind = 'source'),
           pg_catalog.count(*) FILTER (WHERE w.kind = 'mention'), v_added, v_removed
      FROM pg_catalog.unnest(v_want) AS w;
END
$$;

ALTER FUNCTION memory._link_evidence(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION _link_evidence(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._link_evidence(p_tenant_id uuid, p_simulation_id uuid) IS 'Internal: bring a simulation''s edge evidence (source episodes; actions supporting a fact by names or meaning in its validity window) up to date, writing only what differs (SECURITY DEFINER: tenant roles do not write memory.edge_evidence)';

-- FUNCTION _link_evidence(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._link_evidence(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._link_evidence(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- _merge(text, uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb DEFAULT NULL::jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_inserted  bigint;
    v_updated   bigint;
    v_unchanged bigint;
BEGIN
    EXECUTE pg_catalog.format('SELECT * FROM memory.%I($1, $2, $3, $4)', '_merge_' || (memory._kind(p_kind)).kind)
       INTO v_inserted, v_updated, v_unchanged
      USING p_tenant_id, p_simulation_id, p_attempt_id, p_items;
    IF v_inserted > 0 THEN
        PERFORM memory._check_quota(p_tenant_id, p_kind);
    END IF;
    RETURN QUERY SELECT v_inserted, v_updated, v_unchanged;
END
$_$;

ALTER FUNCTION memory._merge(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: insert or update rows of a record kind from an import attempt or a jsonb batch';

-- FUNCTION _merge(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_edges(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_edges(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.edges AS t (tenant_id, simulation_id, edge_id, type, source_id, target_id, fact, attributes, valid_at, invalid_at, embedding, embedding_model, content_hash, source, learned_at, expired_at, sim_no) SELECT $1, $2, s.edge_id, s.type, s.source_id, s.target_id, s.fact, COALESCE(s.attributes, '{}'::jsonb), s.valid_at, s.invalid_at, COALESCE(s.embedding, l.embedding), COALESCE(CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, l.embedding_model), s.content_hash, COALESCE(s.source, 'import'::text), s.learned_at, s.expired_at, (SELECT v.sim_no FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2) FROM memory.staged_edges AS s LEFT JOIN memory.edges AS l ON s.embedding IS NULL AND s.content_hash IS NOT NULL AND l.tenant_id = $1 AND l.simulation_id = $2 AND l.edge_key = s.edge_key AND l.content_hash = s.content_hash WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT edges_pkey DO UPDATE SET edge_id = excluded.edge_id, type = excluded.type, source_id = excluded.source_id, target_id = excluded.target_id, fact = excluded.fact, attributes = excluded.attributes, valid_at = excluded.valid_at, invalid_at = excluded.invalid_at, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, learned_at = excluded.learned_at, expired_at = excluded.expired_at, updated_at = excluded.updated_at WHERE (t.edge_id, t.type, t.source_id, t.target_id, t.fact, t.attributes, t.valid_at, t.invalid_at, t.embedding::real[], t.embedding_model, t.content_hash, t.source, t.learned_at, t.expired_at) IS DISTINCT FROM (excluded.edge_id, excluded.type, excluded.source_id, excluded.target_id, excluded.fact, excluded.attributes, excluded.valid_at, excluded.invalid_at, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source, excluded.learned_at, excluded.expired_at) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_edges AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.edges AS t (tenant_id, simulation_id, edge_id, type, source_id, target_id, fact, attributes, valid_at, invalid_at, embedding, embedding_model, content_hash, source, learned_at, expired_at, sim_no) SELECT $1, $2, s.edge_id, s.type, s.source_id, s.target_id, s.fact, COALESCE(s.attributes, '{}'::jsonb), s.valid_at, s.invalid_at, s.embedding, CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, s.content_hash, COALESCE(s.source, 'import'::text), s.learned_at, s.expired_at, (SELECT v.sim_no FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_edges, '{"source": "api"}'::jsonb || (i.item - '{content_hash,edge_id,position,source}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb)) || pg_catalog.jsonb_build_object('edge_id', i.item -> 'id')) AS s ON CONFLICT ON CONSTRAINT edges_pkey DO UPDATE SET edge_id = excluded.edge_id, type = excluded.type, source_id = excluded.source_id, target_id = excluded.target_id, fact = excluded.fact, attributes = excluded.attributes, valid_at = excluded.valid_at, invalid_at = excluded.invalid_at, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, learned_at = excluded.learned_at, expired_at = excluded.expired_at, updated_at = excluded.updated_at WHERE (t.edge_id, t.type, t.source_id, t.target_id, t.fact, t.attributes, t.valid_at, t.invalid_at, t.embedding::real[], t.embedding_model, t.content_hash, t.source, t.learned_at, t.expired_at) IS DISTINCT FROM (excluded.edge_id, excluded.type, excluded.source_id, excluded.target_id, excluded.fact, excluded.attributes, excluded.valid_at, excluded.invalid_at, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source, excluded.learned_at, excluded.expired_at) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_edges(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_edges(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_edges(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of edges (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_edges(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_edges(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_edges(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_episodes(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_episodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.episodes AS t (tenant_id, simulation_id, episode_id, agent_id, agent_name, platform, round, action_type, content, metadata, occurred_at, embedding, embedding_model, content_hash, source, sim_no) SELECT $1, $2, s.episode_id, s.agent_id, s.agent_name, s.platform, s.round, s.action_type, s.content, COALESCE(s.metadata, '{}'::jsonb), s.occurred_at, COALESCE(s.embedding, l.embedding), COALESCE(CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, l.embedding_model), s.content_hash, COALESCE(s.source, 'import'::text), (SELECT v.sim_no FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2) FROM memory.staged_episodes AS s LEFT JOIN memory.episodes AS l ON s.embedding IS NULL AND s.content_hash IS NOT NULL AND l.tenant_id = $1 AND l.simulation_id = $2 AND l.episode_key = s.episode_key AND l.content_hash = s.content_hash WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT episodes_pkey DO UPDATE SET episode_id = excluded.episode_id, agent_id = excluded.agent_id, agent_name = excluded.agent_name, platform = excluded.platform, round = excluded.round, action_type = excluded.action_type, content = excluded.content, metadata = excluded.metadata, occurred_at = excluded.occurred_at, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, updated_at = excluded.updated_at WHERE (t.episode_id, t.agent_id, t.agent_name, t.platform, t.round, t.action_type, t.content, t.metadata, t.occurred_at, t.embedding::real[], t.embedding_model, t.content_hash, t.source) IS DISTINCT FROM (excluded.episode_id, excluded.agent_id, excluded.agent_name, excluded.platform, excluded.round, excluded.action_type, excluded.content, excluded.metadata, excluded.occurred_at, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_episodes AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.episodes AS t (tenant_id, simulation_id, episode_id, agent_id, agent_name, platform, round, action_type, content, metadata, occurred_at, embedding, embedding_model, content_hash, source, sim_no) SELECT $1, $2, s.episode_id, s.agent_id, s.agent_name, s.platform, s.round, s.action_type, s.content, COALESCE(s.metadata, '{}'::jsonb), s.occurred_at, s.embedding, CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, s.content_hash, COALESCE(s.source, 'import'::text), (SELECT v.sim_no FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_episodes, '{"source": "api"}'::jsonb || (i.item - '{content_hash,episode_id,position,source}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb)) || pg_catalog.jsonb_build_object('episode_id', i.item -> 'id')) AS s ON CONFLICT ON CONSTRAINT episodes_pkey DO UPDATE SET episode_id = excluded.episode_id, agent_id = excluded.agent_id, agent_name = excluded.agent_name, platform = excluded.platform, round = excluded.round, action_type = excluded.action_type, content = excluded.content, metadata = excluded.metadata, occurred_at = excluded.occurred_at, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, updated_at = excluded.updated_at WHERE (t.episode_id, t.agent_id, t.agent_name, t.platform, t.round, t.action_type, t.content, t.metadata, t.occurred_at, t.embedding::real[], t.embedding_model, t.content_hash, t.source) IS DISTINCT FROM (excluded.episode_id, excluded.agent_id, excluded.agent_name, excluded.platform, excluded.round, excluded.action_type, excluded.content, excluded.metadata, excluded.occurred_at, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_episodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_episodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_episodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of episodes (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_episodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_episodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_episodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_nodes(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_nodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.nodes AS t (tenant_id, simulation_id, node_id, name, type, labels, summary, attributes, embedding, embedding_model, content_hash, source, summary_embedding, sim_no) SELECT $1, $2, s.node_id, s.name, s.type, COALESCE(s.labels, '{}'::text[]), s.summary, COALESCE(s.attributes, '{}'::jsonb), COALESCE(s.embedding, l.embedding), COALESCE(CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, l.embedding_model), s.content_hash, COALESCE(s.source, 'import'::text), COALESCE(s.summary_embedding, l.summary_embedding), (SELECT v.sim_no FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2) FROM memory.staged_nodes AS s LEFT JOIN memory.nodes AS l ON s.embedding IS NULL AND s.content_hash IS NOT NULL AND l.tenant_id = $1 AND l.simulation_id = $2 AND l.node_key = s.node_key AND l.content_hash = s.content_hash WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT nodes_pkey DO UPDATE SET node_id = excluded.node_id, name = excluded.name, type = excluded.type, labels = excluded.labels, summary = excluded.summary, attributes = excluded.attributes, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, summary_embedding = excluded.summary_embedding, updated_at = excluded.updated_at WHERE (t.node_id, t.name, t.type, t.labels, t.summary, t.attributes, t.embedding::real[], t.embedding_model, t.content_hash, t.source, t.summary_embedding::real[]) IS DISTINCT FROM (excluded.node_id, excluded.name, excluded.type, excluded.labels, excluded.summary, excluded.attributes, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source, excluded.summary_embedding::real[]) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_nodes AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.nodes AS t (tenant_id, simulation_id, node_id, name, type, labels, summary, attributes, embedding, embedding_model, content_hash, source, summary_embedding, sim_no) SELECT $1, $2, s.node_id, s.name, s.type, COALESCE(s.labels, '{}'::text[]), s.summary, COALESCE(s.attributes, '{}'::jsonb), s.embedding, CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, s.content_hash, COALESCE(s.source, 'import'::text), s.summary_embedding, (SELECT v.sim_no FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_nodes, '{"type": "Entity", "source": "api"}'::jsonb || (i.item - '{content_hash,node_id,position,source}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb)) || pg_catalog.jsonb_build_object('node_id', i.item -> 'id')) AS s ON CONFLICT ON CONSTRAINT nodes_pkey DO UPDATE SET node_id = excluded.node_id, name = excluded.name, type = excluded.type, labels = excluded.labels, summary = excluded.summary, attributes = excluded.attributes, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, summary_embedding = excluded.summary_embedding, updated_at = excluded.updated_at WHERE (t.node_id, t.name, t.type, t.labels, t.summary, t.attributes, t.embedding::real[], t.embedding_model, t.content_hash, t.source, t.summary_embedding::real[]) IS DISTINCT FROM (excluded.node_id, excluded.name, excluded.type, excluded.labels, excluded.summary, excluded.attributes, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source, excluded.summary_embedding::real[]) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_nodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_nodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_nodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of nodes (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_nodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_nodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_nodes(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_predictions(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_predictions(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.predictions AS t (tenant_id, simulation_id, prediction_id, report_id, section_index, claim, horizon, confidence, metadata, source) SELECT $1, $2, s.prediction_id, s.report_id, s.section_index, s.claim, s.horizon, s.confidence, COALESCE(s.metadata, '{}'::jsonb), COALESCE(s.source, 'import'::text) FROM memory.staged_predictions AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT predictions_pkey DO UPDATE SET prediction_id = excluded.prediction_id, report_id = excluded.report_id, section_index = excluded.section_index, claim = excluded.claim, horizon = excluded.horizon, confidence = excluded.confidence, metadata = excluded.metadata, source = excluded.source, updated_at = excluded.updated_at WHERE (t.prediction_id, t.report_id, t.section_index, t.claim, t.horizon, t.confidence, t.metadata, t.source) IS DISTINCT FROM (excluded.prediction_id, excluded.report_id, excluded.section_index, excluded.claim, excluded.horizon, excluded.confidence, excluded.metadata, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_predictions AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.predictions AS t (tenant_id, simulation_id, prediction_id, report_id, section_index, claim, horizon, confidence, metadata, source) SELECT $1, $2, s.prediction_id, s.report_id, s.section_index, s.claim, s.horizon, s.confidence, COALESCE(s.metadata, '{}'::jsonb), COALESCE(s.source, 'import'::text) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_predictions, '{"source": "api"}'::jsonb || (i.item - '{position,prediction_id,source}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb)) || pg_catalog.jsonb_build_object('prediction_id', i.item -> 'id')) AS s ON CONFLICT ON CONSTRAINT predictions_pkey DO UPDATE SET prediction_id = excluded.prediction_id, report_id = excluded.report_id, section_index = excluded.section_index, claim = excluded.claim, horizon = excluded.horizon, confidence = excluded.confidence, metadata = excluded.metadata, source = excluded.source, updated_at = excluded.updated_at WHERE (t.prediction_id, t.report_id, t.section_index, t.claim, t.horizon, t.confidence, t.metadata, t.source) IS DISTINCT FROM (excluded.prediction_id, excluded.report_id, excluded.section_index, excluded.claim, excluded.horizon, excluded.confidence, excluded.metadata, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_predictions(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_predictions(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_predictions(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of predictions (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_predictions(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_predictions(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_predictions(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_profiles(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_profiles(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.profiles AS t (tenant_id, simulation_id, platform, agent_id, name, username, bio, persona, attributes, source) SELECT $1, $2, s.platform, s.agent_id, s.name, s.username, s.bio, s.persona, COALESCE(s.attributes, '{}'::jsonb), COALESCE(s.source, 'import'::text) FROM memory.staged_profiles AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT profiles_pkey DO UPDATE SET platform = excluded.platform, agent_id = excluded.agent_id, name = excluded.name, username = excluded.username, bio = excluded.bio, persona = excluded.persona, attributes = excluded.attributes, source = excluded.source, updated_at = excluded.updated_at WHERE (t.platform, t.agent_id, t.name, t.username, t.bio, t.persona, t.attributes, t.source) IS DISTINCT FROM (excluded.platform, excluded.agent_id, excluded.name, excluded.username, excluded.bio, excluded.persona, excluded.attributes, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_profiles AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.profiles AS t (tenant_id, simulation_id, platform, agent_id, name, username, bio, persona, attributes, source) SELECT $1, $2, s.platform, s.agent_id, s.name, s.username, s.bio, s.persona, COALESCE(s.attributes, '{}'::jsonb), COALESCE(s.source, 'import'::text) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_profiles, '{"source": "api"}'::jsonb || (i.item - '{position,source}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb))) AS s ON CONFLICT ON CONSTRAINT profiles_pkey DO UPDATE SET platform = excluded.platform, agent_id = excluded.agent_id, name = excluded.name, username = excluded.username, bio = excluded.bio, persona = excluded.persona, attributes = excluded.attributes, source = excluded.source, updated_at = excluded.updated_at WHERE (t.platform, t.agent_id, t.name, t.username, t.bio, t.persona, t.attributes, t.source) IS DISTINCT FROM (excluded.platform, excluded.agent_id, excluded.name, excluded.username, excluded.bio, excluded.persona, excluded.attributes, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_profiles(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_profiles(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_profiles(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of profiles (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_profiles(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_profiles(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_profiles(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_report_chunks(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_report_chunks(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.report_chunks AS t (tenant_id, simulation_id, chunk_id, report_id, section_index, chunk_index, content, embedding, embedding_model, content_hash, source) SELECT $1, $2, s.chunk_id, s.report_id, s.section_index, s.chunk_index, s.content, COALESCE(s.embedding, l.embedding), COALESCE(CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, l.embedding_model), s.content_hash, COALESCE(s.source, 'import'::text) FROM memory.staged_report_chunks AS s LEFT JOIN memory.report_chunks AS l ON s.embedding IS NULL AND s.content_hash IS NOT NULL AND l.tenant_id = $1 AND l.simulation_id = $2 AND l.chunk_key = s.chunk_key AND l.content_hash = s.content_hash WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT report_chunks_pkey DO UPDATE SET chunk_id = excluded.chunk_id, report_id = excluded.report_id, section_index = excluded.section_index, chunk_index = excluded.chunk_index, content = excluded.content, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, updated_at = excluded.updated_at WHERE (t.chunk_id, t.report_id, t.section_index, t.chunk_index, t.content, t.embedding::real[], t.embedding_model, t.content_hash, t.source) IS DISTINCT FROM (excluded.chunk_id, excluded.report_id, excluded.section_index, excluded.chunk_index, excluded.content, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_report_chunks AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.report_chunks AS t (tenant_id, simulation_id, chunk_id, report_id, section_index, chunk_index, content, embedding, embedding_model, content_hash, source) SELECT $1, $2, s.chunk_id, s.report_id, s.section_index, s.chunk_index, s.content, s.embedding, CASE WHEN s.embedding IS NOT NULL THEN COALESCE(s.embedding_model, memory._default_model()) END, s.content_hash, COALESCE(s.source, 'import'::text) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_report_chunks, '{"source": "api"}'::jsonb || (i.item - '{chunk_id,chunk_index,content,content_hash,embedding,embedding_model,position,report_id,section_index,source}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb)) || pg_catalog.jsonb_build_object('chunk_id', i.item -> 'id')) AS s ON CONFLICT ON CONSTRAINT report_chunks_pkey DO UPDATE SET chunk_id = excluded.chunk_id, report_id = excluded.report_id, section_index = excluded.section_index, chunk_index = excluded.chunk_index, content = excluded.content, embedding = excluded.embedding, embedding_model = excluded.embedding_model, content_hash = excluded.content_hash, source = excluded.source, updated_at = excluded.updated_at WHERE (t.chunk_id, t.report_id, t.section_index, t.chunk_index, t.content, t.embedding::real[], t.embedding_model, t.content_hash, t.source) IS DISTINCT FROM (excluded.chunk_id, excluded.report_id, excluded.section_index, excluded.chunk_index, excluded.content, excluded.embedding::real[], excluded.embedding_model, excluded.content_hash, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_report_chunks(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_report_chunks(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_report_chunks(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of report_chunks (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_report_chunks(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_report_chunks(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_report_chunks(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_report_log(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_report_log(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.report_log AS t (tenant_id, simulation_id, report_id, line_no, action, entry, source) SELECT $1, $2, s.report_id, s.line_no, s.action, s.entry, COALESCE(s.source, 'import'::text) FROM memory.staged_report_log AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT report_log_pkey DO UPDATE SET report_id = excluded.report_id, line_no = excluded.line_no, action = excluded.action, entry = excluded.entry, source = excluded.source, updated_at = excluded.updated_at WHERE (t.report_id, t.line_no, t.action, t.entry, t.source) IS DISTINCT FROM (excluded.report_id, excluded.line_no, excluded.action, excluded.entry, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_report_log AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.report_log AS t (tenant_id, simulation_id, report_id, line_no, action, entry, source) SELECT $1, $2, s.report_id, s.line_no, s.action, s.entry, COALESCE(s.source, 'import'::text) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_report_log, '{"source": "api"}'::jsonb || (i.item - '{action,entry,line_no,position,report_id,source}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb))) AS s ON CONFLICT ON CONSTRAINT report_log_pkey DO UPDATE SET report_id = excluded.report_id, line_no = excluded.line_no, action = excluded.action, entry = excluded.entry, source = excluded.source, updated_at = excluded.updated_at WHERE (t.report_id, t.line_no, t.action, t.entry, t.source) IS DISTINCT FROM (excluded.report_id, excluded.line_no, excluded.action, excluded.entry, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_report_log(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_report_log(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_report_log(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of report_log (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_report_log(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_report_log(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_report_log(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_report_sections(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_report_sections(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.report_sections AS t (tenant_id, simulation_id, report_id, section_index, title, markdown, source) SELECT $1, $2, s.report_id, s.section_index, s.title, s.markdown, COALESCE(s.source, 'import'::text) FROM memory.staged_report_sections AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT report_sections_pkey DO UPDATE SET report_id = excluded.report_id, section_index = excluded.section_index, title = excluded.title, markdown = excluded.markdown, source = excluded.source, updated_at = excluded.updated_at WHERE (t.report_id, t.section_index, t.title, t.markdown, t.source) IS DISTINCT FROM (excluded.report_id, excluded.section_index, excluded.title, excluded.markdown, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_report_sections AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.report_sections AS t (tenant_id, simulation_id, report_id, section_index, title, markdown, source) SELECT $1, $2, s.report_id, s.section_index, s.title, s.markdown, COALESCE(s.source, 'import'::text) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_report_sections, '{"source": "api"}'::jsonb || (i.item - '{markdown,position,report_id,section_index,source,title}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb))) AS s ON CONFLICT ON CONSTRAINT report_sections_pkey DO UPDATE SET report_id = excluded.report_id, section_index = excluded.section_index, title = excluded.title, markdown = excluded.markdown, source = excluded.source, updated_at = excluded.updated_at WHERE (t.report_id, t.section_index, t.title, t.markdown, t.source) IS DISTINCT FROM (excluded.report_id, excluded.section_index, excluded.title, excluded.markdown, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_report_sections(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_report_sections(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_report_sections(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of report_sections (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_report_sections(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_report_sections(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_report_sections(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_reports(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_reports(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    IF p_attempt_id IS NOT NULL THEN
        RETURN QUERY WITH written AS ( INSERT INTO memory.reports AS t (tenant_id, simulation_id, report_id, mirofish_simulation_id, graph_id, simulation_requirement, title, summary, status, started_at, completed_at, error, metadata, source) SELECT $1, $2, s.report_id, s.mirofish_simulation_id, s.graph_id, s.simulation_requirement, s.title, s.summary, s.status, s.started_at, s.completed_at, s.error, COALESCE(s.metadata, '{}'::jsonb), COALESCE(s.source, 'import'::text) FROM memory.staged_reports AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 ON CONFLICT ON CONSTRAINT reports_pkey DO UPDATE SET report_id = excluded.report_id, mirofish_simulation_id = excluded.mirofish_simulation_id, graph_id = excluded.graph_id, simulation_requirement = excluded.simulation_requirement, title = excluded.title, summary = excluded.summary, status = excluded.status, started_at = excluded.started_at, completed_at = excluded.completed_at, error = excluded.error, metadata = excluded.metadata, source = excluded.source, updated_at = excluded.updated_at WHERE (t.report_id, t.mirofish_simulation_id, t.graph_id, t.simulation_requirement, t.title, t.summary, t.status, t.started_at, t.completed_at, t.error, t.metadata, t.source) IS DISTINCT FROM (excluded.report_id, excluded.mirofish_simulation_id, excluded.graph_id, excluded.simulation_requirement, excluded.title, excluded.summary, excluded.status, excluded.started_at, excluded.completed_at, excluded.error, excluded.metadata, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        (SELECT pg_catalog.count(*) FROM memory.staged_reports AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3) - pg_catalog.count(*)   FROM written AS w;
    ELSE
        RETURN QUERY WITH written AS ( INSERT INTO memory.reports AS t (tenant_id, simulation_id, report_id, mirofish_simulation_id, graph_id, simulation_requirement, title, summary, status, started_at, completed_at, error, metadata, source) SELECT $1, $2, s.report_id, s.mirofish_simulation_id, s.graph_id, s.simulation_requirement, s.title, s.summary, s.status, s.started_at, s.completed_at, s.error, COALESCE(s.metadata, '{}'::jsonb), COALESCE(s.source, 'import'::text) FROM pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::memory.staged_reports, '{"source": "api"}'::jsonb || (i.item - '{completed_at,error,graph_id,metadata,mirofish_simulation_id,position,report_id,simulation_requirement,source,started_at,status,summary,title}'::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f WHERE f.value = 'null'::jsonb)) || pg_catalog.jsonb_build_object('report_id', i.item -> 'id')) AS s ON CONFLICT ON CONSTRAINT reports_pkey DO UPDATE SET report_id = excluded.report_id, mirofish_simulation_id = excluded.mirofish_simulation_id, graph_id = excluded.graph_id, simulation_requirement = excluded.simulation_requirement, title = excluded.title, summary = excluded.summary, status = excluded.status, started_at = excluded.started_at, completed_at = excluded.completed_at, error = excluded.error, metadata = excluded.metadata, source = excluded.source, updated_at = excluded.updated_at WHERE (t.report_id, t.mirofish_simulation_id, t.graph_id, t.simulation_requirement, t.title, t.summary, t.status, t.started_at, t.completed_at, t.error, t.metadata, t.source) IS DISTINCT FROM (excluded.report_id, excluded.mirofish_simulation_id, excluded.graph_id, excluded.simulation_requirement, excluded.title, excluded.summary, excluded.status, excluded.started_at, excluded.completed_at, excluded.error, excluded.metadata, excluded.source) RETURNING (t.xmax = 0) AS was_inserted) SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),        pg_catalog.jsonb_array_length($4) - pg_catalog.count(*)   FROM written AS w;
    END IF;
END
$_$;

ALTER FUNCTION memory._merge_reports(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _merge_reports(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_reports(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) IS 'Internal: the merge of reports (generated from memory._merge_sql on every deploy)';

-- FUNCTION _merge_reports(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_reports(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_reports(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb) TO memory_writer;

-- _merge_sql(text, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._merge_sql(p_kind text, p_staged boolean) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind   memory.record_kind := memory._kind(p_kind);
    v_vector boolean;
    v_cols   text;
    v_src    text;
    v_set    text;
    v_old    text;
    v_new    text;
    v_extra  text[];
    v_from   text;
    v_total  text;
    v_pkey   name;
    v_sim_cols text;
    v_sim_vals text;
BEGIN
    SELECT pg_catalog.bool_or(c.col = 'embedding') FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format('%I', c.col), ', ') FILTER (WHERE c.committed),
           pg_catalog.string_agg(CASE WHEN p_staged AND (c.check_kind = 'vector' OR c.col = 'embedding_model')
                                      THEN pg_catalog.format('COALESCE(%s, l.%I)', c.value_sql, c.col)
                                      ELSE c.value_sql END, ', ') FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format('%I = excluded.%I', c.col, c.col), ', ') FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format(
               CASE WHEN c.check_kind = 'vector' THEN 't.%I::real[]' ELSE 't.%I' END, c.col), ', ')
               FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format(
               CASE WHEN c.check_kind = 'vector' THEN 'excluded.%I::real[]' ELSE 'excluded.%I' END, c.col), ', ')
               FILTER (WHERE c.committed),
           pg_catalog.array_agg(c.col::text ORDER BY c.col) FILTER (WHERE NOT v_kind.batch_spec ? c.col)
      INTO v_vector, v_cols, v_src, v_set, v_old, v_new, v_extra
      FROM memory._kind_columns(p_kind) AS c;
    SELECT c.conname INTO v_pkey FROM pg_catalog.pg_constraint AS c
     WHERE c.conrelid = v_kind.live AND c.contype = 'p';
    -- Columns the committed table takes from its simulation (episodes.sim_no, the number of
    -- its search index; a foreign key holds it to the simulation's): the committed table has
    -- them without a default, the staged table does not, memory.simulations does. Read once
    -- a statement (an uncorrelated subquery), not once a row.
    SELECT COALESCE(pg_catalog.string_agg(pg_catalog.format(', %I', a.attname), ''), ''),
           COALESCE(pg_catalog.string_agg(pg_catalog.format(
               ', (SELECT v.%I FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2)',
               a.attname), ''), '')
      INTO v_sim_cols, v_sim_vals
      FROM pg_catalog.pg_attribute AS a
      LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = v_kind.live AND a.attnum > 0 AND NOT a.attisdropped AND d.adbin IS NULL
       AND a.attname NOT IN ('tenant_id', 'simulation_id')
       AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS st
                        WHERE st.attrelid = v_kind.staged AND st.attname = a.attname AND NOT st.attisdropped)
       AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS sa
                    WHERE sa.attrelid = 'memory.simulations'::pg_catalog.regclass
                      AND sa.attname = a.attname AND NOT sa.attisdropped);

    IF p_staged THEN
        v_from := pg_catalog.format('%s AS s', v_kind.staged)
            || CASE WHEN v_vector THEN pg_catalog.format(
                   ' LEFT JOIN %s AS l ON s.embedding IS NULL AND s.content_hash IS NOT NULL'
                   ' AND l.tenant_id = $1 AND l.simulation_id = $2 AND %s AND l.content_hash = s.content_hash',
                   v_kind.live, memory._kind_key(p_kind, 'l', 's')) ELSE '' END
            || ' WHERE s.tenant_id = $1 AND s.attempt_id = $3';
        v_total := pg_catalog.format('(SELECT pg_catalog.count(*) FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3)',
                                     v_kind.staged);
    ELSE
        -- Items: each read as the staged row type, with the id in the kind's id column,
        -- JSON nulls dropped so that defaults apply, no field the batch does not accept, and
        -- the source of a row written outside an import ('api', see V0010).
        v_from := pg_catalog.format(
            'pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record('
            'NULL::%s, %L::jsonb || (i.item - %L::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f'
            ' WHERE f.value = %L::jsonb))%s) AS s',
            v_kind.staged, v_kind.item_defaults || '{"source": "api"}'::jsonb, COALESCE(v_extra, '{}'), 'null',
            CASE WHEN v_kind.id_column IS NOT NULL
                 THEN pg_catalog.format(' || pg_catalog.jsonb_build_object(%L, i.item -> %L)', v_kind.id_column, 'id')
                 ELSE '' END);
        v_total := 'pg_catalog.jsonb_array_length($4)';
    END IF;

    RETURN pg_catalog.format(
        'WITH written AS ('
        ' INSERT INTO %1$s AS t (tenant_id, simulation_id, %2$s%9$s)'
        ' SELECT $1, $2, %3$s%10$s FROM %4$s'
        ' ON CONFLICT ON CONSTRAINT %5$I DO UPDATE SET %6$s, updated_at = excluded.updated_at'
        ' WHERE (%7$s) IS DISTINCT FROM (%8$s)'
        ' RETURNING (t.xmax = 0) AS was_inserted)'
        ' SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),'
        '        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),'
        '        %11$s - pg_catalog.count(*)'
        '   FROM written AS w',
        v_kind.live, v_cols, v_src, v_from, v_pkey, v_set, v_old, v_new, v_sim_cols, v_sim_vals, v_total);
END
$_$;

ALTER FUNCTION memory._merge_sql(p_kind text, p_staged boolean) OWNER TO memory_owner;

-- FUNCTION _merge_sql(p_kind text, p_staged boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._merge_sql(p_kind text, p_staged boolean) IS 'Internal: the merge statement of a record kind, from an import attempt or a jsonb batch, built from the catalog';

-- FUNCTION _merge_sql(p_kind text, p_staged boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._merge_sql(p_kind text, p_staged boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._merge_sql(p_kind text, p_staged boolean) TO memory_writer;

-- _model(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._model(p_model text) RETURNS memory.embedding_models
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT memory._not_null(p_model, 'p_model', 'pass the name of an embedding model (memory.list_models())');
    SELECT m.* FROM memory.embedding_models AS m
     WHERE m.model = memory._one_of('embedding model', p_model,
                                    ARRAY(SELECT k.model FROM memory.embedding_models AS k ORDER BY k.model),
                                    'pass one of the models memory.list_models() lists; a new model comes with a migration');
$$;

ALTER FUNCTION memory._model(p_model text) OWNER TO memory_owner;

-- FUNCTION _model(p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._model(p_model text) IS 'Internal: the registered embedding model of a name (22023 naming the known ones)';

-- FUNCTION _model(p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._model(p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._model(p_model text) TO memory_reader;
GRANT ALL ON FUNCTION memory._model(p_model text) TO memory_admin;

-- _name_candidates(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) RETURNS TABLE(node_key uuid, similarity real)
    LANGUAGE plpgsql STABLE ROWS 10
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    c_whole    constant integer := 512;
    c_run      constant integer := 256;
    v_prepared text := pg_catalog.lower(memory._words_text(p_text));
    v_runs     text[];
    v_keys     uuid[] := '{}';
    v_sims     real[] := '{}';
    v_kth      real := 0.5;
    v_sim      real;
    v_at       integer;
    v_cand     record;
    v_cap      integer := memory._limit('word_candidates');
    v_compares integer := memory._limit('name_comparisons');
BEGIN
    IF pg_catalog.char_length(v_prepared) <= c_whole THEN
        v_runs := ARRAY[v_prepared];
    ELSE
        -- the runs: the words (white space apart, a word cut every 128 characters)
        -- by where they start, each in the run starting at or before it and in the one before
        v_runs := ARRAY(
            SELECT pg_catalog.string_agg(t.word, ' ' ORDER BY t.n)
              FROM (SELECT m.word[1] AS word, m.n,
                           pg_catalog.sum(pg_catalog.char_length(m.word[1]) + 1) OVER (ORDER BY m.n)
                               - pg_catalog.char_length(m.word[1]) - 1 AS at
                      FROM pg_catalog.regexp_matches(v_prepared, '[^[:space:]]{1,128}', 'g')
                           WITH ORDINALITY AS m (word, n)) AS t
             CROSS JOIN LATERAL (VALUES (t.at / (c_run / 2)), (t.at / (c_run / 2) - 1)) AS r (run)
             WHERE r.run >= 0
             GROUP BY r.run
             ORDER BY r.run);
    END IF;
    FOR v_cand IN
        WITH runs AS MATERIALIZED (
            -- each run's trigrams as memory._name_match compares them (the whole text's: the
            -- t postings' side, memory._name_trigrams)
            SELECT x.run::integer AS run, public.show_trgm(x.body) AS grams
              FROM pg_catalog.unnest(v_runs) WITH ORDINALITY AS x (body, run)
        ), run AS MATERIALIZED (
            SELECT r.run, g.trigram FROM runs AS r CROSS JOIN LATERAL pg_catalog.unnest(r.grams) AS g (trigram)
        ), q AS MATERIALIZED (
            -- the text's trigrams, each with the number of names holding it (up to the cap)
            SELECT g.trigram,
                   (SELECT pg_catalog.count(*) FROM (
                        SELECT 1 FROM memory.word_postings AS p
                         WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                           AND p.word = g.trigram AND p.kind = 't'
                         LIMIT v_cap + 1) AS c) AS df
              FROM (SELECT DISTINCT r.trigram FROM run AS r) AS g
        ), posted AS MATERIALIZED (
            -- the names holding each of the rarer trigrams, read once whatever the runs
            SELECT q.trigram, p.row_key, p.doc_len
              FROM q JOIN memory.word_postings AS p
                ON p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
               AND p.word = q.trigram AND p.kind = 't'
             WHERE q.df <= v_cap
        ), rare AS MATERIALIZED (
            -- the names holding one of a run's rarer trigrams, with those it shares
            SELECT r.run, p.row_key, pg_catalog.count(*) AS shared, pg_catalog.min(p.doc_len) AS grams
              FROM run AS r JOIN posted AS p ON p.trigram = r.trigram
             GROUP BY r.run, p.row_key
        ), held AS MATERIALIZED (
            -- a common trigram held by each of the first 16 candidates (by the rarer
            -- trigrams they share, then key) is counted as shared by every candidate without
            -- reading who holds it: 'ent' in the bench's 10,000 "Entity 4321" names. Counting
            -- a trigram as shared keeps the bound an upper one, so the answer is the same;
            -- a name that does not hold it is only compared sooner than it need be. A text
            -- of several runs counts every common trigram of a run so, unread.
            SELECT r.run, q.trigram, true AS everywhere
              FROM run AS r JOIN q ON q.trigram = r.trigram AND q.df > v_cap
             WHERE pg_catalog.cardinality(v_runs) > 1
            UNION ALL
            SELECT 1, q.trigram, pg_catalog.bool_and(EXISTS (
                       SELECT 1 FROM memory.word_postings AS p
                        WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                          AND p.word = q.trigram AND p.kind = 't' AND p.row_key = r.row_key))
              FROM q CROSS JOIN (SELECT r.row_key FROM rare AS r ORDER BY r.shared DESC, r.row_key LIMIT 16) AS r
             WHERE q.df > v_cap AND pg_catalog.cardinality(v_runs) = 1
             GROUP BY q.trigram
            -- (the common trigrams, each once a run: the CTE common probes those not everywhere)
        ), how AS MATERIALIZED (
            -- the common trigrams each candidate holds, read by one probe a candidate and
            -- trigram, or, when the simulation has fewer than 32 names a candidate, by
            -- reading each common trigram's names whole (a range of the index, far cheaper
            -- a name than a probe; counting that far costs less than the probes would)
            -- The simulation's names are counted as its pair of entity indexes (V0035) counts its
            -- embedded entities, where it has one: cheaper than counting them here. The count only
            -- chooses how the shared trigrams are read, never which names are found.
            SELECT pg_catalog.cardinality(v_runs) = 1 AND COALESCE(
                       (SELECT c.reltuples::bigint
                          FROM memory.simulations AS s
                          JOIN pg_catalog.pg_class AS c
                            ON c.oid = pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(s.sim_no))
                         WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
                           AND c.reltuples >= 0),
                       (SELECT pg_catalog.count(*) FROM (
                            SELECT 1 FROM memory.nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                             LIMIT 32 * (SELECT pg_catalog.count(*) FROM rare) + 1) AS c))
                   <= 32 * (SELECT pg_catalog.count(*) FROM rare) AS whole
        ), common AS MATERIALIZED (
            SELECT h.run, h.row_key, pg_catalog.count(*) AS shared
              FROM (SELECT r.run, r.row_key
                      FROM held AS e JOIN rare AS r ON r.run = e.run
                     CROSS JOIN LATERAL (
                         -- by the whole key (OFFSET 0: the trigram a parameter, never a
                         -- filter over a skip scan of the simulation's postings)
                         SELECT 1 FROM memory.word_postings AS p
                          WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                            AND p.word = e.trigram AND p.kind = 't' AND p.row_key = r.row_key
                         OFFSET 0) AS p
                     WHERE NOT (SELECT h.whole FROM how AS h) AND NOT e.everywhere
                    UNION ALL
                    SELECT e.run, p.row_key
                      FROM held AS e JOIN memory.word_postings AS p
                        ON p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                       AND p.word = e.trigram AND p.kind = 't'
                     WHERE (SELECT h.whole FROM how AS h) AND NOT e.everywhere) AS h
             GROUP BY h.run, h.row_key
        ), counted AS MATERIALIZED (
            SELECT r.run, r.row_key, r.grams, r.shared AS rare,
                   r.shared + COALESCE(c.shared, 0) + COALESCE(e.shared, 0) AS shared,
                   pg_catalog.cardinality(x.grams) AS run_grams
              FROM rare AS r
              JOIN runs AS x ON x.run = r.run
              LEFT JOIN common AS c ON c.run = r.run AND c.row_key = r.row_key
              LEFT JOIN (SELECT e.run, pg_catalog.count(*) AS shared FROM held AS e WHERE e.everywhere GROUP BY e.run) AS e
                ON e.run = r.run
        )
        SELECT s.run, s.row_key, GREATEST(s.shared::real / s.grams, s.shared::real / s.run_grams) AS bound
          FROM counted AS s
         WHERE 2 * s.shared >= LEAST(s.grams, s.run_grams)
         ORDER BY 3 DESC, s.rare DESC, s.row_key, s.run
    LOOP
        -- the bound is a double precision ratio and the similarities pg_trgm's real ones: 8/10
        -- as a double is below 0.8 as a real, so an exact comparison stopped at the first tie
        -- of the p_limit-th similarity and returned an arbitrary part of the tied names (the
        -- graph arm's seeds changed from one call to the next); the margin keeps every tie
        EXIT WHEN v_cand.bound < v_kth - 1e-6 OR v_compares = 0;
        -- a name already found as close as this run could make it is not compared again
        v_at := pg_catalog.array_position(v_keys, v_cand.row_key);
        CONTINUE WHEN v_at IS NOT NULL AND v_sims[v_at] >= v_cand.bound - 1e-6;
        v_compares := v_compares - 1;
        SELECT memory._name_match(n.name, v_runs[v_cand.run::integer]) INTO v_sim
          FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = v_cand.row_key;
        IF v_sim IS NOT NULL AND v_at IS NULL THEN
            v_keys := v_keys OPERATOR(pg_catalog.||) v_cand.row_key;
            v_sims := v_sims OPERATOR(pg_catalog.||) v_sim;
        ELSIF v_sim > v_sims[v_at] THEN
            v_sims[v_at] := v_sim;
        ELSE
            CONTINUE;
        END IF;
        IF pg_catalog.cardinality(v_sims) >= p_limit THEN
            v_kth := (SELECT x.s FROM pg_catalog.unnest(v_sims) AS x (s) ORDER BY x.s DESC OFFSET p_limit - 1 LIMIT 1);
        END IF;
    END LOOP;
    RETURN QUERY SELECT u.k, u.s FROM ROWS FROM (pg_catalog.unnest(v_keys), pg_catalog.unnest(v_sims)) AS u (k, s) WHERE u.s >= v_kth;
END
$$;

ALTER FUNCTION memory._name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) OWNER TO memory_owner;

-- FUNCTION _name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) IS 'Internal: the entities whose names a text names or nearly names most closely (trigram word similarity >= 0.5), found through the trigram postings, a long text by runs of its words, at most memory._limit(''name_comparisons'') compared';

-- FUNCTION _name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) TO memory_reader;

-- _name_match(text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._name_match(p_name text, p_words text) RETURNS real
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_name       text := pg_catalog.lower(memory._words_text(p_name));
    v_similarity real := GREATEST(public.word_similarity(v_name, p_words), public.word_similarity(p_words, v_name));
BEGIN
    RETURN CASE WHEN v_similarity >= 0.5 THEN v_similarity END;
END
$$;

ALTER FUNCTION memory._name_match(p_name text, p_words text) OWNER TO memory_owner;

-- FUNCTION _name_match(p_name text, p_words text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._name_match(p_name text, p_words text) IS 'Internal: trigram word_similarity of a name within a prepared text (CJK as bigrams), NULL below 0.5';

-- FUNCTION _name_match(p_name text, p_words text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._name_match(p_name text, p_words text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._name_match(p_name text, p_words text) TO memory_reader;

-- _name_trigrams(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._name_trigrams(p_name text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT public.show_trgm(pg_catalog.lower(memory._words_text(p_name)))
$$;

ALTER FUNCTION memory._name_trigrams(p_name text) OWNER TO memory_owner;

-- FUNCTION _name_trigrams(p_name text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._name_trigrams(p_name text) IS 'Internal: the trigrams of a name as memory._name_match compares them (the t postings)';

-- FUNCTION _name_trigrams(p_name text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._name_trigrams(p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._name_trigrams(p_name text) TO memory_reader;
GRANT ALL ON FUNCTION memory._name_trigrams(p_name text) TO memory_writer;

-- _named_agents(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) RETURNS TABLE(agent_id integer, agent_name text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
WITH RECURSIVE ids (id, n) AS (
    SELECT (SELECT pg_catalog.min(e.agent_id) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id), 1
    UNION ALL
    SELECT (SELECT pg_catalog.min(e.agent_id) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.agent_id OPERATOR(pg_catalog.>) i.id), i.n OPERATOR(pg_catalog.+) 1
      FROM ids AS i
     WHERE i.id IS NOT NULL AND i.n OPERATOR(pg_catalog.<) memory._limit('word_candidates')
)
SELECT i.id, a.name
  FROM ids AS i
 CROSS JOIN LATERAL (SELECT e.agent_name AS name FROM memory.episodes AS e
                      WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                        AND e.agent_id = i.id AND e.agent_name IS NOT NULL
                      LIMIT 1) AS a
 WHERE i.id IS NOT NULL
   AND pg_catalog.char_length(pg_catalog.btrim(a.name)) OPERATOR(pg_catalog.>=) 2
   AND CASE WHEN a.name OPERATOR(pg_catalog.~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
            THEN pg_catalog.strpos(pg_catalog.lower(p_text), pg_catalog.lower(pg_catalog.btrim(a.name))) OPERATOR(pg_catalog.>) 0
            ELSE p_text OPERATOR(pg_catalog.~*)
                 ('(^|[^[:alnum:]])'
                  OPERATOR(pg_catalog.||) pg_catalog.regexp_replace(pg_catalog.btrim(a.name), '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g')
                  OPERATOR(pg_catalog.||) '($|[^[:alnum:]])') END
 ORDER BY pg_catalog.char_length(a.name) DESC, i.id
 LIMIT p_limit
$_$;

ALTER FUNCTION memory._named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) OWNER TO memory_owner;

-- FUNCTION _named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) IS 'Internal: the agents of a simulation a question names (whole words; CJK names wherever they occur)';

-- FUNCTION _named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) TO memory_reader;

-- _near_copy(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._near_copy() RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT 0.99::double precision
$$;

ALTER FUNCTION memory._near_copy() OWNER TO memory_owner;

-- FUNCTION _near_copy(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._near_copy() IS 'Internal: the cosine at and above which two vectors are copies of one text';

-- FUNCTION _near_copy(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._near_copy() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._near_copy() TO memory_reader;
GRANT ALL ON FUNCTION memory._near_copy() TO memory_writer;
GRANT ALL ON FUNCTION memory._near_copy() TO memory_admin;

-- _node_group(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._node_group() RETURNS integer
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_local_group') IS NULL THEN
        RETURN 0;
    END IF;
    RETURN (SELECT l.groupid FROM pg_catalog.pg_dist_local_group AS l);
END
$$;

ALTER FUNCTION memory._node_group() OWNER TO memory_owner;

-- FUNCTION _node_group(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._node_group() IS 'Internal: the Citus group id of this node (0: the coordinator, or one node without Citus)';

-- FUNCTION _node_group(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._node_group() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._node_group() TO memory_reader;
GRANT ALL ON FUNCTION memory._node_group() TO memory_writer;
GRANT ALL ON FUNCTION memory._node_group() TO memory_admin;

-- _node_role_oids(oid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._node_role_oids(p_role_oid oid) RETURNS jsonb
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_name  name := (SELECT r.rolname FROM pg_catalog.pg_roles AS r WHERE r.oid = p_role_oid);
    v_group integer := memory._node_group();
    v_map   jsonb;
    v_bad   text;
BEGIN
    IF v_name IS NULL THEN
        RAISE EXCEPTION 'no role has OID %', p_role_oid
            USING ERRCODE = 'undefined_object', HINT = 'name an existing role';
    END IF;
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_node') IS NULL THEN
        RETURN NULL;  -- no Citus (a separate test: the next one names a Citus table)
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_node AS n WHERE n.groupid <> v_group) THEN
        RETURN NULL;
    END IF;
    SELECT pg_catalog.jsonb_object_agg(n.groupid::text, CASE WHEN r.success AND COALESCE(r.result, '') ~ '^[0-9]+$' THEN r.result::oid END) FILTER (WHERE r.success AND COALESCE(r.result, '') ~ '^[0-9]+$'),
           pg_catalog.string_agg(pg_catalog.format('%s:%s (%s)', n.nodename, n.nodeport,
                                                   CASE WHEN r.success THEN 'no such role' ELSE r.result END), ', ')
               FILTER (WHERE NOT (r.success AND COALESCE(r.result, '') ~ '^[0-9]+$'))
      INTO v_map, v_bad
      FROM pg_catalog.run_command_on_all_nodes(
               pg_catalog.format('SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = %L', v_name)) AS r
      JOIN pg_catalog.pg_dist_node AS n ON n.nodeid = r.nodeid
     WHERE n.groupid <> v_group AND n.noderole = 'primary';
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'role % (OID %) is not known on every node of the cluster: %', v_name, p_role_oid, v_bad
            USING ERRCODE = 'undefined_object',
                  HINT = 'create roles on the coordinator (Citus creates them on the workers), and run swarm-memory distribute after adding a node';
    END IF;
    RETURN COALESCE(v_map, '{}'::jsonb) || pg_catalog.jsonb_build_object(v_group::text, p_role_oid);
END
$_$;

ALTER FUNCTION memory._node_role_oids(p_role_oid oid) OWNER TO memory_owner;

-- FUNCTION _node_role_oids(p_role_oid oid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._node_role_oids(p_role_oid oid) IS 'Internal: a role''s OID on every node of a Citus cluster by group id (NULL without Citus), for memory.tenant_grants.node_role_oids';

-- FUNCTION _node_role_oids(p_role_oid oid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._node_role_oids(p_role_oid oid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._node_role_oids(p_role_oid oid) TO memory_admin;

-- _not_null(anyelement, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF p_value IS NULL THEN
        RAISE EXCEPTION '% must not be NULL', p_arg
            USING ERRCODE = 'null_value_not_allowed', HINT = p_hint;
    END IF;
END
$$;

ALTER FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) OWNER TO memory_owner;

-- FUNCTION _not_null(p_value anyelement, p_arg text, p_hint text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) IS 'Internal: refuse a NULL argument (22004, naming it, with a hint)';

-- FUNCTION _not_null(p_value anyelement, p_arg text, p_hint text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) TO memory_reader;
GRANT ALL ON FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) TO memory_writer;
GRANT ALL ON FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) TO memory_admin;

-- _on_cluster(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._on_cluster() RETURNS boolean
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_cluster boolean := false;
BEGIN
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d'
                '                WHERE d.logicalrelid = ''memory.simulations''::pg_catalog.regclass)'
           INTO v_cluster;
    END IF;
    RETURN v_cluster;
END
$$;

ALTER FUNCTION memory._on_cluster() OWNER TO memory_owner;

-- FUNCTION _on_cluster(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._on_cluster() IS 'Internal: whether the memory schema is distributed over a Citus cluster';

-- FUNCTION _on_cluster(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._on_cluster() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._on_cluster() TO memory_reader;
GRANT ALL ON FUNCTION memory._on_cluster() TO memory_admin;

-- _one_of(text, text, text[], text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text DEFAULT NULL::text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF p_value = ANY (p_known) THEN
        RETURN p_value;
    END IF;
    RAISE EXCEPTION 'unknown % %; known: %', p_what, COALESCE(pg_catalog.quote_literal(memory._quote(p_value)), 'NULL'),
                    pg_catalog.array_to_string(p_known, ', ')
        USING ERRCODE = 'invalid_parameter_value', HINT = COALESCE(p_hint, 'pass one of them');
END
$$;

ALTER FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text) OWNER TO memory_owner;

-- FUNCTION _one_of(p_what text, p_value text, p_known text[], p_hint text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text) IS 'Internal: a name from a closed list, or 22023 naming the value and the list';

-- FUNCTION _one_of(p_what text, p_value text, p_known text[], p_hint text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text) TO memory_reader;
GRANT ALL ON FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text) TO memory_writer;
GRANT ALL ON FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text) TO memory_admin;

-- _outcomes(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._outcomes() RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT ARRAY['confirmed', 'refuted', 'partial', 'void']
$$;

ALTER FUNCTION memory._outcomes() OWNER TO memory_owner;

-- FUNCTION _outcomes(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._outcomes() IS 'Internal: the outcomes a prediction may have (confirmed, refuted, partial, void)';

-- FUNCTION _outcomes(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._outcomes() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._outcomes() TO memory_reader;
GRANT ALL ON FUNCTION memory._outcomes() TO memory_writer;

-- _page_rows(integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._page_rows(p_limit integer, p_default integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT LEAST(GREATEST(COALESCE(p_limit, p_default), 1), 1000)
$$;

ALTER FUNCTION memory._page_rows(p_limit integer, p_default integer) OWNER TO memory_owner;

-- FUNCTION _page_rows(p_limit integer, p_default integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._page_rows(p_limit integer, p_default integer) IS 'Internal: the rows of a page, p_limit clamped to 1..1000 (NULL: p_default)';

-- FUNCTION _page_rows(p_limit integer, p_default integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._page_rows(p_limit integer, p_default integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._page_rows(p_limit integer, p_default integer) TO memory_reader;

-- _prune(text, uuid, uuid, uuid, text[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_platforms text[]) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_deleted bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_platforms IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM memory._kind_columns(p_kind) AS c WHERE c.col = 'platform') THEN
        RAISE EXCEPTION '% have no platform to narrow an import''s scope by', p_kind
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'map the kind to null in the scope: the import replaces all of it';
    END IF;
    EXECUTE pg_catalog.format(
        'DELETE FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2 AND l.source = %L'
        ' AND NOT EXISTS (SELECT 1 FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 AND %s)%s',
        (memory._kind(p_kind)).live, 'import', (memory._kind(p_kind)).staged,
        memory._kind_key(p_kind, 's', 'l'),
        CASE WHEN p_platforms IS NOT NULL THEN ' AND l.platform = ANY ($4)' ELSE '' END)
    USING p_tenant_id, p_simulation_id, p_attempt_id, p_platforms;
    GET DIAGNOSTICS v_deleted = ROW_COUNT;
    RETURN v_deleted;
END
$_$;

ALTER FUNCTION memory._prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_platforms text[]) OWNER TO memory_owner;

-- FUNCTION _prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_platforms text[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_platforms text[]) IS 'Internal: delete a simulation''s rows of a record kind that an import attempt does not have (SECURITY DEFINER: tenant roles hold no DELETE)';

-- FUNCTION _prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_platforms text[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_platforms text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_platforms text[]) TO memory_writer;

-- _quota_used(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._quota_used(p_tenant_id uuid, p_kind text) RETURNS bigint
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_used bigint;
BEGIN
    IF p_kind = 'simulations' THEN
        SELECT pg_catalog.count(*) INTO v_used FROM memory.simulations AS s WHERE s.tenant_id = p_tenant_id;
    ELSE
        EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1',
                                  (memory._kind(p_kind)).live)
           INTO v_used USING p_tenant_id;
    END IF;
    RETURN v_used;
END
$_$;

ALTER FUNCTION memory._quota_used(p_tenant_id uuid, p_kind text) OWNER TO memory_owner;

-- FUNCTION _quota_used(p_tenant_id uuid, p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._quota_used(p_tenant_id uuid, p_kind text) IS 'Internal: the tenant''s simulations, or its rows of a record kind, as the caller sees them (what a quota counts)';

-- FUNCTION _quota_used(p_tenant_id uuid, p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._quota_used(p_tenant_id uuid, p_kind text) FROM PUBLIC;

-- _quote(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._quote(p_value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT CASE WHEN pg_catalog.char_length(p_value) <= memory._limit('quoted_chars') THEN p_value
                ELSE pg_catalog.left(p_value, memory._limit('quoted_chars')::integer)
                     || pg_catalog.format('... (%s characters)', pg_catalog.char_length(p_value)) END
$$;

ALTER FUNCTION memory._quote(p_value text) OWNER TO memory_owner;

-- FUNCTION _quote(p_value text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._quote(p_value text) IS 'Internal: a value cut to memory._limit(''quoted_chars'') characters for an error message';

-- FUNCTION _quote(p_value text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._quote(p_value text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._quote(p_value text) TO memory_reader;
GRANT ALL ON FUNCTION memory._quote(p_value text) TO memory_writer;
GRANT ALL ON FUNCTION memory._quote(p_value text) TO memory_admin;

-- _recall_graph(uuid, uuid, text, integer, integer, timestamp with time zone, uuid[], real[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_candidates integer, p_depth integer, p_as_of timestamp with time zone, p_name_keys uuid[], p_name_sims real[]) RETURNS SETOF memory.recall_hit
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_seeds memory.recall_hit[];
    v_graph memory.recall_hit[];
    v_as_of timestamptz := COALESCE(p_as_of, pg_catalog.now());
BEGIN
    v_seeds := ARRAY(
        -- each seed with its row's text (its name and summary): the entity rows of tier 1
        SELECT ROW('graph', 'entity', n.node_id, n.name || COALESCE(': ' || n.summary, ''),
                   c.similarity::double precision, 0, n.name, NULL)::memory.recall_hit
          FROM (SELECT x.node_key, x.similarity FROM memory._name_candidates(p_tenant_id, p_simulation_id, p_text, 5) AS x
                 WHERE p_name_keys IS NULL
                UNION ALL
                SELECT u.node_key, u.similarity
                  FROM ROWS FROM (pg_catalog.unnest(p_name_keys), pg_catalog.unnest(p_name_sims)) AS u (node_key, similarity)) AS c
          JOIN memory.nodes AS n
            ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = c.node_key
         WHERE c.similarity >= 0.5
         ORDER BY c.similarity DESC, n.node_id
         LIMIT 5);
    IF pg_catalog.cardinality(v_seeds) > 0 THEN
        -- candidates with their tier in the rank field: the named entities and their facts
        -- (tiers 1 and 2) here, their neighbours by depth and the episodes naming them (tier
        -- 3) below
        v_graph := ARRAY(
            SELECT ROW('graph', c.kind, c.id, c.body, c.raw, c.tier, c.matched, NULL)::memory.recall_hit
              -- the seeds themselves, as v_seeds read them (joined again here by the key md5(id),
              -- the planner hashed the simulation's every entity)
              FROM (SELECT 1 AS tier, 'entity' AS kind, s.id, s.body, s.raw, s.matched
                      FROM pg_catalog.unnest(v_seeds) AS s
                    UNION ALL
                    SELECT 2, 'fact', f.edge_id, f.fact, s.raw, s.matched
                      FROM pg_catalog.unnest(v_seeds) AS s
                     CROSS JOIN LATERAL (
                         -- memory.facts(..., s.id, 'current', p_as_of, 20)'s rows, its state rule
                         -- written out, without the detail of each fact it names
                         SELECT e.edge_id, e.fact
                           FROM memory.edges AS e
                          WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                            AND (e.source_key = pg_catalog.md5(s.id)::uuid OR e.target_key = pg_catalog.md5(s.id)::uuid)
                            AND CASE WHEN e.valid_at > v_as_of THEN 'future'
                                     WHEN e.invalid_at <= v_as_of THEN 'ended'
                                     WHEN e.expired_at <= v_as_of THEN 'expired'
                                     ELSE 'current' END = 'current'
                          ORDER BY e.valid_at DESC NULLS LAST, e.edge_id
                          LIMIT 20) AS f) AS c);
        -- Tier 3 only where it can reach the answer: the rows are ordered by tier first and
        -- a row keeps its best tier, so once tiers 1 and 2 hold p_candidates distinct rows no
        -- row of tier 3 is among the first p_candidates and the answer is the same without
        -- it. Five seeds with nine current facts each are enough at the default 50 for most
        -- questions of the bench's graphs, whose answers are the same with and without tier 3
        -- (bench/README.md).
        IF (SELECT pg_catalog.count(*) FROM (SELECT DISTINCT g.kind, g.id FROM pg_catalog.unnest(v_graph) AS g) AS d)
           < p_candidates THEN
            v_graph := v_graph || ARRAY(
                SELECT ROW('graph', c.kind, c.id, c.body, c.raw, c.tier, c.matched, NULL)::memory.recall_hit
                  FROM (-- depth 1: the other ends of the seed's current facts, read here for all the
                        -- seeds at once from the walk's covering indexes (memory.neighbors(..., 1,
                        -- NULL, 'both', p_as_of, p_limit => p_candidates)'s nodes, in its order:
                        -- node id; a fact from the seed to itself reaches nothing); depth 2 walks
                        SELECT 3 AS tier, 'entity' AS kind, w.node_id AS id, w.name AS body, s.raw / 2 AS raw, s.matched
                          FROM pg_catalog.unnest(v_seeds) AS s
                         CROSS JOIN LATERAL (
                             SELECT n.node_id, n.name
                               FROM (SELECT DISTINCT x.next_key
                                       FROM (SELECT e.target_key AS next_key, e.valid_at, e.invalid_at, e.expired_at
                                               FROM memory.edges AS e
                                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                                AND e.source_key = pg_catalog.md5(s.id)::uuid
                                             UNION ALL
                                             SELECT e.source_key, e.valid_at, e.invalid_at, e.expired_at
                                               FROM memory.edges AS e
                                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                                AND e.target_key = pg_catalog.md5(s.id)::uuid) AS x
                                      WHERE x.next_key <> pg_catalog.md5(s.id)::uuid
                                        AND CASE WHEN x.valid_at > v_as_of THEN 'future'
                                                 WHEN x.invalid_at <= v_as_of THEN 'ended'
                                                 WHEN x.expired_at <= v_as_of THEN 'expired'
                                                 ELSE 'current' END = 'current') AS k
                               JOIN memory.nodes AS n
                                 ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = k.next_key
                              ORDER BY n.node_id
                              LIMIT p_candidates) AS w
                         WHERE p_depth = 1
                        UNION ALL
                        SELECT 2 + w.depth, 'entity', w.node_id, w.name, s.raw / (1 + w.depth), s.matched
                          FROM pg_catalog.unnest(v_seeds) AS s
                         CROSS JOIN LATERAL memory.neighbors(
                             p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                             p_node_id => s.id, p_depth => p_depth, p_edge_types => NULL,
                             p_direction => 'both', p_as_of => p_as_of,
                             p_limit => p_candidates) AS w
                         WHERE p_depth > 1
                        UNION ALL
                        SELECT 3, 'episode', e.id, e.text, e.score,
                               (SELECT pg_catalog.string_agg(s.matched, ', ' ORDER BY s.matched)
                                  FROM pg_catalog.unnest(v_seeds) AS s
                                 WHERE pg_catalog.strpos(pg_catalog.lower(e.text), pg_catalog.lower(s.matched)) > 0)
                          FROM memory._search_words(
                              p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                              p_query_text => (SELECT pg_catalog.string_agg(s.matched, ' ') FROM pg_catalog.unnest(v_seeds) AS s),
                              p_top_k => LEAST(10 * pg_catalog.cardinality(v_seeds), 100),
                              p_kinds => ARRAY['episode'], p_name_keys => NULL,
                              p_name_sims => NULL) AS e) AS c);
        END IF;
        RETURN QUERY
            SELECT 'graph'::text, g.kind, g.id, g.body, g.raw,
                   pg_catalog.row_number() OVER (ORDER BY g.rank, g.raw DESC, g.kind, g.id)::integer, g.matched,
                   NULL::double precision
              FROM (SELECT DISTINCT ON (c.kind, c.id) c.*
                      FROM pg_catalog.unnest(v_graph) AS c
                     ORDER BY c.kind, c.id, c.rank, c.raw DESC) AS g
             ORDER BY g.rank, g.raw DESC, g.kind, g.id
             LIMIT p_candidates;
    END IF;
END
$$;

ALTER FUNCTION memory._recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_candidates integer, p_depth integer, p_as_of timestamp with time zone, p_name_keys uuid[], p_name_sims real[]) OWNER TO memory_owner;

-- FUNCTION _recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_candidates integer, p_depth integer, p_as_of timestamp with time zone, p_name_keys uuid[], p_name_sims real[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_candidates integer, p_depth integer, p_as_of timestamp with time zone, p_name_keys uuid[], p_name_sims real[]) IS 'Internal: recall''s graph arm (the named entities, their facts, neighbours and the episodes naming them), ranked';

-- FUNCTION _recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_candidates integer, p_depth integer, p_as_of timestamp with time zone, p_name_keys uuid[], p_name_sims real[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_candidates integer, p_depth integer, p_as_of timestamp with time zone, p_name_keys uuid[], p_name_sims real[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_candidates integer, p_depth integer, p_as_of timestamp with time zone, p_name_keys uuid[], p_name_sims real[]) TO memory_reader;

-- _recall_list(jsonb, text, text[], text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_hint  text := pg_catalog.format('%s: any of %s', p_key, pg_catalog.array_to_string(p_allowed, ', '));
    v_bad   text;
    v_names text[];
BEGIN
    IF NOT p_options ? p_key THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.jsonb_typeof(p_options -> p_key) <> 'array' THEN
        RAISE EXCEPTION 'option % must be an array of % names', p_key, p_what
            USING ERRCODE = 'invalid_parameter_value', HINT = v_hint;
    END IF;
    SELECT pg_catalog.string_agg(COALESCE(pg_catalog.quote_literal(memory._quote(a.value #>> '{}')), 'null'), ', '),
           ARRAY(SELECT DISTINCT b.value #>> '{}' FROM pg_catalog.jsonb_array_elements(p_options -> p_key) AS b(value))
      INTO v_bad, v_names
      FROM pg_catalog.jsonb_array_elements(p_options -> p_key) AS a(value)
     WHERE pg_catalog.jsonb_typeof(a.value) <> 'string' OR NOT (a.value #>> '{}') = ANY (p_allowed);
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'unknown % %', p_what, v_bad
            USING ERRCODE = 'invalid_parameter_value', HINT = v_hint;
    END IF;
    IF pg_catalog.cardinality(v_names) = 0 THEN
        RAISE EXCEPTION 'option % names no %', p_key, p_what
            USING ERRCODE = 'invalid_parameter_value', HINT = v_hint || '; leave it out for the default';
    END IF;
    RETURN v_names;
END
$$;

ALTER FUNCTION memory._recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text) OWNER TO memory_owner;

-- FUNCTION _recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text) IS 'Internal: a list option of memory.recall (arms, kinds), its distinct names, or 22023';

-- FUNCTION _recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text) TO memory_reader;

-- _recall_option(jsonb, text, double precision, double precision, double precision); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._recall_option(p_options jsonb, p_key text, p_default double precision, p_min double precision, p_max double precision) RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_value  jsonb := p_options -> p_key;
    v_number double precision;
BEGIN
    IF v_value IS NULL THEN
        RETURN p_default;
    END IF;
    -- a number past a double precision (1e400) is refused with the others, never cast
    IF pg_catalog.jsonb_typeof(v_value) = 'number'
       AND pg_catalog.pg_input_is_valid(v_value #>> '{}', 'double precision') THEN
        v_number := (v_value #>> '{}')::double precision;
    END IF;
    IF v_number IS NULL
       OR (p_max IS NULL AND v_number <= p_min)
       OR (p_max IS NOT NULL AND v_number NOT BETWEEN p_min AND p_max) THEN
        RAISE EXCEPTION 'option % must be a number %, not %', p_key,
                        CASE WHEN p_max IS NULL THEN '> ' || p_min ELSE 'from ' || p_min || ' to ' || p_max END,
                        pg_catalog.left(v_value::text, 40)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'see memory.recall''s options';
    END IF;
    RETURN v_number;
END
$$;

ALTER FUNCTION memory._recall_option(p_options jsonb, p_key text, p_default double precision, p_min double precision, p_max double precision) OWNER TO memory_owner;

-- FUNCTION _recall_option(p_options jsonb, p_key text, p_default double precision, p_min double precision, p_max double precision); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._recall_option(p_options jsonb, p_key text, p_default double precision, p_min double precision, p_max double precision) IS 'Internal: a numeric option of memory.recall, its default, or 22023';

-- FUNCTION _recall_option(p_options jsonb, p_key text, p_default double precision, p_min double precision, p_max double precision); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._recall_option(p_options jsonb, p_key text, p_default double precision, p_min double precision, p_max double precision) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._recall_option(p_options jsonb, p_key text, p_default double precision, p_min double precision, p_max double precision) TO memory_reader;

-- _record_change(uuid, uuid, text, text, text[], jsonb, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[] DEFAULT NULL::text[], p_counts jsonb DEFAULT '{}'::jsonb, p_attempt_id uuid DEFAULT NULL::uuid, p_detail jsonb DEFAULT '{}'::jsonb) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    c_object_bytes CONSTANT bigint := 64 * 1024;  -- p_counts and p_detail, as JSON text
    v_stack  text;
    v_own    text;
    v_frame  text;
    v_caller text;
    v_seq    bigint;
    v_id     bigint;
BEGIN
    GET DIAGNOSTICS v_stack = PG_CONTEXT;
    v_own := pg_catalog.split_part(v_stack, E'\n', 1);
    v_frame := pg_catalog.left(v_own, pg_catalog.strpos(v_own, 'memory._record_change(') - 1);
    IF pg_catalog.strpos(v_own, 'memory._record_change(') > 1
       AND pg_catalog.starts_with(pg_catalog.substr(v_stack, pg_catalog.length(v_own) + 2), v_frame || 'memory.') THEN
        -- [(] rather than a backslash: a literal's backslashes read as the session's
        -- standard_conforming_strings says
        v_caller := pg_catalog.substring(pg_catalog.substr(v_stack, pg_catalog.length(v_own) + pg_catalog.length(v_frame) + 9),
                                         '^([a-z_][a-z0-9_]*)[(]');
    END IF;
    IF v_caller IS NULL OR NOT EXISTS (
           SELECT 1 FROM pg_catalog.pg_proc AS p
             JOIN pg_catalog.pg_language AS l ON l.oid = p.prolang
            WHERE p.pronamespace = 'memory'::regnamespace AND p.proname = v_caller
              AND l.lanname = 'plpgsql' AND p.proowner = 'memory_owner'::regrole) THEN
        RAISE EXCEPTION 'memory._record_change is called only by the memory''s own write paths, not by %',
                        COALESCE(memory._quote(NULLIF(pg_catalog.split_part(v_stack, E'\n', 2), '')), 'a query')
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'the feed records what the public functions (upsert_nodes, delete_simulation ...) write';
    END IF;
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant the change belongs to');
    PERFORM memory._not_null(p_kind, 'p_kind', 'name the kind that changed');
    PERFORM memory._not_null(p_op, 'p_op', 'one of import, upsert, delete, outcome, compact, retention, reembed');
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    IF NOT (memory._holds_grant(p_tenant_id) OR pg_catalog.pg_has_role(memory._acting_role(), 'memory_admin', 'USAGE')) THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %', memory._acting_role(), p_tenant_id
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'an administrator grants it with memory.grant_tenant(role, tenant)';
    END IF;
    IF p_op NOT IN ('import', 'upsert', 'delete', 'outcome', 'compact', 'retention', 'reembed') THEN
        RAISE EXCEPTION 'unknown change operation %', memory._quote(p_op)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of import, upsert, delete, outcome, compact, retention, reembed';
    END IF;
    IF p_kind !~ '^[a-z_]{1,40}$' THEN
        RAISE EXCEPTION 'bad change kind %', memory._quote(p_kind)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'a kind is lower-case letters and _, such as episodes';
    END IF;
    IF pg_catalog.octet_length(p_counts::text) > c_object_bytes OR pg_catalog.octet_length(p_detail::text) > c_object_bytes THEN
        RAISE EXCEPTION 'a change''s counts or detail exceed % bytes: % and %', c_object_bytes,
                        pg_catalog.octet_length(p_counts::text), pg_catalog.octet_length(p_detail::text)
            USING ERRCODE = 'program_limit_exceeded', HINT = 'a change carries a few numbers and names; the rows hold the rest';
    END IF;
    PERFORM memory._check_limit('batch_bytes', 'p_ids', pg_catalog.pg_column_size(p_ids));
    INSERT INTO memory.change_heads AS h (tenant_id, changes, last_change_id, last_change_at)
    VALUES (p_tenant_id, 1, 1, pg_catalog.now())
    ON CONFLICT (tenant_id) DO UPDATE SET changes = h.changes + 1, last_change_id = h.last_change_id + 1,
                                          last_change_at = excluded.last_change_at
    RETURNING h.changes, h.last_change_id INTO v_seq, v_id;
    INSERT INTO memory.changes (tenant_id, change_id, seq, simulation_id, kind, op, attempt_id, ids, counts, detail)
    VALUES (p_tenant_id, v_id, v_seq, p_simulation_id, p_kind, p_op, p_attempt_id, p_ids,
            COALESCE(p_counts, '{}'::jsonb), COALESCE(p_detail, '{}'::jsonb));
    PERFORM pg_catalog.pg_notify('memory_changes', '');
    RETURN v_id;
END
$_$;

ALTER FUNCTION memory._record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[], p_counts jsonb, p_attempt_id uuid, p_detail jsonb) OWNER TO memory_owner;

-- FUNCTION _record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[], p_counts jsonb, p_attempt_id uuid, p_detail jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[], p_counts jsonb, p_attempt_id uuid, p_detail jsonb) IS 'Internal: append a change to the tenant''s feed in the caller''s transaction, in commit order, numbered per tenant; callable only from a PL/pgSQL function of schema memory through a plain expression (SECURITY DEFINER: no tenant role writes the feed)';

-- FUNCTION _record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[], p_counts jsonb, p_attempt_id uuid, p_detail jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[], p_counts jsonb, p_attempt_id uuid, p_detail jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[], p_counts jsonb, p_attempt_id uuid, p_detail jsonb) TO memory_writer;
GRANT ALL ON FUNCTION memory._record_change(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_op text, p_ids text[], p_counts jsonb, p_attempt_id uuid, p_detail jsonb) TO memory_admin;

-- _record_history(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._record_history() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind    text := COALESCE(TG_ARGV[0], pg_catalog.regexp_replace(TG_TABLE_NAME, '_[0-9]+$', ''));
    v_id      name := (memory._kind(v_kind)).id_column;
    v_setting text := pg_catalog.current_setting('memory.attempt_id', true);
    v_attempt uuid;
    v_tenant  uuid;
    v_rows    jsonb;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN
        RETURN NULL;
    END IF;
    IF TG_NARGS = 1 AND TG_TABLE_NAME <> TG_ARGV[0] THEN
        FOR v_tenant, v_rows IN
            SELECT r.tenant_id, pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'simulation_id', r.simulation_id, 'updated_at', r.updated_at,
                       'row', pg_catalog.to_jsonb(r) - ARRAY['embedding', 'summary_embedding']))
              FROM old_rows AS r GROUP BY r.tenant_id
        LOOP
            INSERT INTO memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from, recorded_to,
                                            change, attempt_id, data)
            SELECT v_tenant, o.simulation_id, v_kind, o.row ->> v_id, o.updated_at,
                   GREATEST(pg_catalog.now(), o.updated_at),
                   CASE TG_OP WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END, NULL, o.row
              FROM pg_catalog.jsonb_to_recordset(v_rows) AS o (simulation_id uuid, updated_at timestamptz, row jsonb)
             WHERE o.simulation_id = ANY (ARRAY(SELECT s.simulation_id FROM memory.simulations AS s
                                                  WHERE s.tenant_id = v_tenant));
        END LOOP;
        RETURN NULL;
    END IF;
    IF pg_catalog.pg_input_is_valid(v_setting, 'uuid') THEN
        SELECT a.attempt_id INTO v_attempt FROM memory.import_attempts AS a
         WHERE a.attempt_id = v_setting::uuid AND a.backend_pid = pg_catalog.pg_backend_pid()
           AND memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start);
    END IF;
    INSERT INTO memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from, recorded_to,
                                    change, attempt_id, data)
    SELECT o.tenant_id, o.simulation_id, v_kind, o.row ->> v_id, o.updated_at,
           GREATEST(pg_catalog.now(), o.updated_at),
           CASE TG_OP WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END, v_attempt,
           o.row - ARRAY['embedding', 'summary_embedding']
      FROM (SELECT r.tenant_id, r.simulation_id, r.updated_at, pg_catalog.to_jsonb(r) AS row FROM old_rows AS r) AS o
     WHERE EXISTS (SELECT 1 FROM memory.simulations AS s
                    WHERE s.tenant_id = o.tenant_id AND s.simulation_id = o.simulation_id);
    RETURN NULL;
END
$_$;

ALTER FUNCTION memory._record_history() OWNER TO memory_owner;

-- FUNCTION _record_history(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._record_history() IS 'Internal: trigger keeping the versions an update or delete of nodes, edges or episodes ended (memory.row_history)';

-- FUNCTION _record_history(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._record_history() FROM PUBLIC;

-- _record_import(uuid, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_result jsonb) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_kind   text;
    v_n      integer := 0;
    v_counts jsonb;
    v_change bigint;
BEGIN
    FOR v_kind IN
        SELECT k.kind FROM memory._record_kinds() AS k
         WHERE COALESCE((p_result #>> ARRAY[k.kind, 'inserted'])::bigint, 0)
               + COALESCE((p_result #>> ARRAY[k.kind, 'updated'])::bigint, 0)
               + COALESCE((p_result #>> ARRAY[k.kind, 'deleted'])::bigint, 0) > 0
         ORDER BY k.ord
    LOOP
        -- the counts first: memory._record_change is called as a plain expression
        v_counts := (SELECT pg_catalog.jsonb_object_agg(c.key, c.value)
                       FROM pg_catalog.jsonb_each(p_result -> v_kind) AS c
                      WHERE c.key IN ('inserted', 'updated', 'unchanged', 'deleted', 'skipped'));
        v_change := memory._record_change(
            p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_kind => v_kind,
            p_op => 'import', p_ids => NULL, p_counts => v_counts, p_attempt_id => p_attempt_id,
            p_detail => pg_catalog.jsonb_build_object('replaced', COALESCE(p_result #> ARRAY[v_kind, 'replaced'], 'true'::jsonb)));
        v_n := v_n + 1;
    END LOOP;
    RETURN v_n;
END
$$;

ALTER FUNCTION memory._record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_result jsonb) OWNER TO memory_owner;

-- FUNCTION _record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_result jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_result jsonb) IS 'Internal: append an import''s promote to the change feed, one change per kind it changed';

-- FUNCTION _record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_result jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_result jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_result jsonb) TO memory_writer;

-- _record_kinds(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._record_kinds() RETURNS SETOF memory.record_kind
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT k.kind, k.item, k.ord, pg_catalog.to_regclass('memory.' || k.kind),
           pg_catalog.to_regclass('memory.staged_' || k.kind), 'p_' || k.kind, k.batch_spec,
           k.id_column, k.batch_key, k.item_defaults
      FROM (VALUES
        ('nodes', 'node', 1,
         '{"id": "id", "name": "text!", "type": "label", "labels": "text[]", "summary": "text",
           "attributes": "object", "embedding": "vector", "embedding_model": "text",
           "summary_embedding": "vector"}'::jsonb,
         'node_id'::name, ARRAY['id'], '{"type": "Entity"}'::jsonb),
        ('edges', 'edge', 2,
         '{"id": "id", "type": "label!", "source_id": "id", "target_id": "id", "fact": "text",
           "attributes": "object", "valid_at": "timestamp", "invalid_at": "timestamp",
           "learned_at": "timestamp", "expired_at": "timestamp",
           "embedding": "vector", "embedding_model": "text"}',
         'edge_id', ARRAY['id'], '{}'),
        ('episodes', 'episode', 3,
         '{"id": "id", "agent_id": "int", "agent_name": "text", "platform": "text", "round": "int",
           "action_type": "text!", "content": "text", "metadata": "object",
           "occurred_at": "timestamp", "embedding": "vector", "embedding_model": "text"}',
         'episode_id', ARRAY['id'], '{}'),
        ('profiles', 'profile', 4,
         '{"agent_id": "int!", "platform": "label!", "name": "text", "username": "text",
           "bio": "text", "persona": "text", "attributes": "object"}',
         NULL, ARRAY['platform', 'agent_id'], '{}'),
        -- A report and its parts (V0014): written by imports only, so their batch specs
        -- list no upsert fields; their keys are those of their tables.
        ('reports', 'report', 5, '{}', 'report_id', ARRAY['id'], '{}'),
        ('report_sections', 'report section', 6, '{}', NULL, ARRAY['report_id', 'section_index'], '{}'),
        ('report_chunks', 'report chunk', 7, '{}', 'chunk_id', ARRAY['id'], '{}'),
        ('report_log', 'report log line', 8, '{}', NULL, ARRAY['report_id', 'line_no'], '{}'),
        ('predictions', 'prediction', 9,
         '{"id": "id", "report_id": "text", "section_index": "int", "claim": "text!",
           "horizon": "text", "confidence": "fraction", "metadata": "object"}',
         'prediction_id', ARRAY['id'], '{}'))
        AS k(kind, item, ord, batch_spec, id_column, batch_key, item_defaults)
     ORDER BY k.ord
$$;

ALTER FUNCTION memory._record_kinds() OWNER TO memory_owner;

-- FUNCTION _record_kinds(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._record_kinds() IS 'Internal: the record kinds (nodes, edges, episodes, profiles, reports and their parts, predictions) and what their write path needs';

-- FUNCTION _record_kinds(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._record_kinds() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._record_kinds() TO memory_reader;
GRANT ALL ON FUNCTION memory._record_kinds() TO memory_writer;

-- _record_upsert(text, uuid, uuid, jsonb, bigint, bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb, p_inserted bigint, p_updated bigint) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_key text[];
    v_ids text[];
BEGIN
    IF COALESCE(p_inserted, 0) + COALESCE(p_updated, 0) = 0 THEN
        RETURN NULL;
    END IF;
    v_key := (memory._kind(p_kind)).batch_key;
    -- the ids first: memory._record_change is called as a plain expression
    v_ids := ARRAY(SELECT (SELECT pg_catalog.string_agg(t.item ->> f.field, ':' ORDER BY f.ord)
                             FROM pg_catalog.unnest(v_key) WITH ORDINALITY AS f(field, ord))
                     FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)
                    ORDER BY t.ord);
    RETURN memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                 p_kind => p_kind, p_op => 'upsert', p_ids => v_ids,
                                 p_counts => pg_catalog.jsonb_build_object('inserted', p_inserted, 'updated', p_updated));
END
$$;

ALTER FUNCTION memory._record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb, p_inserted bigint, p_updated bigint) OWNER TO memory_owner;

-- FUNCTION _record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb, p_inserted bigint, p_updated bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb, p_inserted bigint, p_updated bigint) IS 'Internal: append an upsert batch that changed something to the change feed, with its ids';

-- FUNCTION _record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb, p_inserted bigint, p_updated bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb, p_inserted bigint, p_updated bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb, p_inserted bigint, p_updated bigint) TO memory_writer;

-- _reembed_model(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._reembed_model(p_model text) RETURNS memory.embedding_models
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_model memory.embedding_models := memory._model(p_model);
BEGIN
    IF v_model.dimensions <= memory._stored_dimensions() THEN
        RETURN v_model;
    END IF;
    RAISE EXCEPTION 'model % has % dimensions; the memory stores vectors of %', pg_catalog.quote_literal(p_model),
                    v_model.dimensions, memory._stored_dimensions()
        USING ERRCODE = 'feature_not_supported',
              HINT = 'a model wider than the vector columns needs a migration that widens them';
END
$$;

ALTER FUNCTION memory._reembed_model(p_model text) OWNER TO memory_owner;

-- FUNCTION _reembed_model(p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._reembed_model(p_model text) IS 'Internal: the model a re-embed computes; 0A000 for a model wider than the stored columns';

-- FUNCTION _reembed_model(p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._reembed_model(p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._reembed_model(p_model text) TO memory_writer;

-- _reembed_sources(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text) RETURNS TABLE(kind text, text_hash bytea, text text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT s.kind, memory._text_hash(p_model, s.text), s.text
      FROM (SELECT 'nodes' AS kind, t.text
              FROM memory.nodes AS n
             CROSS JOIN LATERAL (VALUES (n.type || ': ' || n.name, n.embedding IS NOT NULL),
                                        (n.summary, n.summary_embedding IS NOT NULL)) AS t(text, embedded)
             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
               AND t.embedded AND n.embedding_model IS DISTINCT FROM p_model
            UNION ALL
            SELECT 'edges', e.fact
              FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding IS NOT NULL AND e.embedding_model IS DISTINCT FROM p_model
            UNION ALL
            SELECT 'episodes', e.content
              FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding IS NOT NULL AND e.embedding_model IS DISTINCT FROM p_model
            UNION ALL
            SELECT 'report_chunks', s.title || E'\n' || c.content
              FROM memory.report_chunks AS c
              JOIN memory.report_sections AS s
                ON s.tenant_id = c.tenant_id AND s.simulation_id = c.simulation_id
               AND s.report_key = c.report_key AND s.section_index = c.section_index
             WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
               AND c.embedding IS NOT NULL AND c.embedding_model IS DISTINCT FROM p_model) AS s
     WHERE s.text IS NOT NULL
$$;

ALTER FUNCTION memory._reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text) OWNER TO memory_owner;

-- FUNCTION _reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text) IS 'Internal: the texts behind a simulation''s vectors not of a model yet, with their content hashes under it';

-- FUNCTION _reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text) TO memory_writer;

-- _refuse_on_cluster(text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._refuse_on_cluster(p_function text, p_instead text) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF memory._on_cluster() THEN
        RAISE EXCEPTION 'memory.% does not run on a Citus cluster', p_function
            USING ERRCODE = 'feature_not_supported', HINT = 'call ' OPERATOR(pg_catalog.||) p_instead;
    END IF;
END
$$;

ALTER FUNCTION memory._refuse_on_cluster(p_function text, p_instead text) OWNER TO memory_owner;

-- FUNCTION _refuse_on_cluster(p_function text, p_instead text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._refuse_on_cluster(p_function text, p_instead text) IS 'Internal: 0A000 on a Citus cluster, naming the per-tenant call that runs there';

-- FUNCTION _refuse_on_cluster(p_function text, p_instead text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._refuse_on_cluster(p_function text, p_instead text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._refuse_on_cluster(p_function text, p_instead text) TO memory_reader;
GRANT ALL ON FUNCTION memory._refuse_on_cluster(p_function text, p_instead text) TO memory_admin;

-- _release_attempt_lock(integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._release_attempt_lock(p_lock_key integer) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF memory._attempt_lock_held(p_lock_key, pg_catalog.pg_backend_pid()) THEN
        PERFORM pg_catalog.pg_advisory_unlock(memory._attempt_lock_class(), p_lock_key);
    END IF;
END
$$;

ALTER FUNCTION memory._release_attempt_lock(p_lock_key integer) OWNER TO memory_owner;

-- FUNCTION _release_attempt_lock(p_lock_key integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._release_attempt_lock(p_lock_key integer) IS 'Internal: release an import attempt''s advisory lock when this session holds it';

-- FUNCTION _release_attempt_lock(p_lock_key integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._release_attempt_lock(p_lock_key integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._release_attempt_lock(p_lock_key integer) TO memory_writer;

-- _require_admin(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._require_admin() RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF NOT pg_catalog.pg_has_role(memory._acting_role(), 'memory_admin', 'USAGE') THEN
        RAISE EXCEPTION 'role % does not have the privileges of memory_admin', memory._acting_role()
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'log in as a role granted memory_admin (with INHERIT)';
    END IF;
END
$$;

ALTER FUNCTION memory._require_admin() OWNER TO memory_owner;

-- FUNCTION _require_admin(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._require_admin() IS 'Internal: refuse (42501) a caller (memory._acting_role()) without the privileges of memory_admin';

-- FUNCTION _require_admin(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._require_admin() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._require_admin() TO memory_admin;

-- _require_attempt(uuid, uuid, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean) RETURNS memory.import_attempts
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_attempt memory.import_attempts;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_attempt_id, 'p_attempt_id', 'pass the id memory.begin_import() returned');
    SELECT * INTO v_attempt FROM memory.import_attempts AS a
     WHERE a.tenant_id = p_tenant_id AND a.attempt_id = p_attempt_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown import attempt % for tenant %', p_attempt_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'begin one with memory.begin_import()';
    END IF;
    IF p_loading AND v_attempt.state <> 'loading' THEN
        RAISE EXCEPTION 'import attempt % is %, not loading', p_attempt_id, v_attempt.state
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'begin a new attempt with memory.begin_import()';
    END IF;
    RETURN v_attempt;
END
$$;

ALTER FUNCTION memory._require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean) OWNER TO memory_owner;

-- FUNCTION _require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean) IS 'Internal: enter the tenant and fetch an import attempt (P0002 unknown, 55000 not loading)';

-- FUNCTION _require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean) TO memory_reader;

-- _require_row(text, uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind  memory.record_kind := memory._kind(p_kind);
    v_found boolean;
    -- a kind's rows are listed by the function named after it (episodes, and the wings'
    -- kinds alike); nodes and edges by the core's reads
    v_hint  text := CASE v_kind.kind
                        WHEN 'nodes' THEN 'list the simulation''s nodes with memory.nodes_by_type() (swarm-memory nodes)'
                        WHEN 'edges' THEN 'memory.neighbors() walks the edges around a node (swarm-memory neighbors)'
                        WHEN 'profiles' THEN 'ids are the upstream ids'
                        ELSE pg_catalog.format('list the simulation''s %1$s with memory.%1$s() (swarm-memory %1$s)', v_kind.kind) END;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_id, 'p_' || v_kind.item || '_id', v_hint);
    EXECUTE pg_catalog.format('SELECT EXISTS (SELECT 1 FROM %s AS r WHERE r.tenant_id = $1 AND r.simulation_id = $2'
                              ' AND r.%I = pg_catalog.md5($3)::uuid)', v_kind.live, v_kind.item || '_key')
       INTO v_found USING p_tenant_id, p_simulation_id, p_id;
    IF NOT v_found THEN
        RAISE EXCEPTION 'unknown % % in simulation %', v_kind.item, memory._quote(p_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = v_hint;
    END IF;
END
$_$;

ALTER FUNCTION memory._require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text) OWNER TO memory_owner;

-- FUNCTION _require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text) IS 'Internal: enter a simulation and check that it holds a node, edge, episode or report (P0002)';

-- FUNCTION _require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text) TO memory_reader;

-- _require_simulation(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_published boolean;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_simulation_id, 'p_simulation_id', 'pass the id of a simulation of the tenant');
    SELECT s.published INTO v_published FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown simulation % for tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'create it with memory.upsert_simulation()';
    END IF;
    IF NOT v_published THEN
        RAISE EXCEPTION 'simulation % has nothing committed yet', p_simulation_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'its first import has not committed; see memory.import_attempts()';
    END IF;
END
$$;

ALTER FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION _require_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid) IS 'Internal: enter the tenant and check that the simulation is one of its own (P0002)';

-- FUNCTION _require_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;
GRANT ALL ON FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- _said_something(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT EXISTS (SELECT 1 FROM memory.episodes AS e
                    WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                      AND e.episode_key = pg_catalog.md5(p_episode_id)::uuid
                      AND memory._action_said(e.content, e.metadata) IS NOT NULL)
$$;

ALTER FUNCTION memory._said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) OWNER TO memory_owner;

-- FUNCTION _said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) IS 'Internal: whether an episode said something of its own (recall''s words and graph arms answer only those)';

-- FUNCTION _said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) TO memory_reader;

-- _search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamp with time zone, timestamp with time zone, boolean, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text, p_pool integer) RETURNS TABLE(episode_id text, agent_id integer, agent_name text, platform text, round integer, action_type text, content text, occurred_at timestamp with time zone, similarity double precision, copies integer, agents integer)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_k          integer;
    v_n          integer;
    v_hits       memory.episode_hit[];
    v_clumps     integer[];
    v_index_rows real;
    v_bridge     boolean := false;
    v_sim_no     bigint;
    v_ranged     boolean := pg_catalog.num_nonnulls(p_round_from, p_round_to, p_from, p_to) > 0;
    v_in_range   bigint;
    v_build      bigint;
    v_points     bigint;
    v_first      integer[];
    v_copies     integer[];
    v_agents     integer[];
    -- where a range is searched exactly whatever the simulation's size
    c_exact_max  constant integer := 10000;
    -- p_collapse: the first pool is c_pool_per x top_k hits (at least c_pool_min), growing
    -- up to c_pool_max
    c_pool_per   constant integer := 5;
    c_pool_min   constant integer := 50;
    c_pool_max   constant integer := 200;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    IF p_round_from > p_round_to THEN
        RAISE EXCEPTION 'round range % to % ends before it starts', p_round_from, p_round_to
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass p_round_from <= p_round_to (both inclusive)';
    END IF;
    IF p_from > p_to THEN
        RAISE EXCEPTION 'time window % to % ends before it starts', p_from, p_to
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass p_from <= p_to (the window is [p_from, p_to))';
    END IF;
    v_k := LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100);
    -- the hits to find: top_k, or the pool that collapsing walks
    v_n := CASE WHEN p_collapse THEN LEAST(GREATEST(v_k * c_pool_per, c_pool_min), c_pool_max)
                ELSE v_k END;
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF NOT v_ranged AND p_agent_id IS NULL THEN
        SELECT b.build_no, b.points INTO v_build, v_points
          FROM memory._clump_state(p_tenant_id, p_simulation_id) AS b
         WHERE b.fresh AND b.index_ok;
    END IF;
    -- the simulation's HNSW index when it is valid (one being built concurrently is not),
    -- else its bridge (memory._search_episodes_ivf) when that is valid
    SELECT c.reltuples INTO v_index_rows
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._ann_index_name(v_sim_no)) AND i.indisvalid;
    IF v_index_rows IS NULL THEN
        v_bridge := EXISTS (SELECT 1 FROM pg_catalog.pg_index AS i
                             WHERE i.indexrelid = pg_catalog.to_regclass('memory.' || memory._ann_ivf_index_name(v_sim_no))
                               AND i.indisvalid);
    END IF;
    IF (v_index_rows IS NOT NULL OR v_bridge) AND v_ranged THEN
        EXECUTE $q$
            SELECT pg_catalog.count(*) FROM (
                SELECT 1 FROM memory.episodes AS e
                 WHERE e.tenant_id = $1 AND e.simulation_id = $2
                   AND ($3::integer IS NULL OR e.agent_id = $3)
                   AND ($4::integer IS NULL OR e.round >= $4) AND ($5::integer IS NULL OR e.round <= $5)
                   AND ($6::timestamptz IS NULL OR e.occurred_at >= $6)
                   AND ($7::timestamptz IS NULL OR e.occurred_at < $7)
                 LIMIT $8) AS w $q$
          INTO v_in_range
          USING p_tenant_id, p_simulation_id, p_agent_id, p_round_from, p_round_to, p_from, p_to, c_exact_max + 1;
    END IF;
    LOOP
        v_hits := NULL;
        v_clumps := NULL;
        IF v_build IS NOT NULL THEN
            SELECT pg_catalog.array_agg(c.hit ORDER BY c.n), pg_catalog.array_agg(c.hit_clump ORDER BY c.n)
              INTO v_hits, v_clumps
              FROM memory._clump_search(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_build_no => v_build,
                                        p_points => v_points, p_query => p_query, p_top_k => v_n)
                   WITH ORDINALITY AS c(hit, hit_clump, n);
        ELSIF v_index_rows IS NOT NULL AND (NOT v_ranged OR v_in_range > c_exact_max) THEN
            v_hits := ARRAY(SELECT h FROM memory._search_episodes_ann(
                p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                p_sim_no => v_sim_no, p_query => p_query, p_top_k => v_n, p_agent_id => p_agent_id,
                p_index_rows => v_index_rows, p_round_from => p_round_from,
                p_round_to => p_round_to, p_from => p_from, p_to => p_to, p_pool => p_pool) AS h);
        ELSIF v_bridge AND (NOT v_ranged OR v_in_range > c_exact_max) THEN
            v_hits := ARRAY(SELECT h FROM memory._search_episodes_ivf(
                p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                p_sim_no => v_sim_no, p_query => p_query, p_top_k => v_n, p_agent_id => p_agent_id,
                p_round_from => p_round_from, p_round_to => p_round_to, p_from => p_from,
                p_to => p_to, p_pool => p_pool) AS h);
        END IF;
        -- Fewer than asked for (a rare agent, a narrow range, or an index still building):
        -- the exact search below is the authority.
        IF COALESCE(pg_catalog.cardinality(v_hits), 0) < v_n THEN
            v_hits := NULL;
            v_clumps := NULL;
        END IF;
        IF v_hits IS NULL AND v_ranged THEN
            EXECUTE $q$
                SELECT ARRAY(
                SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                           e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) $8))::memory.episode_hit
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = $1 AND e.simulation_id = $2
                   AND e.embedding IS NOT NULL
                   AND ($3::integer IS NULL OR e.agent_id = $3)
                   AND ($4::integer IS NULL OR e.round >= $4) AND ($5::integer IS NULL OR e.round <= $5)
                   AND ($6::timestamptz IS NULL OR e.occurred_at >= $6)
                   AND ($7::timestamptz IS NULL OR e.occurred_at < $7)
                 ORDER BY e.embedding OPERATOR(public.<=>) $8, e.episode_id
                 LIMIT $9) $q$
            INTO v_hits
            USING p_tenant_id, p_simulation_id, p_agent_id, p_round_from, p_round_to, p_from, p_to,
                  p_query::public.vector(384), v_n;
        ELSIF v_hits IS NULL THEN
            v_hits := ARRAY(
                SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                           e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384)))::memory.episode_hit
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id
                   AND e.simulation_id = p_simulation_id
                   AND e.embedding IS NOT NULL
                   AND (p_agent_id IS NULL OR e.agent_id = p_agent_id)
                 ORDER BY e.embedding OPERATOR(public.<=>) p_query::public.vector(384), e.episode_id
                 LIMIT v_n);
        END IF;
        EXIT WHEN NOT COALESCE(p_collapse, false);
        SELECT pg_catalog.array_agg(g.first_hit ORDER BY g.n), pg_catalog.array_agg(g.copies ORDER BY g.n),
               pg_catalog.array_agg(g.agents ORDER BY g.n)
          INTO v_first, v_copies, v_agents
          FROM memory._clump_collapse(p_tenant_id, p_simulation_id, CASE WHEN v_clumps IS NOT NULL THEN v_build END,
                                      v_hits, v_clumps) WITH ORDINALITY AS g(first_hit, copies, agents, n);
        EXIT WHEN COALESCE(pg_catalog.cardinality(v_first), 0) >= v_k
               OR pg_catalog.cardinality(v_hits) < v_n OR v_n >= c_pool_max;
        v_n := LEAST(v_n * 4, c_pool_max);
    END LOOP;
    IF NOT COALESCE(p_collapse, false) THEN
        RETURN QUERY
        SELECT h.episode_id, h.agent_id, h.agent_name, h.platform, h.round, h.action_type, h.content,
               h.occurred_at, h.similarity, 1, (h.agent_id IS NOT NULL)::integer
          FROM pg_catalog.unnest(v_hits) AS h;
        RETURN;
    END IF;
    RETURN QUERY
    SELECT (v_hits[g.f]).episode_id, (v_hits[g.f]).agent_id, (v_hits[g.f]).agent_name,
           (v_hits[g.f]).platform, (v_hits[g.f]).round, (v_hits[g.f]).action_type,
           (v_hits[g.f]).content, (v_hits[g.f]).occurred_at, (v_hits[g.f]).similarity, g.copies, g.agents
      FROM ROWS FROM (pg_catalog.unnest(v_first), pg_catalog.unnest(v_copies), pg_catalog.unnest(v_agents))
           WITH ORDINALITY AS g(f, copies, agents, n)
     ORDER BY g.n
     LIMIT v_k;
END
$_$;

ALTER FUNCTION memory._search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text, p_pool integer) OWNER TO memory_owner;

-- FUNCTION _search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text, p_pool integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text, p_pool integer) IS 'Internal: memory.search_episodes with the number of candidates an index search re-ranks';

-- FUNCTION _search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text, p_pool integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text, p_pool integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text, p_pool integer) TO memory_reader;

-- _search_episodes_ann(uuid, uuid, bigint, public.vector, integer, integer, real, integer, integer, timestamp with time zone, timestamp with time zone, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_episodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_index_rows real, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) RETURNS SETOF memory.episode_hit
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET "hnsw.ef_search" TO '400'
    SET "hnsw.iterative_scan" TO 'relaxed_order'
    SET "hnsw.max_scan_tuples" TO '100000'
    SET enable_sort TO 'off'
    AS $_$
DECLARE
    v_breadth integer := memory._episodes_breadth(p_index_rows, p_top_k, p_pool);
    v_pool    integer := GREATEST(COALESCE(p_pool, CASE WHEN v_breadth < 200 THEN v_breadth ELSE GREATEST(p_top_k * 20, 200) END),
                                  p_top_k);
    v_sql     text;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', v_breadth::text, true);
    v_sql := pg_catalog.format($q$
        SELECT c.episode_id, c.agent_id, c.agent_name, c.platform, c.round, c.action_type,
               c.content, c.occurred_at, 1 - (c.embedding OPERATOR(public.<=>) $1)
          FROM (SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round,
                       e.action_type, e.content, e.occurred_at, e.embedding
                  FROM memory.episodes AS e
                 WHERE e.sim_no = %s AND e.tenant_id = $6 AND e.simulation_id = $7
                   AND ($4::integer IS NULL OR e.agent_id = $4)
                   AND ($8::integer IS NULL OR e.round >= $8) AND ($9::integer IS NULL OR e.round <= $9)
                   AND ($10::timestamptz IS NULL OR e.occurred_at >= $10)
                   AND ($11::timestamptz IS NULL OR e.occurred_at < $11)
                 ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                 LIMIT $3) AS c
         ORDER BY c.embedding OPERATOR(public.<=>) $1, c.episode_id
         LIMIT $5 $q$, p_sim_no);
    RETURN QUERY EXECUTE v_sql
    USING p_query::public.vector(384), p_query::public.halfvec(384), v_pool, p_agent_id, p_top_k,
          p_tenant_id, p_simulation_id, p_round_from, p_round_to, p_from, p_to;
END
$_$;

ALTER FUNCTION memory._search_episodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_index_rows real, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) OWNER TO memory_owner;

-- FUNCTION _search_episodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_index_rows real, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_episodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_index_rows real, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) IS 'Internal: search one simulation through its partial HNSW index, re-ranked exactly';

-- FUNCTION _search_episodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_index_rows real, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_episodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_index_rows real, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_episodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_index_rows real, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) TO memory_reader;

-- _search_episodes_ivf(uuid, uuid, bigint, public.vector, integer, integer, integer, integer, timestamp with time zone, timestamp with time zone, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_episodes_ivf(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) RETURNS SETOF memory.episode_hit
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET "ivfflat.probes" TO '40'
    SET "ivfflat.iterative_scan" TO 'relaxed_order'
    SET "ivfflat.max_probes" TO '60'
    SET enable_sort TO 'off'
    AS $_$
BEGIN
    RETURN QUERY EXECUTE pg_catalog.format($q$
        SELECT c.episode_id, c.agent_id, c.agent_name, c.platform, c.round, c.action_type,
               c.content, c.occurred_at, 1 - (c.embedding OPERATOR(public.<=>) $1)
          FROM (SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round,
                       e.action_type, e.content, e.occurred_at, e.embedding
                  FROM memory.episodes AS e
                 WHERE e.sim_no = %s AND e.embedding IS NOT NULL
                   AND e.tenant_id = $6 AND e.simulation_id = $7
                   AND ($4::integer IS NULL OR e.agent_id = $4)
                   AND ($8::integer IS NULL OR e.round >= $8) AND ($9::integer IS NULL OR e.round <= $9)
                   AND ($10::timestamptz IS NULL OR e.occurred_at >= $10)
                   AND ($11::timestamptz IS NULL OR e.occurred_at < $11)
                 ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                 LIMIT $3) AS c
         ORDER BY c.embedding OPERATOR(public.<=>) $1, c.episode_id
         LIMIT $5 $q$, p_sim_no)
    USING p_query::public.vector(384), p_query::public.halfvec(384),
          GREATEST(COALESCE(p_pool, GREATEST(p_top_k * 20, 200)), p_top_k), p_agent_id, p_top_k,
          p_tenant_id, p_simulation_id, p_round_from, p_round_to, p_from, p_to;
END
$_$;

ALTER FUNCTION memory._search_episodes_ivf(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) OWNER TO memory_owner;

-- FUNCTION _search_episodes_ivf(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_episodes_ivf(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) IS 'Internal: search one simulation through its IVFFlat bridge index (while its HNSW index is being built), re-ranked exactly';

-- FUNCTION _search_episodes_ivf(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_episodes_ivf(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_episodes_ivf(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_pool integer) TO memory_reader;

-- _search_facts(uuid, uuid, public.vector, integer, text, timestamp with time zone, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_breadth integer) RETURNS TABLE(edge_id text, type text, fact text, source_id text, source_key uuid, target_id text, target_key uuid, valid_at timestamp with time zone, invalid_at timestamp with time zone, state text, similarity double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_as_of  timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_k      integer := memory._top_k(p_top_k);
    v_sim_no bigint;
    v_rows   real;
BEGIN
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    -- the index's size as the catalog holds it, when it exists and is valid (an index left
    -- invalid by an interrupted or running CREATE INDEX CONCURRENTLY is no path: the exact
    -- scan answers)
    SELECT c.reltuples INTO v_rows
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._facts_ann_index_name(v_sim_no)) AND i.indisvalid;
    -- The facts ranked (through the index, or by one scan of the simulation's edges and a
    -- top-k sort in memory), without naming their ends: joining every edge to its nodes
    -- before the sort cost more here and a full sort spilled to disk. The state is
    -- memory._fact_state's rule written out (see memory.facts).
    RETURN QUERY
    WITH ann AS MATERIALIZED (
        SELECT a.* FROM memory._search_facts_ann(
            p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_sim_no => v_sim_no,
            p_query => p_query, p_top_k => v_k, p_state => p_state, p_as_of => v_as_of,
            p_index_rows => v_rows, p_breadth => p_breadth) AS a
         WHERE v_rows IS NOT NULL
    ), found AS MATERIALIZED (
        SELECT pg_catalog.count(*) AS n FROM ann
    ), exact AS (
        SELECT r.*
          FROM (SELECT e.edge_id, e.type, e.fact, e.source_id, e.source_key, e.target_id, e.target_key,
                       e.valid_at, e.invalid_at,
                       CASE WHEN e.valid_at > v_as_of THEN 'future'
                            WHEN e.invalid_at <= v_as_of THEN 'ended'
                            WHEN e.expired_at <= v_as_of THEN 'expired'
                            ELSE 'current' END AS state,
                       1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384)) AS similarity
                  FROM memory.edges AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                   AND e.embedding IS NOT NULL) AS r
         WHERE (p_state = 'all' OR r.state = p_state
                OR (p_state = 'historical' AND r.state IN ('ended', 'expired')))
           AND (SELECT c.n FROM found AS c) < v_k
         ORDER BY r.similarity DESC, r.edge_id
         LIMIT v_k
    ), f AS (
        SELECT * FROM ann WHERE (SELECT c.n FROM found AS c) >= v_k
        UNION ALL
        SELECT * FROM exact
    )
    SELECT * FROM f;
END
$$;

ALTER FUNCTION memory._search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_breadth integer) OWNER TO memory_owner;

-- FUNCTION _search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_breadth integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_breadth integer) IS 'Internal: memory.search_facts'' ranking (through the facts'' index or exactly), ends unnamed, with the breadth of the index search optionally given';

-- FUNCTION _search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_breadth integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_breadth integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_breadth integer) TO memory_reader;

-- _search_facts_ann(uuid, uuid, bigint, public.vector, integer, text, timestamp with time zone, real, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_facts_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_index_rows real, p_breadth integer DEFAULT NULL::integer) RETURNS TABLE(edge_id text, type text, fact text, source_id text, source_key uuid, target_id text, target_key uuid, valid_at timestamp with time zone, invalid_at timestamp with time zone, state text, similarity double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET "hnsw.ef_search" TO '400'
    SET "hnsw.iterative_scan" TO 'relaxed_order'
    SET "hnsw.max_scan_tuples" TO '20000'
    SET enable_sort TO 'off'
    AS $_$
DECLARE
    v_breadth integer := GREATEST(COALESCE(p_breadth, memory._ann_breadth(p_index_rows)), p_top_k);
    v_as_of   timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_sql     text;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', v_breadth::text, true);
    v_sql := pg_catalog.format($q$
        SELECT c.edge_id, c.type, c.fact, c.source_id, c.source_key, c.target_id, c.target_key,
               c.valid_at, c.invalid_at, c.state, 1 - (c.embedding OPERATOR(public.<=>) $1)
          FROM (SELECT r.*
                  FROM (SELECT e.edge_id, e.type, e.fact, e.source_id, e.source_key, e.target_id, e.target_key,
                               e.valid_at, e.invalid_at, e.embedding,
                               CASE WHEN e.valid_at > $6 THEN 'future'
                                    WHEN e.invalid_at <= $6 THEN 'ended'
                                    WHEN e.expired_at <= $6 THEN 'expired'
                                    ELSE 'current' END AS state
                          FROM memory.edges AS e
                         WHERE e.sim_no = %s AND e.tenant_id = $3 AND e.simulation_id = $4
                           AND e.embedding IS NOT NULL
                         ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                         OFFSET 0) AS r
                 WHERE $5 = 'all' OR r.state = $5 OR ($5 = 'historical' AND r.state IN ('ended', 'expired'))
                 LIMIT $7) AS c
         ORDER BY c.embedding OPERATOR(public.<=>) $1, c.edge_id
         LIMIT $8 $q$, p_sim_no);
    RETURN QUERY EXECUTE v_sql
    USING p_query::public.vector(384), p_query::public.halfvec(384), p_tenant_id, p_simulation_id,
          p_state, v_as_of, v_breadth, p_top_k;
END
$_$;

ALTER FUNCTION memory._search_facts_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_index_rows real, p_breadth integer) OWNER TO memory_owner;

-- FUNCTION _search_facts_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_index_rows real, p_breadth integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_facts_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_index_rows real, p_breadth integer) IS 'Internal: search one simulation''s facts through their partial HNSW index, in a state, re-ranked exactly';

-- FUNCTION _search_facts_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_index_rows real, p_breadth integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_facts_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_index_rows real, p_breadth integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_facts_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_index_rows real, p_breadth integer) TO memory_reader;

-- _search_nodes(uuid, uuid, public.vector, integer, text, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_breadth integer) RETURNS TABLE(node_id text, name text, type text, summary text, similarity double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_k      integer := memory._top_k(p_top_k);
    v_sim_no bigint;
    v_rows   real;
BEGIN
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    -- the pair's size as the catalog holds it, when both of its indexes exist and are valid
    -- (an index left invalid by an interrupted CREATE INDEX CONCURRENTLY is no path)
    SELECT c.reltuples INTO v_rows
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no)) AND i.indisvalid
       AND EXISTS (SELECT 1 FROM pg_catalog.pg_index AS j
                    WHERE j.indexrelid = pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no) || '_summary')
                      AND j.indisvalid);
    RETURN QUERY
    WITH ann AS MATERIALIZED (
        SELECT a.* FROM memory._search_nodes_ann(
            p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_sim_no => v_sim_no,
            p_query => p_query, p_top_k => v_k, p_type => p_type, p_by => p_by,
            p_index_rows => v_rows, p_breadth => p_breadth) AS a
         WHERE v_rows IS NOT NULL
    ), found AS MATERIALIZED (
        SELECT pg_catalog.count(*) AS n FROM ann
    ), exact AS (
        SELECT n.node_id, n.name, n.type, n.summary, n.similarity
          FROM (SELECT n.node_id, n.name, n.type, n.summary,
                       1 - CASE p_by
                               WHEN 'name' THEN n.embedding OPERATOR(public.<=>) p_query::public.vector(384)
                               WHEN 'summary' THEN n.summary_embedding OPERATOR(public.<=>) p_query::public.vector(384)
                               WHEN 'meaning' THEN COALESCE(n.summary_embedding OPERATOR(public.<=>) p_query::public.vector(384),
                                                            n.embedding OPERATOR(public.<=>) p_query::public.vector(384))
                               ELSE LEAST(n.embedding OPERATOR(public.<=>) p_query::public.vector(384),
                                          n.summary_embedding OPERATOR(public.<=>) p_query::public.vector(384)) END
                       AS similarity
                  FROM memory.nodes AS n
                 WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                   AND (p_type IS NULL OR n.type = p_type)
                -- (OFFSET 0: flattened, the similarity was computed twice a row, for the
                -- filter and for the order)
                OFFSET 0) AS n
         WHERE n.similarity IS NOT NULL AND (SELECT c.n FROM found AS c) < v_k
         ORDER BY n.similarity DESC, n.node_id
         LIMIT v_k
    )
    SELECT * FROM ann WHERE (SELECT c.n FROM found AS c) >= v_k
    UNION ALL
    SELECT * FROM exact;
END
$$;

ALTER FUNCTION memory._search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_breadth integer) OWNER TO memory_owner;

-- FUNCTION _search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_breadth integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_breadth integer) IS 'Internal: memory.search_nodes'' ranking (through the entity indexes or exactly), with the breadth of the index searches optionally given';

-- FUNCTION _search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_breadth integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_breadth integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_breadth integer) TO memory_reader;

-- _search_nodes_ann(uuid, uuid, bigint, public.vector, integer, text, text, real, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_nodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_type text, p_by text, p_index_rows real, p_breadth integer DEFAULT NULL::integer) RETURNS TABLE(node_id text, name text, type text, summary text, similarity double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET "hnsw.ef_search" TO '200'
    SET "hnsw.iterative_scan" TO 'relaxed_order'
    SET "hnsw.max_scan_tuples" TO '20000'
    SET enable_sort TO 'off'
    AS $_$
DECLARE
    v_breadth integer := GREATEST(COALESCE(p_breadth, memory._ann_breadth(p_index_rows)), p_top_k);
    v_read    integer := LEAST(v_breadth, GREATEST(2 * p_top_k, 100));
    v_sql     text;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', v_breadth::text, true);
    v_sql := pg_catalog.format($q$
        SELECT DISTINCT c.node_id, c.name, c.type, c.summary,
               1 - CASE $6 WHEN 'name' THEN c.embedding OPERATOR(public.<=>) $1
                           WHEN 'summary' THEN c.summary_embedding OPERATOR(public.<=>) $1
                           WHEN 'meaning' THEN COALESCE(c.summary_embedding OPERATOR(public.<=>) $1,
                                                        c.embedding OPERATOR(public.<=>) $1)
                           ELSE LEAST(c.embedding OPERATOR(public.<=>) $1,
                                      c.summary_embedding OPERATOR(public.<=>) $1) END AS similarity
          FROM ((SELECT n.node_id, n.name, n.type, n.summary, n.embedding, n.summary_embedding
                   FROM memory.nodes AS n
                  WHERE n.sim_no = %1$s AND n.tenant_id = $3 AND n.simulation_id = $4
                    AND n.embedding IS NOT NULL
                    AND ($5::text IS NULL OR n.type = $5) AND $6 IN ('name', 'both')
                  ORDER BY n.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                  LIMIT $7)
                UNION ALL
                (SELECT n.node_id, n.name, n.type, n.summary, n.embedding, n.summary_embedding
                   FROM memory.nodes AS n
                  WHERE n.tenant_id = $3 AND n.simulation_id = $4
                    AND n.summary_embedding IS NULL AND n.embedding IS NOT NULL
                    AND ($5::text IS NULL OR n.type = $5) AND $6 = 'meaning'
                  ORDER BY n.embedding OPERATOR(public.<=>) $1
                  LIMIT $7)
                UNION ALL
                (SELECT n.node_id, n.name, n.type, n.summary, n.embedding, n.summary_embedding
                   FROM memory.nodes AS n
                  WHERE n.sim_no = %1$s AND n.tenant_id = $3 AND n.simulation_id = $4
                    AND n.summary_embedding IS NOT NULL
                    AND ($5::text IS NULL OR n.type = $5) AND $6 IN ('summary', 'both', 'meaning')
                  ORDER BY n.summary_embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                  LIMIT $7)) AS c
         ORDER BY 5 DESC, 1
         LIMIT $8 $q$, p_sim_no);
    RETURN QUERY EXECUTE v_sql
    USING p_query::public.vector(384), p_query::public.halfvec(384), p_tenant_id, p_simulation_id,
          p_type, p_by, v_read, p_top_k;
END
$_$;

ALTER FUNCTION memory._search_nodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_type text, p_by text, p_index_rows real, p_breadth integer) OWNER TO memory_owner;

-- FUNCTION _search_nodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_type text, p_by text, p_index_rows real, p_breadth integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_nodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_type text, p_by text, p_index_rows real, p_breadth integer) IS 'Internal: search one simulation''s entities through their partial HNSW indexes (name, summary or both), re-ranked exactly';

-- FUNCTION _search_nodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_type text, p_by text, p_index_rows real, p_breadth integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_nodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_type text, p_by text, p_index_rows real, p_breadth integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_nodes_ann(p_tenant_id uuid, p_simulation_id uuid, p_sim_no bigint, p_query public.vector, p_top_k integer, p_type text, p_by text, p_index_rows real, p_breadth integer) TO memory_reader;

-- _search_words(uuid, uuid, text, integer, text[], uuid[], real[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[], p_name_keys uuid[], p_name_sims real[]) RETURNS TABLE(kind text, id text, text text, score real, matched text, cover real)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_words   text[];
    v_lexemes text[];
    v_kinds   "char"[];
    v_cap     integer := memory._limit('word_candidates');
    v_top     integer := memory._top_k(p_top_k);
BEGIN
    v_kinds := ARRAY(SELECT DISTINCT CASE k WHEN 'episode' THEN 'e' WHEN 'fact' THEN 'f' ELSE 'n' END::"char"
                       FROM pg_catalog.unnest(COALESCE(p_kinds, ARRAY['episode', 'fact', 'entity'])) AS k);
    SELECT pg_catalog.array_agg(q.word), pg_catalog.array_agg(q.lexeme) INTO v_words, v_lexemes
      FROM memory._words_query(p_query_text) AS q;
    PERFORM memory._check_limit('list_elements', 'words of p_query_text', pg_catalog.cardinality(v_words));
    RETURN QUERY
    WITH q AS MATERIALIZED (
        -- each word with its document frequency, counted up to the cap
        SELECT u.n, u.word, u.lexeme,
               (SELECT pg_catalog.count(*) FROM (
                    SELECT 1 FROM memory.word_postings AS p
                     WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                       AND p.word = u.lexeme AND p.kind = ANY (v_kinds)
                     LIMIT v_cap + 1) AS c) AS df
          FROM ROWS FROM (pg_catalog.unnest(v_words), pg_catalog.unnest(v_lexemes)) WITH ORDINALITY AS u (word, lexeme, n)
    ), seeds AS MATERIALIZED (
        -- the candidates: the rows holding the rarest word, then the next rarest, ... while
        -- fewer than the cap are taken (the rows of the rarest word are all taken when it is
        -- at most that frequent, so every row holding all the words is a candidate then)
        SELECT DISTINCT p.kind, p.row_key
          FROM (SELECT r.lexeme, r.df,
                       COALESCE(pg_catalog.sum(r.df) OVER (ORDER BY r.df, r.n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
                  FROM q AS r WHERE r.df > 0) AS w
         CROSS JOIN LATERAL (SELECT p.kind, p.row_key FROM memory.word_postings AS p
                              WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                                AND p.word = w.lexeme AND p.kind = ANY (v_kinds)
                              LIMIT v_cap - w.before) AS p
         WHERE w.before < v_cap
    ), names AS MATERIALIZED (
        SELECT c.node_key, c.similarity FROM memory._name_candidates(p_tenant_id, p_simulation_id, p_query_text, LEAST(v_top, 10)) AS c
         WHERE 'n' = ANY (v_kinds) AND p_name_keys IS NULL
        UNION ALL
        SELECT u.node_key, u.similarity FROM ROWS FROM (pg_catalog.unnest(p_name_keys), pg_catalog.unnest(p_name_sims)) AS u (node_key, similarity)
         WHERE 'n' = ANY (v_kinds)
    ), cand AS MATERIALIZED (
        SELECT s.kind, s.row_key FROM seeds AS s UNION SELECT 'n'::"char", n.node_key FROM names AS n
    ), held AS MATERIALIZED (
        -- the question's words each candidate holds: one scan of the postings a word, for
        -- the candidates' keys at once (ScalarArrayOp on the primary key's last column; a
        -- key of another kind than its candidate's joins nothing below)
        SELECT p.kind, p.row_key, q.n, q.word, q.df, p.tf, p.weight, p.doc_len
          FROM q CROSS JOIN LATERAL (
                   SELECT p.kind, p.row_key, p.tf, p.weight, p.doc_len FROM memory.word_postings AS p
                    WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                      AND p.word = q.lexeme AND p.kind = ANY (v_kinds)
                      AND p.row_key = ANY (ARRAY(SELECT c.row_key FROM cand AS c))
                   OFFSET 0) AS p
    ), scored AS MATERIALIZED (
        SELECT c.kind, c.row_key,
               GREATEST(COALESCE(h.s / (h.s + 1), 0), nm.similarity)::real AS score,
               h.words, nm.similarity AS name_score,
               CASE WHEN nm.similarity IS NOT NULL THEN 1
                    ELSE COALESCE(h.idf, 0) / NULLIF((SELECT pg_catalog.sum(pg_catalog.ln(1 + (v_cap + 1)::double precision / GREATEST(a.df, 1)))
                                                       FROM q AS a), 0) END::real AS cover
          FROM cand AS c
          LEFT JOIN names AS nm ON c.kind = 'n' AND nm.node_key = c.row_key
          LEFT JOIN (
              SELECT p.kind, p.row_key,
                     -- (summed in the question's word order, whatever the plan: the same
                     -- rounding, so the same ties, every time)
                     pg_catalog.sum(pg_catalog.ln(1 + (v_cap + 1)::double precision / GREATEST(p.df, 1))
                                    * CASE p.weight WHEN 'A' THEN 1.0 ELSE 0.4 END
                                    * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.doc_len / 16.0)) ORDER BY p.n) AS s,
                     pg_catalog.string_agg(p.word, ' ' ORDER BY p.n) AS words,
                     pg_catalog.sum(pg_catalog.ln(1 + (v_cap + 1)::double precision / GREATEST(p.df, 1)) ORDER BY p.n) AS idf
                FROM held AS p
               GROUP BY p.kind, p.row_key) AS h ON h.kind = c.kind AND h.row_key = c.row_key
    ), best AS (
        -- the top rows and every row tied with the last of them (ties go by kind and id)
        SELECT s.* FROM scored AS s
         WHERE s.score > 0
           AND s.score >= (SELECT pg_catalog.min(t.score) FROM (SELECT r.score FROM scored AS r WHERE r.score > 0
                                                                  ORDER BY r.score DESC LIMIT v_top) AS t)
    )
    SELECT r.kind, r.id, r.body, b.score,
           pg_catalog.concat_ws(' ', b.words,
                                CASE WHEN b.name_score IS NOT NULL THEN '~' OPERATOR(pg_catalog.||) r.name END),
           b.cover
      FROM best AS b
     CROSS JOIN LATERAL (
         SELECT 'episode'::text AS kind, e.episode_id AS id, e.content AS body, NULL::text AS name
           FROM memory.episodes AS e
          WHERE b.kind = 'e' AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id AND e.episode_key = b.row_key
         UNION ALL
         SELECT 'fact', g.edge_id, g.fact, NULL
           FROM memory.edges AS g
          WHERE b.kind = 'f' AND g.tenant_id = p_tenant_id AND g.simulation_id = p_simulation_id AND g.edge_key = b.row_key
         UNION ALL
         SELECT 'entity', n.node_id, n.name OPERATOR(pg_catalog.||) COALESCE(': ' OPERATOR(pg_catalog.||) n.summary, ''), n.name
           FROM memory.nodes AS n
          WHERE b.kind = 'n' AND n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = b.row_key) AS r
     ORDER BY b.score DESC, r.kind, r.id
     LIMIT v_top;
END
$$;

ALTER FUNCTION memory._search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[], p_name_keys uuid[], p_name_sims real[]) OWNER TO memory_owner;

-- FUNCTION _search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[], p_name_keys uuid[], p_name_sims real[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[], p_name_keys uuid[], p_name_sims real[]) IS 'Internal: the words arm of memory.search_words for a caller that has entered the tenant, with the named entities optionally given';

-- FUNCTION _search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[], p_name_keys uuid[], p_name_sims real[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[], p_name_keys uuid[], p_name_sims real[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[], p_name_keys uuid[], p_name_sims real[]) TO memory_reader;

-- _set_tenant(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._set_tenant(p_tenant_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    IF pg_catalog.current_setting('citus.propagate_set_commands', true) IS NOT NULL THEN
        SET LOCAL citus.propagate_set_commands = 'local';
        SET LOCAL citus.allow_nested_distributed_execution = on;
        EXECUTE pg_catalog.format('SET LOCAL memory.tenant_id = %L', p_tenant_id);
    END IF;
END
$$;

ALTER FUNCTION memory._set_tenant(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION _set_tenant(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._set_tenant(p_tenant_id uuid) IS 'Internal: make a tenant the tenant of the transaction for the policies (and, on Citus, of the statements sent to the workers); checks no grant';

-- FUNCTION _set_tenant(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._set_tenant(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._set_tenant(p_tenant_id uuid) TO memory_reader;
GRANT ALL ON FUNCTION memory._set_tenant(p_tenant_id uuid) TO memory_writer;
GRANT ALL ON FUNCTION memory._set_tenant(p_tenant_id uuid) TO memory_admin;

-- _simulation_model(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._simulation_model(p_tenant_id uuid, p_simulation_id uuid, OUT model text, OUT named_by text) RETURNS record
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    SELECT s.embedding_model INTO model FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF model IS NOT NULL THEN
        named_by := 'simulation';
        RETURN;
    END IF;
    IF FOUND THEN
        SELECT v.model INTO model
          FROM (SELECT * FROM (SELECT n.embedding_model AS model FROM memory.nodes AS n
                                WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                                  AND n.embedding IS NOT NULL LIMIT 1) AS a
                UNION ALL
                SELECT * FROM (SELECT e.embedding_model FROM memory.edges AS e
                                WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                  AND e.embedding IS NOT NULL LIMIT 1) AS b
                UNION ALL
                SELECT * FROM (SELECT e.embedding_model FROM memory.episodes AS e
                                WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                  AND e.embedding IS NOT NULL LIMIT 1) AS c
                UNION ALL
                SELECT * FROM (SELECT c.embedding_model FROM memory.report_chunks AS c
                                WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
                                  AND c.embedding IS NOT NULL LIMIT 1) AS d) AS v
         LIMIT 1;
        IF model IS NOT NULL THEN
            named_by := 'vectors';
            RETURN;
        END IF;
    END IF;
    SELECT t.embedding_model INTO model FROM memory.tenant_models AS t WHERE t.tenant_id = p_tenant_id;
    named_by := CASE WHEN model IS NULL THEN 'default' ELSE 'tenant' END;
    model := COALESCE(model, memory._default_model());
END
$$;

ALTER FUNCTION memory._simulation_model(p_tenant_id uuid, p_simulation_id uuid, OUT model text, OUT named_by text) OWNER TO memory_owner;

-- FUNCTION _simulation_model(p_tenant_id uuid, p_simulation_id uuid, OUT model text, OUT named_by text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._simulation_model(p_tenant_id uuid, p_simulation_id uuid, OUT model text, OUT named_by text) IS 'Internal: the model of a simulation''s vectors and what names it (simulation, vectors, tenant, default)';

-- FUNCTION _simulation_model(p_tenant_id uuid, p_simulation_id uuid, OUT model text, OUT named_by text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._simulation_model(p_tenant_id uuid, p_simulation_id uuid, OUT model text, OUT named_by text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._simulation_model(p_tenant_id uuid, p_simulation_id uuid, OUT model text, OUT named_by text) TO memory_reader;

-- _skip_dangling(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._skip_dangling(p_tenant_id uuid, p_attempt_id uuid) RETURNS text[]
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_skipped text[];
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    WITH gone AS (
        DELETE FROM memory.staged_edges AS e
         WHERE e.tenant_id = p_tenant_id AND e.attempt_id = p_attempt_id
           AND (NOT EXISTS (SELECT 1 FROM memory.staged_nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.attempt_id = p_attempt_id
                               AND n.node_key = pg_catalog.md5(e.source_id)::uuid)
             OR NOT EXISTS (SELECT 1 FROM memory.staged_nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.attempt_id = p_attempt_id
                               AND n.node_key = pg_catalog.md5(e.target_id)::uuid))
        RETURNING e.edge_id)
    SELECT pg_catalog.array_agg(gone.edge_id ORDER BY gone.edge_id) INTO v_skipped FROM gone;
    RETURN v_skipped;
END
$$;

ALTER FUNCTION memory._skip_dangling(p_tenant_id uuid, p_attempt_id uuid) OWNER TO memory_owner;

-- FUNCTION _skip_dangling(p_tenant_id uuid, p_attempt_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._skip_dangling(p_tenant_id uuid, p_attempt_id uuid) IS 'Internal: drop an attempt''s staged edges to nodes it does not stage, returning their ids (SECURITY DEFINER: writers hold no DELETE)';

-- FUNCTION _skip_dangling(p_tenant_id uuid, p_attempt_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._skip_dangling(p_tenant_id uuid, p_attempt_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._skip_dangling(p_tenant_id uuid, p_attempt_id uuid) TO memory_writer;

-- _stage_kind(text, uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_cols  text;
    v_vals  text;
    v_moved bigint;
BEGIN
    SELECT pg_catalog.string_agg(pg_catalog.format('%I', c.col), ', '),
           pg_catalog.string_agg(c.value_sql, ', ')
      INTO v_cols, v_vals
      FROM memory._kind_columns(p_kind) AS c;
    EXECUTE pg_catalog.format(
        'INSERT INTO %s (tenant_id, attempt_id, %s) SELECT $1, $2, %s FROM pg_temp.%I AS s RETURNING 1',
        (memory._kind(p_kind)).staged, v_cols, v_vals, 'stage_' || p_kind)
    USING p_tenant_id, p_attempt_id;
    GET DIAGNOSTICS v_moved = ROW_COUNT;
    EXECUTE pg_catalog.format('TRUNCATE pg_temp.%I', 'stage_' || p_kind);
    RETURN v_moved;
END
$_$;

ALTER FUNCTION memory._stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid) OWNER TO memory_owner;

-- FUNCTION _stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid) IS 'Internal: move a session staging table''s rows of a record kind into an import attempt';

-- FUNCTION _stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._stage_kind(p_kind text, p_tenant_id uuid, p_attempt_id uuid) TO memory_writer;

-- _staging_duplicate(text, uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid) RETURNS TABLE(key text, first_position integer, second_position integer)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_kind memory.record_kind := memory._kind(p_kind);
    v_key  text;
BEGIN
    -- The key as a person names it: the id, or the key fields joined by '/'.
    SELECT pg_catalog.string_agg(pg_catalog.format('%%1$I.%I',
               CASE WHEN f.field = 'id' THEN v_kind.id_column::text ELSE f.field END), ', ' ORDER BY f.ord)
      INTO v_key
      FROM pg_catalog.unnest(v_kind.batch_key) WITH ORDINALITY AS f(field, ord);
    v_key := 'pg_catalog.concat_ws(''/'', ' || v_key || ')';
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT k.key, pg_catalog.min(k.position),'
        '       (pg_catalog.array_agg(k.position ORDER BY k.position))[2]'
        '  FROM (SELECT %1$s AS key, s.position FROM pg_temp.%2$I AS s'
        '        UNION ALL'
        '        SELECT %3$s, st.position FROM %4$s AS st JOIN pg_temp.%2$I AS s ON %5$s'
        '         WHERE st.tenant_id = $1 AND st.attempt_id = $2) AS k'
        ' GROUP BY k.key HAVING pg_catalog.count(*) > 1'
        ' ORDER BY 2 LIMIT 1',
        pg_catalog.format(v_key, 's'), 'stage_' || p_kind, pg_catalog.format(v_key, 'st'),
        v_kind.staged, memory._kind_key(p_kind, 'st', 's'))
    USING p_tenant_id, p_attempt_id;
END
$_$;

ALTER FUNCTION memory._staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid) OWNER TO memory_owner;

-- FUNCTION _staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid) IS 'Internal: the first key of a record kind staged twice for an import attempt';

-- FUNCTION _staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._staging_duplicate(p_kind text, p_tenant_id uuid, p_attempt_id uuid) TO memory_writer;

-- _staging_problem(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._staging_problem(p_kind text) RETURNS TABLE(row_position integer, problem text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_checks   text;
    v_sizes    text;
    v_item     text;
    v_position integer;
    v_problem  text;
    v_over     text[];
BEGIN
    SELECT pg_catalog.string_agg(
               CASE WHEN c.required AND c.col = k.id_column
                    THEN pg_catalog.format(' WHEN s.%I IS NULL OR s.%I = %L THEN %L', c.col, c.col, '', c.col || ' is missing')
                    WHEN c.required
                    THEN pg_catalog.format(' WHEN s.%I IS NULL THEN %L', c.col, c.col || ' is missing')
                    ELSE '' END
               || CASE c.check_kind
                    WHEN 'label' THEN pg_catalog.format(
                        ' WHEN pg_catalog.char_length(s.%I) > memory._label_max() THEN %L', c.col,
                        pg_catalog.format('%s is longer than %s characters', c.col, memory._label_max()))
                    WHEN 'vector' THEN pg_catalog.format(
                        ' WHEN memory._vector_problem(s.%I) IS NOT NULL THEN %L || memory._vector_problem(s.%I)',
                        c.col, c.col || ' ', c.col)
                    ELSE '' END, ''),
           pg_catalog.string_agg(
               CASE c.type_sql
                    WHEN 'text' THEN pg_catalog.format(
                        ' WHEN pg_catalog.octet_length(s.%1$I) > %2$s THEN ARRAY[%1$L, %3$L, pg_catalog.octet_length(s.%1$I)::text]',
                        c.col, memory._limit('string_bytes'), 'string_bytes')
                    WHEN 'jsonb' THEN pg_catalog.format(
                        ' WHEN pg_catalog.octet_length(s.%1$I::text) > %2$s THEN ARRAY[%1$L, %3$L, pg_catalog.octet_length(s.%1$I::text)::text]',
                        c.col, memory._limit('object_bytes'), 'object_bytes')
                    WHEN 'text[]' THEN pg_catalog.format(
                        ' WHEN pg_catalog.cardinality(s.%1$I) > %2$s THEN ARRAY[%1$L, %3$L, pg_catalog.cardinality(s.%1$I)::text]',
                        c.col, memory._limit('list_elements'), 'list_elements')
                    ELSE '' END, ''),
           pg_catalog.min(k.item)
      INTO v_checks, v_sizes, v_item
      FROM memory._kind_columns(p_kind) AS c
     CROSS JOIN memory._kind(p_kind) AS k;
    EXECUTE pg_catalog.format(
        'SELECT p.position, p.problem, p.over'
        '  FROM (SELECT s.position, CASE %s END AS problem,'
        '               CASE WHEN false THEN NULL::text[] %s END AS over FROM pg_temp.%I AS s) AS p'
        ' WHERE p.problem IS NOT NULL OR p.over IS NOT NULL ORDER BY p.position LIMIT 1',
        v_checks, v_sizes, 'stage_' || p_kind)
       INTO v_position, v_problem, v_over;
    IF v_over IS NOT NULL THEN
        PERFORM memory._check_limit(v_over[2], pg_catalog.format('%s at position %s: %s', v_item, v_position, v_over[1]),
                                    v_over[3]::bigint);
    END IF;
    IF v_position IS NOT NULL THEN
        RETURN QUERY SELECT v_position, v_problem;
    END IF;
END
$_$;

ALTER FUNCTION memory._staging_problem(p_kind text) OWNER TO memory_owner;

-- FUNCTION _staging_problem(p_kind text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._staging_problem(p_kind text) IS 'Internal: the first row of a session staging table that cannot be staged, and why (54000 for a value over a cap)';

-- FUNCTION _staging_problem(p_kind text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._staging_problem(p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._staging_problem(p_kind text) TO memory_writer;

-- _stored_dimensions(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._stored_dimensions() RETURNS integer
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT a.atttypmod FROM pg_catalog.pg_attribute AS a
     WHERE a.attrelid = 'memory.episodes'::pg_catalog.regclass AND a.attname = 'embedding'
$$;

ALTER FUNCTION memory._stored_dimensions() OWNER TO memory_owner;

-- FUNCTION _stored_dimensions(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._stored_dimensions() IS 'Internal: the dimension of the stored vector columns, from the catalog (384)';

-- FUNCTION _stored_dimensions(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._stored_dimensions() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._stored_dimensions() TO memory_reader;
GRANT ALL ON FUNCTION memory._stored_dimensions() TO memory_admin;
GRANT ALL ON FUNCTION memory._stored_dimensions() TO memory_writer;

-- _sweep_tenant(uuid, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) RETURNS TABLE(simulation_id uuid, action text, detail jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_rule   memory.retention_rules;
    v_sim    record;
    v_kind   memory.record_kind;
    v_count  bigint;
    v_counts jsonb;
    v_done   record;
    v_change bigint;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    SELECT * INTO v_rule FROM memory.retention_rules AS r WHERE r.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF v_rule.keep_days IS NOT NULL THEN
        FOR v_sim IN
            SELECT s.simulation_id, s.updated_at,
                   EXISTS (SELECT 1 FROM memory.import_attempts AS a
                            -- (the tenant by the argument: Citus routes the correlated
                            -- subquery to the tenant's shard only so)
                            WHERE a.tenant_id = p_tenant_id AND a.simulation_id = s.simulation_id
                              AND a.state = 'loading') AS loading
              FROM memory.simulations AS s
             WHERE s.tenant_id = p_tenant_id
               AND s.updated_at < p_now - pg_catalog.make_interval(days => v_rule.keep_days)
             ORDER BY s.updated_at, s.simulation_id
        LOOP
            IF v_sim.loading THEN
                simulation_id := v_sim.simulation_id;
                action := 'kept_importing';
                detail := pg_catalog.jsonb_build_object('updated_at', v_sim.updated_at);
                RETURN NEXT;
                CONTINUE;
            END IF;
            v_counts := '{}'::jsonb;
            FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
                EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2',
                                          v_kind.live)
                   INTO v_count USING p_tenant_id, v_sim.simulation_id;
                v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind.kind, v_count);
            END LOOP;
            -- (again by its age: a simulation changed meanwhile stays)
            DELETE FROM memory.simulations AS s
             WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim.simulation_id
               AND s.updated_at < p_now - pg_catalog.make_interval(days => v_rule.keep_days);
            CONTINUE WHEN NOT FOUND;
            v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                              p_simulation_id => v_sim.simulation_id,
                                              p_kind => 'simulation', p_op => 'retention',
                                              p_ids => NULL, p_counts => v_counts,
                                              p_attempt_id => NULL,
                                              p_detail => pg_catalog.jsonb_build_object('keep_days', v_rule.keep_days, 'updated_at', v_sim.updated_at));
            simulation_id := v_sim.simulation_id;
            action := 'deleted';
            detail := v_counts || pg_catalog.jsonb_build_object('updated_at', v_sim.updated_at);
            RETURN NEXT;
        END LOOP;
    END IF;
    IF v_rule.compact_similarity IS NOT NULL THEN
        FOR v_sim IN SELECT s.simulation_id FROM memory.simulations AS s
                      WHERE s.tenant_id = p_tenant_id ORDER BY s.simulation_id LOOP
            SELECT * INTO v_done FROM memory._compact_episodes(p_tenant_id, v_sim.simulation_id,
                                                               v_rule.compact_similarity, v_rule.compact_drop);
            IF v_done.clumps > 0 THEN
                simulation_id := v_sim.simulation_id;
                action := 'compacted';
                detail := pg_catalog.to_jsonb(v_done);
                RETURN NEXT;
            END IF;
        END LOOP;
    END IF;
END
$_$;

ALTER FUNCTION memory._sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) IS 'Internal: apply a tenant''s retention and compaction policy (SECURITY DEFINER: administrators hold no DELETE)';

-- FUNCTION _sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) TO memory_admin;

-- _text_hash(text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._text_hash(p_model text, p_text text) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.sha256(pg_catalog.convert_to(p_model, 'UTF8') || '\x00'::bytea || pg_catalog.convert_to(p_text, 'UTF8'))
$$;

ALTER FUNCTION memory._text_hash(p_model text, p_text text) OWNER TO memory_owner;

-- FUNCTION _text_hash(p_model text, p_text text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._text_hash(p_model text, p_text text) IS 'Internal: sha256 of model, zero byte and text: the vector cache''s key (as the importer computes it)';

-- FUNCTION _text_hash(p_model text, p_text text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._text_hash(p_model text, p_text text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._text_hash(p_model text, p_text text) TO memory_writer;

-- _top_k(integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._top_k(p_top_k integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100)
$$;

ALTER FUNCTION memory._top_k(p_top_k integer) OWNER TO memory_owner;

-- FUNCTION _top_k(p_top_k integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._top_k(p_top_k integer) IS 'Internal: the rows of a search, p_top_k clamped to 1..100 (NULL: 10)';

-- FUNCTION _top_k(p_top_k integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._top_k(p_top_k integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._top_k(p_top_k integer) TO memory_reader;

-- _upsert(text, uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch(k.batch_arg, p_items, k.batch_spec, k.batch_key)
       FROM memory._kind(p_kind) AS k;
    PERFORM memory._check_items_model(p_tenant_id, p_simulation_id, p_items);
    RETURN QUERY
    SELECT m.* FROM memory._merge(p_kind => p_kind, p_tenant_id => p_tenant_id,
                                  p_simulation_id => p_simulation_id, p_attempt_id => NULL,
                                  p_items => p_items) AS m
     CROSS JOIN LATERAL memory._record_upsert(p_kind => p_kind, p_tenant_id => p_tenant_id,
                                              p_simulation_id => p_simulation_id, p_items => p_items,
                                              p_inserted => m.inserted, p_updated => m.updated) AS feed;
END
$$;

ALTER FUNCTION memory._upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) OWNER TO memory_owner;

-- FUNCTION _upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) IS 'Internal: check a jsonb batch of a record kind and merge it (the body of upsert_nodes and its kin)';

-- FUNCTION _upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb) TO memory_writer;

-- _use_custom_plans(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._use_custom_plans() RETURNS SETOF regprocedure
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_fn regprocedure;
BEGIN
    IF NOT memory._on_cluster() THEN
        RETURN;
    END IF;
    FOR v_fn IN
        SELECT p.oid::regprocedure
          FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = 'memory'::pg_catalog.regnamespace
           AND 'plan_cache_mode=force_generic_plan' = ANY (p.proconfig)
         ORDER BY p.proname, p.oid
    LOOP
        EXECUTE pg_catalog.format('ALTER FUNCTION %s RESET plan_cache_mode', v_fn);
        RETURN NEXT v_fn;
    END LOOP;
END
$$;

ALTER FUNCTION memory._use_custom_plans() OWNER TO memory_owner;

-- FUNCTION _use_custom_plans(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._use_custom_plans() IS 'Internal: on a Citus cluster, the functions asking for generic plans plan each call instead (a generic plan cannot be routed); returns those changed';

-- FUNCTION _use_custom_plans(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._use_custom_plans() FROM PUBLIC;

-- _vector_problem(public.vector); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._vector_problem(p_vector public.vector) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT CASE WHEN x.squared = 0 THEN
                    'is the zero vector as stored (4-byte floats: components this small underflow to 0)'
                WHEN x.squared < 1.1754943508222875e-38 THEN
                    'is too close to the zero vector to compare as stored (4-byte floats)'
                WHEN NOT (x.squared < 'Infinity'::double precision) THEN
                    'has no finite length as stored (4-byte floats: components this large overflow)' END
      FROM (SELECT public.inner_product(p_vector, p_vector) AS squared) AS x
$$;

ALTER FUNCTION memory._vector_problem(p_vector public.vector) OWNER TO memory_owner;

-- FUNCTION _vector_problem(p_vector public.vector); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._vector_problem(p_vector public.vector) IS 'Internal: why a vector cannot be compared as stored (zero or not finite in 4-byte floats), or NULL';

-- FUNCTION _vector_problem(p_vector public.vector); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._vector_problem(p_vector public.vector) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._vector_problem(p_vector public.vector) TO memory_reader;
GRANT ALL ON FUNCTION memory._vector_problem(p_vector public.vector) TO memory_writer;

-- _warm_indexes(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._warm_indexes(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(part text, pages bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    v_sim_no  bigint;
    v_prewarm text;
    v_index   record;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT s.sim_no INTO STRICT v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    SELECT pg_catalog.format('%I.pg_prewarm', n.nspname) INTO v_prewarm
      FROM pg_catalog.pg_extension AS e JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace
     WHERE e.extname = 'pg_prewarm';
    FOR v_index IN
        SELECT x.part, x.rel
          FROM (VALUES (1, 'episodes index', pg_catalog.to_regclass('memory.' || memory._ann_index_name(v_sim_no))),
                       (2, 'facts index', pg_catalog.to_regclass('memory.' || memory._facts_ann_index_name(v_sim_no))),
                       (3, 'entities name index', pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no))),
                       (4, 'entities summary index',
                        pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no) || '_summary')))
               AS x (n, part, rel)
         WHERE x.rel IS NOT NULL
         ORDER BY x.n
    LOOP
        part := v_index.part;
        pages := NULL;
        IF v_prewarm IS NOT NULL THEN
            EXECUTE pg_catalog.format('SELECT %s($1, $2::text, $3::text, NULL::bigint, NULL::bigint)', v_prewarm)
               INTO pages USING v_index.rel, 'buffer', 'main';
        END IF;
        RETURN NEXT;
    END LOOP;
END
$_$;

ALTER FUNCTION memory._warm_indexes(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION _warm_indexes(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._warm_indexes(p_tenant_id uuid, p_simulation_id uuid) IS 'Internal: load a simulation''s own HNSW indexes into shared buffers with pg_prewarm when it is installed, for memory.warm (SECURITY DEFINER: an index''s one reader is its owner)';

-- FUNCTION _warm_indexes(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._warm_indexes(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._warm_indexes(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;

-- _words_doc(text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._words_doc(p_text text, p_more text DEFAULT NULL::text) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
           CASE WHEN p_text OPERATOR(pg_catalog.!~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
                THEN p_text ELSE memory._words_text(p_text) END), 'A')
       OPERATOR(pg_catalog.||)
       CASE WHEN p_more IS NULL THEN ''::pg_catalog.tsvector
            ELSE pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
                     memory._words_text(p_more)), 'B') END
$$;

ALTER FUNCTION memory._words_doc(p_text text, p_more text) OWNER TO memory_owner;

-- FUNCTION _words_doc(p_text text, p_more text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._words_doc(p_text text, p_more text) IS 'Internal: the words document of a row (text weight A, more weight B; CJK as bigrams; english configuration), the expression of the words indexes';

-- FUNCTION _words_doc(p_text text, p_more text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._words_doc(p_text text, p_more text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._words_doc(p_text text, p_more text) TO memory_reader;
GRANT ALL ON FUNCTION memory._words_doc(p_text text, p_more text) TO memory_writer;

-- _words_prepare(text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._words_prepare(p_text text, p_arg text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._not_null(p_text, p_arg, 'pass the words to look for');
    PERFORM memory._check_limit('question_bytes', p_arg, pg_catalog.octet_length(p_text));
    IF p_text OPERATOR(pg_catalog.!~) '[^[:space:]]' THEN
        RAISE EXCEPTION '% has no words: %', p_arg, memory._quote(pg_catalog.quote_literal(p_text))
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass at least one word';
    END IF;
    RETURN pg_catalog.lower(memory._words_text(p_text));
END
$$;

ALTER FUNCTION memory._words_prepare(p_text text, p_arg text) OWNER TO memory_owner;

-- FUNCTION _words_prepare(p_text text, p_arg text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._words_prepare(p_text text, p_arg text) IS 'Internal: refuse a NULL (22004), blank (22023) or too long (54000) question; the text prepared for name matching';

-- FUNCTION _words_prepare(p_text text, p_arg text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._words_prepare(p_text text, p_arg text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._words_prepare(p_text text, p_arg text) TO memory_reader;

-- _words_query(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._words_query(p_text text) RETURNS TABLE(word text, lexeme text)
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT w.token, w.lexeme
  FROM (SELECT DISTINCT ON (d.lexemes[1]) d.token, d.n, d.lexemes[1] AS lexeme
          FROM pg_catalog.ts_debug('pg_catalog.english'::pg_catalog.regconfig, memory._words_text(p_text))
               WITH ORDINALITY AS d (alias, description, token, dictionaries, dictionary, lexemes, n)
         WHERE pg_catalog.cardinality(d.lexemes) > 0
         ORDER BY d.lexemes[1], d.n) AS w
 ORDER BY w.n
$$;

ALTER FUNCTION memory._words_query(p_text text) OWNER TO memory_owner;

-- FUNCTION _words_query(p_text text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._words_query(p_text text) IS 'Internal: the words of a question, each once with its lexeme (query syntax in the text is read as words)';

-- FUNCTION _words_query(p_text text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._words_query(p_text text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._words_query(p_text text) TO memory_reader;

-- _words_text(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._words_text(p_text text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
SELECT CASE WHEN p_text OPERATOR(pg_catalog.!~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
            THEN p_text
            ELSE pg_catalog.regexp_replace(p_text, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+', ' ', 'g')
                 OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||)
                 (SELECT pg_catalog.string_agg(pg_catalog.substr(r.run[1], i.i, 2), ' ')
                    FROM pg_catalog.regexp_matches(p_text, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+', 'g') AS r (run),
                         pg_catalog.generate_series(1, GREATEST(pg_catalog.char_length(r.run[1]) - 1, 1)) AS i (i)) END
$$;

ALTER FUNCTION memory._words_text(p_text text) OWNER TO memory_owner;

-- FUNCTION _words_text(p_text text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._words_text(p_text text) IS 'Internal: a text with its CJK runs cut into overlapping character bigrams (IMMUTABLE, read by the words indexes)';

-- FUNCTION _words_text(p_text text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._words_text(p_text text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._words_text(p_text text) TO memory_reader;
GRANT ALL ON FUNCTION memory._words_text(p_text text) TO memory_writer;

-- _zep_attempts_max(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_attempts_max() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ SELECT 5 $$;

ALTER FUNCTION memory._zep_attempts_max() OWNER TO memory_owner;

-- FUNCTION _zep_attempts_max(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_attempts_max() IS 'Internal: the most extraction attempts of one episode (5)';

-- FUNCTION _zep_attempts_max(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_attempts_max() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_attempts_max() TO memory_reader;

-- _zep_batch_max(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_batch_max() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ SELECT 20 $$;

ALTER FUNCTION memory._zep_batch_max() OWNER TO memory_owner;

-- FUNCTION _zep_batch_max(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_batch_max() IS 'Internal: the most episodes of one add_batch (20, as Zep)';

-- FUNCTION _zep_batch_max(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_batch_max() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_batch_max() TO memory_reader;

-- _zep_edge(memory.edge_detail, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_edge(p_edge memory.edge_detail, p_stored_at timestamp with time zone) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', (p_edge).edge_id,
        'name', (p_edge).type,
        'fact', COALESCE((p_edge).fact, ''),
        'fact_type', (p_edge).fact_type,
        'source_node_uuid', (p_edge).source_id,
        'target_node_uuid', (p_edge).target_id,
        'valid_at', memory._zep_time((p_edge).valid_at),
        'invalid_at', memory._zep_time((p_edge).invalid_at),
        'expired_at', memory._zep_time((p_edge).expired_at),
        'created_at', memory._zep_time(COALESCE((p_edge).created_at, p_stored_at)),
        'episodes', pg_catalog.to_jsonb(COALESCE((p_edge).episodes, '{}'::text[])),
        'attributes', COALESCE((p_edge).attributes, '{}'::jsonb)
                      OPERATOR(pg_catalog.-) ARRAY['created_at', 'expired_at', 'episodes', 'fact_type']);
$$;

ALTER FUNCTION memory._zep_edge(p_edge memory.edge_detail, p_stored_at timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _zep_edge(p_edge memory.edge_detail, p_stored_at timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_edge(p_edge memory.edge_detail, p_stored_at timestamp with time zone) IS 'Internal: a relationship in the wire shape of Zep''s EntityEdge';

-- FUNCTION _zep_edge(p_edge memory.edge_detail, p_stored_at timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_edge(p_edge memory.edge_detail, p_stored_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_edge(p_edge memory.edge_detail, p_stored_at timestamp with time zone) TO memory_reader;

-- _zep_edge_item(memory.edges); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_edge_item(p_edge memory.edges) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
        'id', (p_edge).edge_id, 'type', (p_edge).type, 'source_id', (p_edge).source_id,
        'target_id', (p_edge).target_id, 'fact', (p_edge).fact, 'attributes', (p_edge).attributes,
        'valid_at', (p_edge).valid_at, 'invalid_at', (p_edge).invalid_at,
        'learned_at', (p_edge).learned_at, 'expired_at', (p_edge).expired_at,
        'embedding', ((p_edge).embedding)::text::jsonb, 'embedding_model', (p_edge).embedding_model));
$$;

ALTER FUNCTION memory._zep_edge_item(p_edge memory.edges) OWNER TO memory_owner;

-- FUNCTION _zep_edge_item(p_edge memory.edges); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_edge_item(p_edge memory.edges) IS 'Internal: a stored edge as the upsert_edges item that writes it back unchanged';

-- FUNCTION _zep_edge_item(p_edge memory.edges); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_edge_item(p_edge memory.edges) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_edge_item(p_edge memory.edges) TO memory_writer;

-- _zep_episode(memory.zep_episodes); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_episode(p_episode memory.zep_episodes) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', (p_episode).episode_uuid,
        'content', (p_episode).content,
        'source', (p_episode).source,
        'source_description', (p_episode).source_description,
        'created_at', memory._zep_time((p_episode).created_at),
        'processed', (p_episode).status = 'succeeded',
        'status', (p_episode).status,
        'sequence_index', (p_episode).sequence_index,
        'attempts', (p_episode).attempts,
        'error', (p_episode).last_error,
        'refused', (p_episode).refused,
        'batch_id', (p_episode).batch_id);
$$;

ALTER FUNCTION memory._zep_episode(p_episode memory.zep_episodes) OWNER TO memory_owner;

-- FUNCTION _zep_episode(p_episode memory.zep_episodes); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_episode(p_episode memory.zep_episodes) IS 'Internal: an episode added through serve in the wire shape of Zep''s Episode';

-- FUNCTION _zep_episode(p_episode memory.zep_episodes); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_episode(p_episode memory.zep_episodes) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_episode(p_episode memory.zep_episodes) TO memory_reader;

-- _zep_graph_json(uuid, text, jsonb, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb, p_created_at timestamp with time zone) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', p_simulation_id,
        'graph_id', COALESCE(p_metadata ->> 'graph_id', p_name, p_simulation_id::text),
        'name', COALESCE(p_metadata ->> 'zep_name', p_name, p_metadata ->> 'graph_id'),
        'description', p_metadata ->> 'description',
        'created_at', memory._zep_time(p_created_at));
$$;

ALTER FUNCTION memory._zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb, p_created_at timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb, p_created_at timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb, p_created_at timestamp with time zone) IS 'Internal: a simulation in the wire shape of Zep''s Graph';

-- FUNCTION _zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb, p_created_at timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb, p_created_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb, p_created_at timestamp with time zone) TO memory_reader;

-- _zep_home(uuid, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_home(p_tenant_id uuid, p_kind text, p_id text) RETURNS uuid
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_kind text := memory._one_of('kind', p_kind, ARRAY['node', 'edge']);
    v_sim  uuid;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_id, 'p_id', 'pass the uuid of a ' || v_kind);
    IF v_kind = 'node' THEN
        SELECT s.simulation_id INTO v_sim
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published
           AND EXISTS (SELECT 1 FROM memory.nodes AS n
                        WHERE n.tenant_id = p_tenant_id AND n.simulation_id = s.simulation_id
                          AND n.node_key = pg_catalog.md5(p_id)::uuid)
         ORDER BY s.updated_at DESC, s.simulation_id
         LIMIT 1;
    ELSE
        SELECT s.simulation_id INTO v_sim
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published
           AND EXISTS (SELECT 1 FROM memory.edges AS e
                        WHERE e.tenant_id = p_tenant_id AND e.simulation_id = s.simulation_id
                          AND e.edge_key = pg_catalog.md5(p_id)::uuid)
         ORDER BY s.updated_at DESC, s.simulation_id
         LIMIT 1;
    END IF;
    IF v_sim IS NULL THEN
        RAISE EXCEPTION 'unknown % %', v_kind, memory._quote(p_id)
            USING ERRCODE = 'no_data_found',
                  HINT = 'node.get_by_graph_id and edge.get_by_graph_id list a graph''s uuids';
    END IF;
    RETURN v_sim;
END
$$;

ALTER FUNCTION memory._zep_home(p_tenant_id uuid, p_kind text, p_id text) OWNER TO memory_owner;

-- FUNCTION _zep_home(p_tenant_id uuid, p_kind text, p_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_home(p_tenant_id uuid, p_kind text, p_id text) IS 'Internal: the committed simulation of the tenant that holds a node or edge uuid (P0002 when none)';

-- FUNCTION _zep_home(p_tenant_id uuid, p_kind text, p_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_home(p_tenant_id uuid, p_kind text, p_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_home(p_tenant_id uuid, p_kind text, p_id text) TO memory_reader;

-- _zep_node(text, text, text, text[], text, jsonb, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_node(p_node_id text, p_name text, p_type text, p_labels text[], p_summary text, p_attributes jsonb, p_stored_at timestamp with time zone) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', p_node_id,
        'name', p_name,
        'labels', pg_catalog.to_jsonb(CASE WHEN pg_catalog.cardinality(p_labels) > 0 THEN p_labels
                                           WHEN p_type = 'Entity' THEN ARRAY['Entity']
                                           ELSE ARRAY['Entity', p_type] END),
        'summary', COALESCE(p_summary, ''),
        'attributes', COALESCE(p_attributes, '{}'::jsonb) OPERATOR(pg_catalog.-) 'created_at'::text,
        'created_at', COALESCE(p_attributes ->> 'created_at', memory._zep_time(p_stored_at)));
$$;

ALTER FUNCTION memory._zep_node(p_node_id text, p_name text, p_type text, p_labels text[], p_summary text, p_attributes jsonb, p_stored_at timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _zep_node(p_node_id text, p_name text, p_type text, p_labels text[], p_summary text, p_attributes jsonb, p_stored_at timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_node(p_node_id text, p_name text, p_type text, p_labels text[], p_summary text, p_attributes jsonb, p_stored_at timestamp with time zone) IS 'Internal: an entity in the wire shape of Zep''s EntityNode';

-- FUNCTION _zep_node(p_node_id text, p_name text, p_type text, p_labels text[], p_summary text, p_attributes jsonb, p_stored_at timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_node(p_node_id text, p_name text, p_type text, p_labels text[], p_summary text, p_attributes jsonb, p_stored_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_node(p_node_id text, p_name text, p_type text, p_labels text[], p_summary text, p_attributes jsonb, p_stored_at timestamp with time zone) TO memory_reader;

-- _zep_pair_allowed(jsonb, text, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text, p_target_type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT COALESCE((
        SELECT pg_catalog.jsonb_typeof(t -> 'source_targets') IS DISTINCT FROM 'array'
            OR pg_catalog.jsonb_array_length(t -> 'source_targets') = 0
            OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(t -> 'source_targets') AS st
                        WHERE COALESCE(st ->> 'source', 'Entity') IN ('Entity', p_source_type)
                          AND COALESCE(st ->> 'target', 'Entity') IN ('Entity', p_target_type))
          FROM pg_catalog.jsonb_array_elements(p_edge_types) AS t
         WHERE t ->> 'name' = p_type
         LIMIT 1), true);
$$;

ALTER FUNCTION memory._zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text, p_target_type text) OWNER TO memory_owner;

-- FUNCTION _zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text, p_target_type text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text, p_target_type text) IS 'Internal: whether an edge type of an ontology may join these two entity types';

-- FUNCTION _zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text, p_target_type text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text, p_target_type text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text, p_target_type text) TO memory_writer;

-- _zep_resolve_entity(uuid, uuid, text, text, public.vector, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_type text, p_embedding public.vector, p_model text) RETURNS TABLE(node_id text, name text, found_by text, score real)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    WITH candidates AS (
        SELECT n.node_id, n.name,
               CASE WHEN pg_catalog.lower(n.name) = pg_catalog.lower(p_name)
                      OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements_text(
                                                   CASE WHEN pg_catalog.jsonb_typeof(n.attributes -> 'aliases') = 'array'
                                                        THEN n.attributes -> 'aliases' ELSE '[]'::jsonb END) AS a
                                  WHERE pg_catalog.lower(a) = pg_catalog.lower(p_name)) THEN 'name' END AS by_name,
               public.similarity(pg_catalog.lower(memory._words_text(n.name)),
                                 pg_catalog.lower(memory._words_text(p_name))) AS trigram,
               CASE WHEN p_embedding IS NOT NULL AND n.embedding IS NOT NULL AND n.embedding_model = p_model
                    THEN (1 - (n.embedding OPERATOR(public.<=>) p_embedding))::real END AS cosine
          FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
           AND (n.type = p_type OR n.type = 'Entity' OR p_type = 'Entity')
    )
    SELECT c.node_id, c.name,
           CASE WHEN c.by_name IS NOT NULL THEN 'name' WHEN c.trigram >= 0.8 THEN 'trigram' ELSE 'meaning' END,
           CASE WHEN c.by_name IS NOT NULL THEN 1::real WHEN c.trigram >= 0.8 THEN c.trigram ELSE c.cosine END
      FROM candidates AS c
     WHERE c.by_name IS NOT NULL OR c.trigram >= 0.8 OR c.cosine >= 0.95
     ORDER BY (c.by_name IS NOT NULL) DESC, (c.trigram >= 0.8) DESC, GREATEST(c.trigram, c.cosine) DESC, c.node_id
     LIMIT 1;
$$;

ALTER FUNCTION memory._zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_type text, p_embedding public.vector, p_model text) OWNER TO memory_owner;

-- FUNCTION _zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_type text, p_embedding public.vector, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_type text, p_embedding public.vector, p_model text) IS 'Internal: the entity of a graph an extracted name is (name or alias, trigram >= 0.8, cosine >= 0.95)';

-- FUNCTION _zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_type text, p_embedding public.vector, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_type text, p_embedding public.vector, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_type text, p_embedding public.vector, p_model text) TO memory_writer;

-- _zep_simulation(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_simulation(p_tenant_id uuid, p_graph_id text) RETURNS uuid
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_found uuid[];
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_graph_id, 'p_graph_id', 'pass the graph_id of a graph (graph.list_all lists them)');
    SELECT pg_catalog.array_agg(s.simulation_id ORDER BY s.simulation_id) INTO v_found
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.published AND s.name = p_graph_id;
    IF v_found IS NULL THEN
        SELECT pg_catalog.array_agg(s.simulation_id ORDER BY s.simulation_id) INTO v_found
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published AND s.metadata ->> 'graph_id' = p_graph_id;
    END IF;
    IF v_found IS NULL AND pg_catalog.pg_input_is_valid(p_graph_id, 'uuid') THEN
        SELECT pg_catalog.array_agg(s.simulation_id) INTO v_found
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published AND s.simulation_id = p_graph_id::uuid;
    END IF;
    IF v_found IS NULL THEN
        RAISE EXCEPTION 'unknown graph %', memory._quote(p_graph_id)
            USING ERRCODE = 'no_data_found',
                  HINT = 'graph.list_all lists the graphs of the key''s tenant';
    END IF;
    IF pg_catalog.cardinality(v_found) > 1 THEN
        RAISE EXCEPTION 'graph_id % names % simulations', memory._quote(p_graph_id), pg_catalog.cardinality(v_found)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'address one by its simulation name or UUID (graph.list_all lists them)';
    END IF;
    RETURN v_found[1];
END
$$;

ALTER FUNCTION memory._zep_simulation(p_tenant_id uuid, p_graph_id text) OWNER TO memory_owner;

-- FUNCTION _zep_simulation(p_tenant_id uuid, p_graph_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_simulation(p_tenant_id uuid, p_graph_id text) IS 'Internal: the committed simulation a Zep graph_id names (name, MiroFish graph_id, UUID; P0002 when none)';

-- FUNCTION _zep_simulation(p_tenant_id uuid, p_graph_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_simulation(p_tenant_id uuid, p_graph_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_simulation(p_tenant_id uuid, p_graph_id text) TO memory_reader;

-- _zep_time(timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_time(p_at timestamp with time zone) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT pg_catalog.to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
$$;

ALTER FUNCTION memory._zep_time(p_at timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION _zep_time(p_at timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_time(p_at timestamp with time zone) IS 'Internal: a time as Zep writes it (ISO 8601, UTC, Z)';

-- FUNCTION _zep_time(p_at timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_time(p_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_time(p_at timestamp with time zone) TO memory_reader;

-- _zep_type_problem(text, jsonb, integer, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
    SELECT CASE
        WHEN pg_catalog.jsonb_typeof(p_type) IS DISTINCT FROM 'object' THEN
            pg_catalog.format('%s type %s is not an object', p_kind, p_position)
        WHEN pg_catalog.jsonb_typeof(p_type -> 'name') IS DISTINCT FROM 'string'
          OR p_type ->> 'name' !~ '^[^[:cntrl:]]+$'
          OR pg_catalog.char_length(p_type ->> 'name') > memory._label_max() THEN
            pg_catalog.format('%s type %s: "name" must be a label of at most %s characters', p_kind, p_position, memory._label_max())
        WHEN p_type ? 'properties' AND pg_catalog.jsonb_typeof(p_type -> 'properties') NOT IN ('array', 'null') THEN
            pg_catalog.format('%s type %s: "properties" must be an array', p_kind, memory._quote(p_type ->> 'name'))
        WHEN p_kind = 'edge' AND p_type ? 'source_targets'
             AND pg_catalog.jsonb_typeof(p_type -> 'source_targets') NOT IN ('array', 'null') THEN
            pg_catalog.format('edge type %s: "source_targets" must be an array', memory._quote(p_type ->> 'name'))
        WHEN p_kind = 'edge' THEN (
            SELECT pg_catalog.format('edge type %s joins %s, which is not an entity type of the ontology',
                                     memory._quote(p_type ->> 'name'), memory._quote(e.name))
              FROM pg_catalog.jsonb_array_elements(
                       CASE WHEN pg_catalog.jsonb_typeof(p_type -> 'source_targets') = 'array'
                            THEN p_type -> 'source_targets' ELSE '[]'::jsonb END) AS st
             CROSS JOIN LATERAL (VALUES (st ->> 'source'), (st ->> 'target')) AS e (name)
             WHERE e.name IS NOT NULL AND e.name <> 'Entity'
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(p_entities) AS t
                                WHERE t ->> 'name' = e.name)
             LIMIT 1)
    END
$_$;

ALTER FUNCTION memory._zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb) OWNER TO memory_owner;

-- FUNCTION _zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb) IS 'Internal: what is wrong with one type of a Zep ontology, NULL when nothing';

-- FUNCTION _zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb) TO memory_writer;

-- _zep_types_max(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory._zep_types_max() RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ SELECT 10 $$;

ALTER FUNCTION memory._zep_types_max() OWNER TO memory_owner;

-- FUNCTION _zep_types_max(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory._zep_types_max() IS 'Internal: the most entity types and edge types of one ontology (10 each)';

-- FUNCTION _zep_types_max(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory._zep_types_max() FROM PUBLIC;
GRANT ALL ON FUNCTION memory._zep_types_max() TO memory_reader;

-- abort_import(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text DEFAULT NULL::text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_attempt  memory.import_attempts := memory._require_attempt(p_tenant_id, p_attempt_id, false);
    -- read first: Citus refuses a volatile function in an UPDATE of a distributed table
    v_finished timestamptz := pg_catalog.clock_timestamp();
BEGIN
    IF v_attempt.state = 'committed' THEN
        RAISE EXCEPTION 'import attempt % is committed and cannot be aborted', p_attempt_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'import again to replace its state, or delete the simulation';
    END IF;
    IF v_attempt.state <> 'loading' THEN
        RETURN;
    END IF;
    UPDATE memory.import_attempts AS a
       SET state = CASE WHEN p_reason IS NULL THEN 'aborted' ELSE 'failed' END,
           error = p_reason,
           finished_at = v_finished
     WHERE a.tenant_id = p_tenant_id AND a.attempt_id = p_attempt_id;
    PERFORM memory._discard_staged(p_tenant_id, ARRAY[p_attempt_id]);
    PERFORM memory._release_attempt_lock(v_attempt.lock_key);
END
$$;

ALTER FUNCTION memory.abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text) OWNER TO memory_owner;

-- FUNCTION abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text) IS 'End an import attempt without promoting it (failed with a reason, else aborted); idempotent';

-- FUNCTION abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text) TO memory_writer;

-- ann_index(bigint, text, integer, integer, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.ann_index(p_sim_no bigint, p_action text, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128, p_run boolean DEFAULT true) RETURNS SETOF text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_stmts text[];
    v_stmt  text;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_index', 'memory.ann_index_tenant(tenant_id, simulation_id) for each simulation');
    v_stmts := memory._ann_statements(p_sim_no => p_sim_no, p_action => p_action, p_m => p_m,
                                      p_ef_construction => p_ef_construction,
                                      p_concurrently => NOT p_run, p_table => 'memory.episodes');
    FOREACH v_stmt IN ARRAY v_stmts LOOP
        IF p_run THEN
            EXECUTE v_stmt;
        END IF;
        RETURN NEXT v_stmt;
    END LOOP;
END
$$;

ALTER FUNCTION memory.ann_index(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) OWNER TO memory_owner;

-- FUNCTION ann_index(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.ann_index(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) IS 'Build, rebuild or drop a simulation''s HNSW index by its number (SECURITY DEFINER: only the owner may index); memory_admin';

-- FUNCTION ann_index(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.ann_index(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.ann_index(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) TO memory_admin;

-- ann_index_entities(bigint, text, integer, integer, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.ann_index_entities(p_sim_no bigint, p_action text, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128, p_run boolean DEFAULT true) RETURNS SETOF text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_stmt text;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_index_entities', 'memory.search_nodes, which searches a simulation''s entities exactly on a cluster');
    FOREACH v_stmt IN ARRAY memory._ann_statements(
        p_sim_no => p_sim_no, p_action => p_action, p_m => p_m,
        p_ef_construction => p_ef_construction, p_concurrently => NOT p_run,
        p_table => 'memory.nodes') LOOP
        IF p_run THEN
            EXECUTE v_stmt;
        END IF;
        RETURN NEXT v_stmt;
    END LOOP;
END
$$;

ALTER FUNCTION memory.ann_index_entities(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) OWNER TO memory_owner;

-- FUNCTION ann_index_entities(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.ann_index_entities(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) IS 'Build, rebuild or drop a simulation''s pair of HNSW indexes over its entities by its number (SECURITY DEFINER: only the owner may index); memory_admin';

-- FUNCTION ann_index_entities(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.ann_index_entities(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.ann_index_entities(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) TO memory_admin;

-- ann_index_facts(bigint, text, integer, integer, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.ann_index_facts(p_sim_no bigint, p_action text, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128, p_run boolean DEFAULT true) RETURNS SETOF text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_stmt text;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_index_facts', 'memory.search_facts, which searches a simulation''s facts exactly on a cluster');
    FOREACH v_stmt IN ARRAY memory._ann_statements(
        p_sim_no => p_sim_no, p_action => p_action, p_m => p_m,
        p_ef_construction => p_ef_construction, p_concurrently => NOT p_run,
        p_table => 'memory.edges') LOOP
        IF p_run THEN
            EXECUTE v_stmt;
        END IF;
        RETURN NEXT v_stmt;
    END LOOP;
END
$$;

ALTER FUNCTION memory.ann_index_facts(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) OWNER TO memory_owner;

-- FUNCTION ann_index_facts(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.ann_index_facts(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) IS 'Build, rebuild or drop a simulation''s HNSW index over its facts by its number (SECURITY DEFINER: only the owner may index); memory_admin';

-- FUNCTION ann_index_facts(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.ann_index_facts(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.ann_index_facts(p_sim_no bigint, p_action text, p_m integer, p_ef_construction integer, p_run boolean) TO memory_admin;

-- ann_index_tenant(uuid, uuid, text, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.ann_index_tenant(p_tenant_id uuid, p_simulation_id uuid, p_action text DEFAULT 'build'::text, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128) RETURNS SETOF text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $_$
DECLARE
    v_sim_no bigint;
    v_table  regclass := 'memory.episodes'::regclass;
    v_shard  bigint;
    v_stmt   text;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown simulation % of tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenant''s simulations with memory.list_simulations()';
    END IF;
    IF memory._on_cluster() THEN
        EXECUTE 'SELECT pg_catalog.get_shard_id_for_distribution_column(''memory.episodes'', $1)'
           INTO v_shard USING p_tenant_id;
        v_table := pg_catalog.to_regclass('memory.episodes_' || v_shard::text);
        IF v_table IS NULL THEN
            RAISE EXCEPTION 'the shard of tenant % is not on this node', p_tenant_id
                USING ERRCODE = 'feature_not_supported',
                      HINT = 'call memory.ann_index_tenant through the coordinator, as one statement: it runs on the tenant''s worker';
        END IF;
    END IF;
    FOREACH v_stmt IN ARRAY memory._ann_statements(
        p_sim_no => v_sim_no, p_action => p_action, p_m => p_m,
        p_ef_construction => p_ef_construction, p_concurrently => false, p_table => v_table) LOOP
        EXECUTE v_stmt;
        RETURN NEXT v_stmt;
    END LOOP;
END
$_$;

ALTER FUNCTION memory.ann_index_tenant(p_tenant_id uuid, p_simulation_id uuid, p_action text, p_m integer, p_ef_construction integer) OWNER TO memory_owner;

-- FUNCTION ann_index_tenant(p_tenant_id uuid, p_simulation_id uuid, p_action text, p_m integer, p_ef_construction integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.ann_index_tenant(p_tenant_id uuid, p_simulation_id uuid, p_action text, p_m integer, p_ef_construction integer) IS 'Build, rebuild or drop a simulation''s HNSW index by tenant and id; on a Citus cluster on the tenant''s shard, on its worker (SECURITY DEFINER: only the owner may index); memory_admin';

-- FUNCTION ann_index_tenant(p_tenant_id uuid, p_simulation_id uuid, p_action text, p_m integer, p_ef_construction integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.ann_index_tenant(p_tenant_id uuid, p_simulation_id uuid, p_action text, p_m integer, p_ef_construction integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.ann_index_tenant(p_tenant_id uuid, p_simulation_id uuid, p_action text, p_m integer, p_ef_construction integer) TO memory_admin;

-- ann_plan(integer, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.ann_plan(p_min_rows integer DEFAULT 2000, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128) RETURNS TABLE(sim_no bigint, index_name text, episodes bigint, action text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_plan', 'memory.ann_index_tenant(tenant_id, simulation_id) for each simulation');
    RETURN QUERY SELECT * FROM memory._ann_plan('episodes', p_min_rows, p_m, p_ef_construction);
END
$$;

ALTER FUNCTION memory.ann_plan(p_min_rows integer, p_m integer, p_ef_construction integer) OWNER TO memory_owner;

-- FUNCTION ann_plan(p_min_rows integer, p_m integer, p_ef_construction integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.ann_plan(p_min_rows integer, p_m integer, p_ef_construction integer) IS 'The per-simulation HNSW indexes to build, rebuild, keep or drop (by simulation number); memory_admin';

-- FUNCTION ann_plan(p_min_rows integer, p_m integer, p_ef_construction integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.ann_plan(p_min_rows integer, p_m integer, p_ef_construction integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.ann_plan(p_min_rows integer, p_m integer, p_ef_construction integer) TO memory_admin;

-- ann_plan_entities(integer, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.ann_plan_entities(p_min_rows integer DEFAULT 2000, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128) RETURNS TABLE(sim_no bigint, index_name text, entities bigint, action text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_plan_entities', 'memory.search_nodes, which searches a simulation''s entities exactly on a cluster');
    RETURN QUERY SELECT * FROM memory._ann_plan('entities', p_min_rows, p_m, p_ef_construction);
END
$$;

ALTER FUNCTION memory.ann_plan_entities(p_min_rows integer, p_m integer, p_ef_construction integer) OWNER TO memory_owner;

-- FUNCTION ann_plan_entities(p_min_rows integer, p_m integer, p_ef_construction integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.ann_plan_entities(p_min_rows integer, p_m integer, p_ef_construction integer) IS 'The per-simulation HNSW index pairs over entities (name and summary vectors) to build, rebuild, keep or drop (by simulation number); memory_admin';

-- FUNCTION ann_plan_entities(p_min_rows integer, p_m integer, p_ef_construction integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.ann_plan_entities(p_min_rows integer, p_m integer, p_ef_construction integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.ann_plan_entities(p_min_rows integer, p_m integer, p_ef_construction integer) TO memory_admin;

-- ann_plan_facts(integer, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.ann_plan_facts(p_min_rows integer DEFAULT 2000, p_m integer DEFAULT 32, p_ef_construction integer DEFAULT 128) RETURNS TABLE(sim_no bigint, index_name text, facts bigint, action text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_plan_facts', 'memory.search_facts, which searches a simulation''s facts exactly on a cluster');
    RETURN QUERY SELECT * FROM memory._ann_plan('facts', p_min_rows, p_m, p_ef_construction);
END
$$;

ALTER FUNCTION memory.ann_plan_facts(p_min_rows integer, p_m integer, p_ef_construction integer) OWNER TO memory_owner;

-- FUNCTION ann_plan_facts(p_min_rows integer, p_m integer, p_ef_construction integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.ann_plan_facts(p_min_rows integer, p_m integer, p_ef_construction integer) IS 'The per-simulation HNSW indexes over facts to build, rebuild, keep or drop (by simulation number); memory_admin';

-- FUNCTION ann_plan_facts(p_min_rows integer, p_m integer, p_ef_construction integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.ann_plan_facts(p_min_rows integer, p_m integer, p_ef_construction integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.ann_plan_facts(p_min_rows integer, p_m integer, p_ef_construction integer) TO memory_admin;

-- api_key_role(bytea); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.api_key_role(p_key_hash bytea) RETURNS TABLE(tenant_id uuid, key_id uuid, role_name name)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT k.tenant_id, k.key_id, r.rolname
      FROM memory.api_keys AS k
      JOIN pg_catalog.pg_roles AS r ON r.oid = k.role_oid
     WHERE k.key_hash = p_key_hash AND k.revoked_at IS NULL;
$$;

ALTER FUNCTION memory.api_key_role(p_key_hash bytea) OWNER TO memory_owner;

-- FUNCTION api_key_role(p_key_hash bytea); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.api_key_role(p_key_hash bytea) IS 'The tenant and role of an unrevoked API key by its sha256 (the service''s authentication); memory_admin only';

-- FUNCTION api_key_role(p_key_hash bytea); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.api_key_role(p_key_hash bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.api_key_role(p_key_hash bytea) TO memory_admin;

-- api_keys(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.api_keys(p_tenant_id uuid) RETURNS TABLE(key_id uuid, key_prefix text, role_name name, created_at timestamp with time zone, created_by name, revoked_at timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the tenant whose keys to list');
    SELECT k.key_id, k.key_prefix, k.role_name, k.created_at, k.created_by, k.revoked_at
      FROM memory.api_keys AS k
     WHERE k.tenant_id = p_tenant_id
     ORDER BY k.created_at DESC, k.key_id;
$$;

ALTER FUNCTION memory.api_keys(p_tenant_id uuid) OWNER TO memory_owner;

-- api_keys; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.api_keys ENABLE ROW LEVEL SECURITY;

-- api_keys; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.api_keys (
    tenant_id uuid NOT NULL,
    key_id uuid DEFAULT gen_random_uuid() NOT NULL,
    key_hash bytea NOT NULL,
    key_prefix text NOT NULL,
    role_oid oid NOT NULL,
    role_name name NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by name DEFAULT SESSION_USER NOT NULL,
    revoked_at timestamp with time zone,
    CONSTRAINT api_keys_key_hash_check CHECK ((octet_length(key_hash) = 32)),
    CONSTRAINT api_keys_key_prefix_check CHECK ((key_prefix ~ '^[A-Za-z0-9_-]{4,16}$'::text))
);

ALTER TABLE ONLY memory.api_keys FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.api_keys OWNER TO memory_owner;

-- FUNCTION api_keys(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.api_keys(p_tenant_id uuid) IS 'The API keys of a tenant (first characters, role, revoked or not); memory_admin only';

-- TABLE api_keys; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.api_keys IS 'API keys of swarm-memory serve: the sha256 of each key, its tenant and the role its requests run as';

-- FUNCTION api_keys(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.api_keys(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.api_keys(p_tenant_id uuid) TO memory_admin;

-- TABLE api_keys; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.api_keys TO memory_reader;
GRANT SELECT,INSERT ON TABLE memory.api_keys TO memory_admin;

-- api_keys admins_manage_all_keys; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY admins_manage_all_keys ON memory.api_keys TO memory_admin USING (pg_has_role(CURRENT_USER, 'memory_admin'::name, 'MEMBER'::text)) WITH CHECK (pg_has_role(CURRENT_USER, 'memory_admin'::name, 'MEMBER'::text));

-- api_keys api_keys_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (tenant_id, key_id);

-- api_keys api_keys_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.api_keys
    ADD CONSTRAINT api_keys_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- api_keys owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.api_keys FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- api_keys owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.api_keys FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- api_keys roles_see_their_own_keys; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY roles_see_their_own_keys ON memory.api_keys FOR SELECT TO memory_reader USING (pg_has_role(CURRENT_USER, role_oid, 'USAGE'::text));

-- COLUMN api_keys.revoked_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(revoked_at) ON TABLE memory.api_keys TO memory_admin;

-- api_keys_key_hash_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX api_keys_key_hash_idx ON memory.api_keys USING btree (key_hash);

-- begin_import(uuid, uuid, jsonb, boolean, jsonb, text, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.begin_import(p_tenant_id uuid, p_simulation_id uuid, p_declared jsonb DEFAULT NULL::jsonb, p_skip_dangling boolean DEFAULT false, p_metadata jsonb DEFAULT '{}'::jsonb, p_name text DEFAULT NULL::text, p_scope jsonb DEFAULT NULL::jsonb) RETURNS uuid
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $_$
DECLARE
    v_attempt_id uuid := pg_catalog.gen_random_uuid();
    v_lock_key   integer := pg_catalog.hashtext(v_attempt_id::text);
    v_start      timestamptz;
    v_held       integer[];
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    -- On Citus the liveness of attempts is judged on the coordinator (memory._attempt_alive):
    -- an attempt begun on a worker would be judged dead there while it loads.
    IF memory._node_group() <> 0 THEN
        RAISE EXCEPTION 'begin_import runs on the Citus coordinator, not on a worker (group %)', memory._node_group()
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'connect to the coordinator to import; the calls of an import run on one session';
    END IF;
    PERFORM memory._not_null(p_skip_dangling, 'p_skip_dangling', 'pass true or false');
    PERFORM memory._check_limit('object_bytes', 'p_declared', pg_catalog.pg_column_size(p_declared));
    PERFORM memory._check_limit('object_bytes', 'p_metadata', pg_catalog.pg_column_size(p_metadata));
    PERFORM memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    IF p_declared IS NOT NULL AND (pg_catalog.jsonb_typeof(p_declared) <> 'object'
        OR pg_catalog.jsonb_path_exists(p_declared, '$.* ? (@.type() != "number" || @ < 0)')
        OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_object_keys(p_declared) AS k
                    WHERE k NOT IN (SELECT r.kind FROM memory._record_kinds() AS r))) THEN
        RAISE EXCEPTION 'p_declared must map record kinds to counts, not %', memory._quote(p_declared::text)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'e.g. {"nodes": 30, "edges": 40}';
    END IF;
    PERFORM memory._check_limit('object_bytes', 'p_scope', pg_catalog.pg_column_size(p_scope));
    IF p_scope IS NOT NULL AND (pg_catalog.jsonb_typeof(p_scope) <> 'object' OR EXISTS (
            SELECT 1 FROM pg_catalog.jsonb_each(p_scope) AS e
              LEFT JOIN memory._record_kinds() AS k ON k.kind = e.key
             WHERE k.kind IS NULL
                OR (e.value <> 'null'::jsonb
                    AND (pg_catalog.jsonb_typeof(e.value) <> 'array'
                         OR pg_catalog.jsonb_path_exists(e.value, '$[*] ? (@.type() != "string")')
                         OR NOT EXISTS (SELECT 1 FROM memory._kind_columns(k.kind) AS c
                                         WHERE c.col = 'platform'))))) THEN
        RAISE EXCEPTION 'p_scope must map nodes, edges to null and episodes, profiles to null or a list of platforms, not %',
                memory._quote(p_scope::text)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'e.g. {"nodes": null, "edges": null, "episodes": ["twitter"]}, or NULL for the whole simulation';
    END IF;
    IF p_metadata IS NULL OR pg_catalog.jsonb_typeof(p_metadata) <> 'object' THEN
        RAISE EXCEPTION 'p_metadata must be a JSON object, not %', COALESCE(pg_catalog.jsonb_typeof(p_metadata), 'NULL')
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass {} for none';
    END IF;

    INSERT INTO memory.simulations (tenant_id, simulation_id, name, published)
    VALUES (p_tenant_id, p_simulation_id, p_name, false)
    ON CONFLICT (tenant_id, simulation_id) DO NOTHING;
    IF FOUND THEN  -- a new simulation: within the tenant's quota (53400; V0038)
        PERFORM memory._check_quota(p_tenant_id, 'simulations');
    END IF;
    PERFORM memory._fail_dead_attempts(p_tenant_id, p_simulation_id);
    -- On Citus a promote or an abort runs on the tenant's worker, which cannot release the
    -- lock this session took of the attempt: the locks it still holds of the tenant's
    -- attempts that have ended go here (on one node there are none).
    v_held := ARRAY(SELECT l.objid::integer FROM pg_catalog.pg_locks AS l
                     WHERE l.locktype = 'advisory' AND l.pid = pg_catalog.pg_backend_pid()
                       AND l.classid = memory._attempt_lock_class()::oid AND l.objsubid = 2);
    IF v_held <> '{}' THEN
        v_held := ARRAY(SELECT a.lock_key FROM memory.import_attempts AS a
                         WHERE a.tenant_id = p_tenant_id AND a.lock_key = ANY (v_held) AND a.state <> 'loading');
        PERFORM memory._release_attempt_lock(k.lock_key) FROM pg_catalog.unnest(v_held) AS k(lock_key);
    END IF;

    -- NULL where the current role lacks the privileges of the session's role (SET ROLE).
    SELECT s.backend_start INTO v_start
      FROM pg_catalog.pg_stat_activity AS s WHERE s.pid = pg_catalog.pg_backend_pid();
    INSERT INTO memory.import_attempts
           (tenant_id, simulation_id, attempt_id, lock_key, skip_dangling, declared, metadata,
            backend_pid, backend_start, scope)
    VALUES (p_tenant_id, p_simulation_id, v_attempt_id, v_lock_key, p_skip_dangling, p_declared,
            p_metadata || CASE WHEN p_name IS NULL THEN '{}'::jsonb
                               ELSE pg_catalog.jsonb_build_object('_name', p_name) END,
            pg_catalog.pg_backend_pid(), v_start, p_scope);
    -- Taken last: a session-level lock outlives a rolled-back call. Never waited for: a key
    -- held elsewhere (a hash collision, or a session holding keys on purpose) refuses the call.
    IF NOT pg_catalog.pg_try_advisory_lock(memory._attempt_lock_class(), v_lock_key) THEN
        RAISE EXCEPTION 'the lock key % of the new import attempt is held by another session', v_lock_key
            USING ERRCODE = 'lock_not_available', HINT = 'call memory.begin_import() again (a new attempt gets a new key)';
    END IF;
    RETURN v_attempt_id;
END
$_$;

ALTER FUNCTION memory.begin_import(p_tenant_id uuid, p_simulation_id uuid, p_declared jsonb, p_skip_dangling boolean, p_metadata jsonb, p_name text, p_scope jsonb) OWNER TO memory_owner;

-- FUNCTION begin_import(p_tenant_id uuid, p_simulation_id uuid, p_declared jsonb, p_skip_dangling boolean, p_metadata jsonb, p_name text, p_scope jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.begin_import(p_tenant_id uuid, p_simulation_id uuid, p_declared jsonb, p_skip_dangling boolean, p_metadata jsonb, p_name text, p_scope jsonb) IS 'Begin a staged import attempt of a simulation (created unpublished if new); returns the attempt id';

-- FUNCTION begin_import(p_tenant_id uuid, p_simulation_id uuid, p_declared jsonb, p_skip_dangling boolean, p_metadata jsonb, p_name text, p_scope jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.begin_import(p_tenant_id uuid, p_simulation_id uuid, p_declared jsonb, p_skip_dangling boolean, p_metadata jsonb, p_name text, p_scope jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.begin_import(p_tenant_id uuid, p_simulation_id uuid, p_declared jsonb, p_skip_dangling boolean, p_metadata jsonb, p_name text, p_scope jsonb) TO memory_writer;

-- cache_vectors(uuid, text, bytea[], public.vector[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[], p_vectors public.vector[]) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_dims     integer := memory._stored_dimensions();
    v_bad      record;
    v_inserted bigint;
BEGIN
    PERFORM memory._enter_vector_cache(p_tenant_id, p_embedding_model, p_hashes);
    PERFORM memory._not_null(p_vectors, 'p_vectors', 'pass one vector per content hash (''{}'' for none)');
    IF pg_catalog.cardinality(p_hashes) <> pg_catalog.cardinality(p_vectors) THEN
        RAISE EXCEPTION 'p_hashes has % elements and p_vectors %', pg_catalog.cardinality(p_hashes),
                        pg_catalog.cardinality(p_vectors)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass one vector per content hash, in the same order';
    END IF;
    SELECT u.i, u.h IS NULL OR u.v IS NULL AS missing,
           CASE WHEN u.h IS NULL THEN 'p_hashes[' || u.i || '] is NULL'
                WHEN u.v IS NULL THEN 'p_vectors[' || u.i || '] is NULL'
                WHEN pg_catalog.octet_length(u.h) > 64 THEN
                    pg_catalog.format('p_hashes[%s] has %s bytes, at most 64', u.i, pg_catalog.octet_length(u.h))
                WHEN public.vector_dims(u.v) <> v_dims THEN
                    pg_catalog.format('p_vectors[%s] has %s dimensions, expected %s', u.i, public.vector_dims(u.v), v_dims)
                ELSE 'p_vectors[' || u.i || '] ' || memory._vector_problem(u.v) END AS problem
      INTO v_bad
      FROM ROWS FROM (pg_catalog.unnest(p_hashes), pg_catalog.unnest(p_vectors)) WITH ORDINALITY AS u (h, v, i)
     WHERE u.h IS NULL OR u.v IS NULL OR pg_catalog.octet_length(u.h) NOT BETWEEN 1 AND 64
        OR public.vector_dims(u.v) <> v_dims OR memory._vector_problem(u.v) IS NOT NULL
     ORDER BY u.i
     LIMIT 1;
    IF FOUND THEN
        IF v_bad.missing THEN
            RAISE EXCEPTION '%', v_bad.problem
                USING ERRCODE = 'null_value_not_allowed', HINT = 'nothing was cached; pass a hash and a vector for every text';
        END IF;
        RAISE EXCEPTION '%', COALESCE(v_bad.problem, 'p_hashes[' || v_bad.i || '] is empty')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('nothing was cached; pass %s-dimensional embeddings of non-empty texts and their content hashes (sha256)', v_dims);
    END IF;

    INSERT INTO memory.vector_cache AS c (tenant_id, embedding_model, content_hash, embedding)
    SELECT p_tenant_id, p_embedding_model, u.h, u.v
      FROM ROWS FROM (pg_catalog.unnest(p_hashes), pg_catalog.unnest(p_vectors)) AS u (h, v)
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_inserted = ROW_COUNT;
    RETURN v_inserted;
END
$$;

ALTER FUNCTION memory.cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[], p_vectors public.vector[]) OWNER TO memory_owner;

-- FUNCTION cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[], p_vectors public.vector[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[], p_vectors public.vector[]) IS 'Add vectors to the tenant''s cache by embedding model and content hash; returns the rows added (a cached hash keeps its vector)';

-- FUNCTION cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[], p_vectors public.vector[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[], p_vectors public.vector[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[], p_vectors public.vector[]) TO memory_writer;

-- cached_vectors(uuid, text, bytea[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) RETURNS TABLE(content_hash bytea, embedding public.vector)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_vector_cache(p_tenant_id, p_embedding_model, p_hashes);
    RETURN QUERY SELECT c.content_hash, c.embedding
      FROM memory.vector_cache AS c
     WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_embedding_model
       AND c.content_hash = ANY (p_hashes)
       AND memory._vector_problem(c.embedding) IS NULL;
END
$$;

ALTER FUNCTION memory.cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) OWNER TO memory_owner;

-- FUNCTION cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) IS 'The tenant''s cached vectors of an embedding model for the content hashes asked (hits only)';

-- FUNCTION cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[]) TO memory_writer;

-- change_heads; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.change_heads ENABLE ROW LEVEL SECURITY;

-- change_heads; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.change_heads (
    tenant_id uuid NOT NULL,
    changes bigint DEFAULT 0 NOT NULL,
    last_change_at timestamp with time zone,
    last_change_id bigint DEFAULT 0 NOT NULL,
    CONSTRAINT change_heads_last_change_id_check CHECK ((last_change_id >= 0))
);

ALTER TABLE ONLY memory.change_heads FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.change_heads OWNER TO memory_owner;

-- TABLE change_heads; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.change_heads IS 'A tenant''s change-feed head: its row lock orders the tenant''s changes by commit';

-- TABLE change_heads; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.change_heads TO memory_reader;

-- change_heads change_heads_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.change_heads
    ADD CONSTRAINT change_heads_pkey PRIMARY KEY (tenant_id);

-- change_heads change_heads_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.change_heads
    ADD CONSTRAINT change_heads_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- change_heads owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.change_heads FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- change_heads owner_changes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.change_heads FOR UPDATE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- change_heads owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.change_heads FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- change_heads owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.change_heads FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- change_heads readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.change_heads FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN change_heads.last_change_id; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.change_heads.last_change_id IS 'the tenant''s last change_id: the next change takes the one after it (memory._record_change)';

-- changes; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.changes ENABLE ROW LEVEL SECURITY;

-- changes; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.changes (
    tenant_id uuid NOT NULL,
    change_id bigint NOT NULL,
    seq bigint NOT NULL,
    simulation_id uuid,
    kind text NOT NULL,
    op text NOT NULL,
    attempt_id uuid,
    ids text[],
    counts jsonb DEFAULT '{}'::jsonb NOT NULL,
    detail jsonb DEFAULT '{}'::jsonb NOT NULL,
    txid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    recorded_by name DEFAULT SESSION_USER NOT NULL,
    CONSTRAINT changes_counts_check CHECK ((jsonb_typeof(counts) = 'object'::text)),
    CONSTRAINT changes_detail_check CHECK ((jsonb_typeof(detail) = 'object'::text)),
    CONSTRAINT changes_kind_check CHECK ((kind ~ '^[a-z_]{1,40}$'::text)),
    CONSTRAINT changes_op_check CHECK ((op = ANY (ARRAY['import'::text, 'upsert'::text, 'delete'::text, 'outcome'::text, 'compact'::text, 'retention'::text, 'reembed'::text])))
);

ALTER TABLE ONLY memory.changes FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.changes OWNER TO memory_owner;

-- TABLE changes; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.changes IS 'The change feed (outbox): one row per committed change, in commit order within a tenant; read with memory.changes_since()';

-- TABLE changes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.changes TO memory_reader;

-- changes changes_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.changes
    ADD CONSTRAINT changes_pkey PRIMARY KEY (tenant_id, change_id);

-- changes changes_seq_key; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.changes
    ADD CONSTRAINT changes_seq_key UNIQUE (tenant_id, seq);

-- changes changes_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.changes
    ADD CONSTRAINT changes_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- changes owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.changes FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- changes owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.changes FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- changes owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.changes FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- changes readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.changes FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN changes.change_id; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.changes.change_id IS 'cursor of memory.changes_since(): the tenant''s own number (memory.change_heads.last_change_id), in commit order within the tenant';

-- COLUMN changes.ids; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.changes.ids IS 'the ids the change names (an upsert''s batch, a compaction''s clumped episodes); NULL: the counts over the kind of the simulation (an import''s scope)';

-- COLUMN changes.seq; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.changes.seq IS 'the tenant''s n-th change, gapless';

-- changes_simulation_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX changes_simulation_idx ON memory.changes USING btree (tenant_id, simulation_id, change_id);

-- changes_since(uuid, bigint, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.changes_since(p_tenant_id uuid, p_cursor bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 1000) RETURNS TABLE(change_id bigint, seq bigint, simulation_id uuid, kind text, op text, attempt_id uuid, ids text[], counts jsonb, detail jsonb, recorded_at timestamp with time zone, recorded_by name)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_limit < 1 THEN
        RAISE EXCEPTION 'p_limit must be at least 1, not %', p_limit
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a page size from 1 to 10000 (NULL: 1000)';
    END IF;
    IF p_cursor IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM memory.changes AS c
                        WHERE c.tenant_id = p_tenant_id AND c.change_id = p_cursor) THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT c.change_id, c.seq, c.simulation_id, c.kind, c.op, c.attempt_id, c.ids, c.counts, c.detail,
           c.recorded_at, c.recorded_by
      FROM memory.changes AS c
     WHERE c.tenant_id = p_tenant_id AND c.change_id > COALESCE(p_cursor, 0)
     ORDER BY c.change_id
     LIMIT LEAST(COALESCE(p_limit, 1000), 10000);
END
$$;

ALTER FUNCTION memory.changes_since(p_tenant_id uuid, p_cursor bigint, p_limit integer) OWNER TO memory_owner;

-- FUNCTION changes_since(p_tenant_id uuid, p_cursor bigint, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.changes_since(p_tenant_id uuid, p_cursor bigint, p_limit integer) IS 'The tenant''s change feed after a cursor (a change_id, the tenant''s own number; NULL: from the start), in commit order; an unknown cursor answers nothing';

-- FUNCTION changes_since(p_tenant_id uuid, p_cursor bigint, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.changes_since(p_tenant_id uuid, p_cursor bigint, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.changes_since(p_tenant_id uuid, p_cursor bigint, p_limit integer) TO memory_reader;

-- commit_import(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.commit_import(p_tenant_id uuid, p_attempt_id uuid) RETURNS TABLE(kind text, inserted bigint, updated bigint, unchanged bigint, deleted bigint, skipped bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET enable_nestloop TO 'off'
    SET lock_timeout TO '60s'
    AS $$
DECLARE
    v_attempt  memory.import_attempts;
    v_sim      uuid;
    v_kind     memory.record_kind;
    v_problems jsonb;
    v_problem  jsonb;
    v_list     text;
    v_count    bigint;
    v_skipped  text[];
    v_other    uuid;
    v_other_at timestamptz;
    v_result   jsonb := '{}'::jsonb;
    v_finished timestamptz;
BEGIN
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);
    v_sim := v_attempt.simulation_id;
    -- One promote at a time per simulation; re-read the attempt under the lock.
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim FOR UPDATE;
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);

    SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(v) ORDER BY v.problem, v.item_id), '[]')
      INTO v_problems
      FROM memory.validate_import(p_tenant_id, p_attempt_id) AS v
     WHERE v.problem <> 'skipped_edge';

    SELECT p.value INTO v_problem FROM pg_catalog.jsonb_array_elements(v_problems) AS p
     WHERE p.value ->> 'problem' = 'count_mismatch' LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'import attempt % %: %', p_attempt_id, v_problem ->> 'kind', v_problem ->> 'detail'
            USING ERRCODE = 'cardinality_violation',
                  HINT = 'stage every row the import declared, or abort the attempt';
    END IF;

    SELECT pg_catalog.count(*),
           pg_catalog.string_agg(memory._quote(d.value ->> 'item_id') || ' (' || memory._quote(d.value ->> 'detail') || ')', ', '
                                 ORDER BY d.rn) FILTER (WHERE d.rn <= 10)
      INTO v_count, v_list
      FROM (SELECT p.value, pg_catalog.row_number() OVER (ORDER BY p.value ->> 'item_id') AS rn
              FROM pg_catalog.jsonb_array_elements(v_problems) AS p
             WHERE p.value ->> 'problem' = 'dangling_edge') AS d;
    IF v_count > 0 THEN
        RAISE EXCEPTION 'import attempt %: % edges refer to nodes not in the import: %', p_attempt_id,
                v_count, v_list || CASE WHEN v_count > 10 THEN ', ...' ELSE '' END
            USING ERRCODE = 'foreign_key_violation',
                  HINT = 'import the missing nodes, or begin the import with p_skip_dangling => true';
    END IF;

    SELECT p.value INTO v_problem FROM pg_catalog.jsonb_array_elements(v_problems) AS p
     WHERE p.value ->> 'problem' = 'missing_embedding' LIMIT 1;
    IF FOUND THEN
        -- The usual cause: another import of the simulation committed while this one loaded,
        -- and changed rows this one staged without a vector (their committed text was the
        -- same when it embedded). A rerun embeds what changed.
        SELECT a.attempt_id, a.finished_at INTO v_other, v_other_at
          FROM memory.import_attempts AS a
         WHERE a.tenant_id = p_tenant_id AND a.simulation_id = v_sim AND a.state = 'committed'
           AND a.finished_at > v_attempt.started_at
         ORDER BY a.finished_at DESC LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'import attempt %: another import of this simulation (attempt %) committed at % while this one loaded, and changed % %',
                    p_attempt_id, v_other, v_other_at, v_problem ->> 'kind', memory._quote(v_problem ->> 'item_id')
                USING ERRCODE = 'serialization_failure',
                      HINT = 'run the import again: it embeds what the other import changed';
        END IF;
        RAISE EXCEPTION 'import attempt %: % % %', p_attempt_id, v_problem ->> 'kind',
                memory._quote(v_problem ->> 'item_id'), v_problem ->> 'detail'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'stage the row with its embedding';
    END IF;

    -- Dangling edges of an attempt that skips them: leave them out, and say which.
    v_skipped := memory._skip_dangling(p_tenant_id, p_attempt_id);
    -- The versions this promote ends are recorded with its attempt (memory._record_history
    -- believes the setting only for an attempt this backend began).
    PERFORM pg_catalog.set_config('memory.attempt_id', p_attempt_id::text, true);

    -- First the rows the attempt does not have are deleted, kind by kind in reverse order
    -- (edges before their nodes, so that no edge goes by cascade uncounted); then every kind
    -- is merged in order (nodes before the edges that reference them). Pruning first costs a
    -- first import nothing (the simulation holds no row of the kind to compare), where
    -- pruning after the merge would compare every row just written.
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord DESC LOOP
        v_result := v_result || pg_catalog.jsonb_build_object(v_kind.kind, pg_catalog.jsonb_build_object(
            'deleted',
            CASE WHEN v_attempt.scope IS NULL OR v_attempt.scope ? v_kind.kind
                 THEN memory._prune(v_kind.kind, p_tenant_id, v_sim, p_attempt_id,
                                    CASE WHEN pg_catalog.jsonb_typeof(v_attempt.scope -> v_kind.kind) = 'array'
                                         THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(
                                                               v_attempt.scope -> v_kind.kind)) END)
                 ELSE 0 END,
            -- What the attempt replaced of the kind: all of it (true), some platforms, nothing.
            'replaced',
            CASE WHEN v_attempt.scope IS NULL OR pg_catalog.jsonb_typeof(v_attempt.scope -> v_kind.kind) = 'null'
                 THEN 'true'::jsonb ELSE COALESCE(v_attempt.scope -> v_kind.kind, 'false'::jsonb) END));
    END LOOP;
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        SELECT pg_catalog.jsonb_set(v_result, ARRAY[v_kind.kind],
                                    (v_result -> v_kind.kind) || pg_catalog.to_jsonb(m))
          INTO v_result FROM memory._merge(v_kind.kind, p_tenant_id, v_sim, p_attempt_id) AS m;
    END LOOP;
    -- V0016: the evidence behind each fact, as the promoted rows stand, when the promote
    -- changed a node, an edge or an episode (an import of reports alone, or an unchanged
    -- replay, leaves the evidence as it is).
    IF EXISTS (SELECT 1 FROM pg_catalog.unnest(ARRAY['nodes', 'edges', 'episodes']) AS k(kind)
                WHERE (v_result -> k.kind ->> 'inserted')::bigint + (v_result -> k.kind ->> 'updated')::bigint
                      + (v_result -> k.kind ->> 'deleted')::bigint > 0) THEN
        PERFORM memory._link_evidence(p_tenant_id, v_sim);
    END IF;
    v_result := pg_catalog.jsonb_set(v_result, '{edges,skipped}',
                                     pg_catalog.to_jsonb(COALESCE(pg_catalog.cardinality(v_skipped), 0)));
    IF v_skipped IS NOT NULL THEN
        v_result := v_result || pg_catalog.jsonb_build_object('skipped_edges', pg_catalog.to_jsonb(v_skipped));
    END IF;

    UPDATE memory.simulations AS s
       SET published = true,
           name = COALESCE(v_attempt.metadata ->> '_name', s.name),
           metadata = s.metadata || (v_attempt.metadata - '_name'),
           updated_at = pg_catalog.now()
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim
       AND (NOT s.published
            OR s.name IS DISTINCT FROM COALESCE(v_attempt.metadata ->> '_name', s.name)
            OR s.metadata IS DISTINCT FROM s.metadata || (v_attempt.metadata - '_name'));
    -- read first: Citus refuses a volatile function in an UPDATE of a distributed table
    v_finished := pg_catalog.clock_timestamp();
    UPDATE memory.import_attempts AS a
       SET state = 'committed', result = v_result, finished_at = v_finished
     WHERE a.tenant_id = p_tenant_id AND a.attempt_id = p_attempt_id;
    PERFORM memory._discard_staged(p_tenant_id, ARRAY[p_attempt_id]);
    PERFORM memory._release_attempt_lock(v_attempt.lock_key);
    PERFORM memory._record_import(p_tenant_id, v_sim, p_attempt_id, v_result);  -- the change feed (V0021)

    RETURN QUERY
    SELECT k.kind, (v_result #>> ARRAY[k.kind, 'inserted'])::bigint,
           (v_result #>> ARRAY[k.kind, 'updated'])::bigint,
           (v_result #>> ARRAY[k.kind, 'unchanged'])::bigint,
           (v_result #>> ARRAY[k.kind, 'deleted'])::bigint,
           COALESCE((v_result #>> ARRAY[k.kind, 'skipped'])::bigint, 0)
      FROM memory._record_kinds() AS k
     ORDER BY k.ord;
END
$$;

ALTER FUNCTION memory.commit_import(p_tenant_id uuid, p_attempt_id uuid) OWNER TO memory_owner;

-- FUNCTION commit_import(p_tenant_id uuid, p_attempt_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.commit_import(p_tenant_id uuid, p_attempt_id uuid) IS 'Validate an import attempt and promote it whole, atomically (21000 counts, 23503 dangling edges)';

-- FUNCTION commit_import(p_tenant_id uuid, p_attempt_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.commit_import(p_tenant_id uuid, p_attempt_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.commit_import(p_tenant_id uuid, p_attempt_id uuid) TO memory_writer;

-- committed_hashes(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.committed_hashes(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(kind text, item_id text, content_hash bytea)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $_$
DECLARE
    v_kind memory.record_kind;
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    FOR v_kind IN SELECT k.* FROM memory._record_kinds() AS k
                   WHERE EXISTS (SELECT 1 FROM memory._kind_columns(k.kind) AS c WHERE c.col = 'content_hash')
                   ORDER BY k.ord LOOP
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT %L::text, l.%I, l.content_hash FROM %s AS l'
            ' WHERE l.tenant_id = $1 AND l.simulation_id = $2'
            '   AND l.content_hash IS NOT NULL AND l.embedding IS NOT NULL',
            v_kind.kind, v_kind.id_column, v_kind.live)
        USING p_tenant_id, p_simulation_id;
    END LOOP;
END
$_$;

ALTER FUNCTION memory.committed_hashes(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION committed_hashes(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.committed_hashes(p_tenant_id uuid, p_simulation_id uuid) IS 'Content hashes of a simulation''s committed, embedded rows (for embedding only what changed)';

-- FUNCTION committed_hashes(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.committed_hashes(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.committed_hashes(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- compact_episodes(uuid, uuid, real, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real DEFAULT 0.99, p_drop boolean DEFAULT false) RETURNS TABLE(clumps integer, episodes integer, dropped integer)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._not_null(p_similarity, 'p_similarity', 'pass a cosine similarity such as 0.99');
    SELECT memory._not_null(p_drop, 'p_drop', 'pass true to delete the duplicates, false to keep them');
    SELECT * FROM memory._compact_episodes(p_tenant_id, p_simulation_id, p_similarity, p_drop);
$$;

ALTER FUNCTION memory.compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) OWNER TO memory_owner;

-- FUNCTION compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) IS 'Compact an agent''s near-duplicate episodes (cosine above p_similarity) into one representative with its count; p_drop deletes the others (SECURITY DEFINER: writers hold no DELETE)';

-- FUNCTION compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.compact_episodes(p_tenant_id uuid, p_simulation_id uuid, p_similarity real, p_drop boolean) TO memory_writer;

-- create_api_key(uuid, name, bytea, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text) RETURNS uuid
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_oid oid;
    v_key uuid;
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the tenant the key acts for');
    PERFORM memory._not_null(p_role, 'p_role', 'pass the role the key''s requests run as');
    PERFORM memory._not_null(p_key_hash, 'p_key_hash', 'pass the sha256 of the key');
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'create it with memory.create_tenant()';
    END IF;
    SELECT r.oid INTO v_oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = p_role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown role %', p_role
            USING ERRCODE = 'undefined_object', HINT = 'create the role first';
    END IF;
    PERFORM 1 FROM memory.tenant_grants AS g WHERE g.tenant_id = p_tenant_id AND g.role_oid = v_oid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % holds no grant of its own for tenant %', p_role, p_tenant_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'grant it with memory.grant_tenant(role, tenant) first';
    END IF;
    INSERT INTO memory.api_keys (tenant_id, key_hash, key_prefix, role_oid, role_name)
    VALUES (p_tenant_id, p_key_hash, p_key_prefix, v_oid, p_role)
    RETURNING key_id INTO v_key;
    RETURN v_key;
END
$$;

ALTER FUNCTION memory.create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text) OWNER TO memory_owner;

-- FUNCTION create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text) IS 'Record an API key of swarm-memory serve by its sha256, bound to a tenant and the role its requests run as; memory_admin only';

-- FUNCTION create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text) TO memory_admin;

-- create_tenant(text, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.create_tenant(p_name text, p_tenant_id uuid DEFAULT NULL::uuid) RETURNS uuid
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_tenant_id uuid;
    v_name      text;
BEGIN
    IF p_name IS NULL OR p_name = '' THEN
        RAISE EXCEPTION 'p_name must not be NULL or empty'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name the tenant';
    END IF;

    SELECT t.tenant_id INTO v_tenant_id FROM memory.tenants AS t WHERE t.name = p_name;
    IF FOUND THEN
        IF p_tenant_id IS NOT NULL AND p_tenant_id <> v_tenant_id THEN
            RAISE EXCEPTION 'tenant name % is taken by tenant %', memory._quote(p_name), v_tenant_id
                USING ERRCODE = 'unique_violation', HINT = 'choose another name, or omit p_tenant_id';
        END IF;
        RETURN v_tenant_id;
    END IF;

    IF p_tenant_id IS NOT NULL THEN
        SELECT t.name INTO v_name FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
        IF FOUND THEN
            RAISE EXCEPTION 'tenant % exists under the name %', p_tenant_id, memory._quote(v_name)
                USING ERRCODE = 'unique_violation', HINT = 'use another id, or the existing name';
        END IF;
    END IF;

    INSERT INTO memory.tenants (tenant_id, name)
    VALUES (COALESCE(p_tenant_id, pg_catalog.gen_random_uuid()), p_name)
    RETURNING tenant_id INTO v_tenant_id;
    RETURN v_tenant_id;
END
$$;

ALTER FUNCTION memory.create_tenant(p_name text, p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION create_tenant(p_name text, p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.create_tenant(p_name text, p_tenant_id uuid) IS 'Create a tenant (or return the one of that name); memory_admin only';

-- FUNCTION create_tenant(p_name text, p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.create_tenant(p_name text, p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.create_tenant(p_name text, p_tenant_id uuid) TO memory_admin;

-- delete_simulation(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.delete_simulation(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(nodes bigint, edges bigint, episodes bigint, profiles bigint, reports bigint, predictions bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT * FROM memory._delete_simulation(p_tenant_id, p_simulation_id);
$$;

ALTER FUNCTION memory.delete_simulation(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION delete_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.delete_simulation(p_tenant_id uuid, p_simulation_id uuid) IS 'Delete a simulation with its nodes, edges, episodes, profiles, reports and predictions; returns the counts';

-- FUNCTION delete_simulation(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.delete_simulation(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.delete_simulation(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- delete_tenant(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.delete_tenant(p_tenant_id uuid) RETURNS TABLE(simulations bigint, nodes bigint, edges bigint, episodes bigint, profiles bigint, grants bigint, reports bigint, predictions bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $_$
DECLARE
    v_kind        memory.record_kind;
    v_count       bigint;
    v_counts      jsonb := '{}'::jsonb;
    v_simulations bigint;
    v_grants      bigint;
    v_change      bigint;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with SELECT * FROM memory.tenants';
    END IF;

    -- Each kind counted, then the simulations deleted: their rows of every kind go by the
    -- foreign keys' cascade, and so the history trigger keeps no version of them.
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        EXECUTE pg_catalog.format('DELETE FROM %s AS s WHERE s.tenant_id = $1', v_kind.staged) USING p_tenant_id;
        EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1', v_kind.live)
           INTO v_count USING p_tenant_id;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind.kind, v_count);
    END LOOP;
    DELETE FROM memory.import_attempts AS a WHERE a.tenant_id = p_tenant_id;
    DELETE FROM memory.vector_cache AS c WHERE c.tenant_id = p_tenant_id;
    DELETE FROM memory.simulations AS s WHERE s.tenant_id = p_tenant_id;
    GET DIAGNOSTICS v_simulations = ROW_COUNT;
    DELETE FROM memory.tenant_grants AS g WHERE g.tenant_id = p_tenant_id;
    GET DIAGNOSTICS v_grants = ROW_COUNT;
    -- The change feed goes with the tenant (the row below with it); its NOTIFY wakes consumers (V0021).
    v_change := memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => NULL,
                                      p_kind => 'tenant', p_op => 'delete', p_ids => NULL,
                                      p_counts => v_counts);
    -- Last: a row added meanwhile (its foreign key holds this row) goes by the cascade.
    DELETE FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;

    RETURN QUERY SELECT v_simulations, (v_counts ->> 'nodes')::bigint, (v_counts ->> 'edges')::bigint,
                        (v_counts ->> 'episodes')::bigint, (v_counts ->> 'profiles')::bigint, v_grants,
                        (v_counts ->> 'reports')::bigint, (v_counts ->> 'predictions')::bigint;
END
$_$;

ALTER FUNCTION memory.delete_tenant(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION delete_tenant(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.delete_tenant(p_tenant_id uuid) IS 'Remove a tenant with all its rows and grants, atomically; returns the counts; memory_admin only (SECURITY DEFINER: admins hold no DELETE)';

-- FUNCTION delete_tenant(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.delete_tenant(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.delete_tenant(p_tenant_id uuid) TO memory_admin;

-- edge_detail; Type: TYPE; Schema: memory; Owner: memory_owner
CREATE TYPE memory.edge_detail AS (
	edge_id text,
	type text,
	source_id text,
	target_id text,
	fact text,
	fact_type text,
	valid_at timestamp with time zone,
	invalid_at timestamp with time zone,
	created_at timestamp with time zone,
	expired_at timestamp with time zone,
	episodes text[],
	attributes jsonb,
	source text
);

ALTER TYPE memory.edge_detail OWNER TO memory_owner;

-- TYPE edge_detail; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TYPE memory.edge_detail IS 'One result row of memory.get_edge and memory.graph_edges: an edge with every field MiroFish sends';

-- edge_evidence; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.edge_evidence ENABLE ROW LEVEL SECURITY;

-- edge_evidence; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.edge_evidence (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    edge_key uuid NOT NULL,
    kind text NOT NULL,
    episode_id text NOT NULL,
    episode_key uuid GENERATED ALWAYS AS ((md5(episode_id))::uuid) STORED NOT NULL,
    "position" integer,
    matched text[],
    found_by text[] NOT NULL,
    score real,
    CONSTRAINT edge_evidence_kind_check CHECK ((kind = ANY (ARRAY['source'::text, 'mention'::text]))),
    CONSTRAINT edge_evidence_shape_check CHECK ((((kind = 'source'::text) AND ("position" IS NOT NULL) AND (matched IS NULL) AND (found_by = ARRAY['id'::text])) OR ((kind = 'mention'::text) AND ("position" IS NULL) AND (found_by <@ ARRAY['names'::text, 'meaning'::text]) AND (cardinality(found_by) > 0) AND ((matched IS NOT NULL) = ('names'::text = ANY (found_by))))))
);

ALTER TABLE ONLY memory.edge_evidence FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.edge_evidence OWNER TO memory_owner;

-- TABLE edge_evidence; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.edge_evidence IS 'Episodes behind a fact: its source episodes, and agent actions supporting it by names or meaning within its validity window';

-- TABLE edge_evidence; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.edge_evidence TO memory_reader;

-- edge_evidence edge_evidence_edge_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.edge_evidence
    ADD CONSTRAINT edge_evidence_edge_fkey FOREIGN KEY (tenant_id, simulation_id, edge_key) REFERENCES memory.edges(tenant_id, simulation_id, edge_key) ON DELETE CASCADE;

-- edge_evidence edge_evidence_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.edge_evidence
    ADD CONSTRAINT edge_evidence_pkey PRIMARY KEY (tenant_id, simulation_id, edge_key, kind, episode_key);

-- edge_evidence edge_evidence_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.edge_evidence
    ADD CONSTRAINT edge_evidence_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- edge_evidence owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.edge_evidence FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edge_evidence owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.edge_evidence FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edge_evidence owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.edge_evidence FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edge_evidence readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.edge_evidence FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN edge_evidence."position"; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edge_evidence."position" IS 'source: place in the edge''s episodes list (1-based)';

-- COLUMN edge_evidence.found_by; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edge_evidence.found_by IS 'How the link was found: {id} (the edge''s episodes list), or names and/or meaning';

-- COLUMN edge_evidence.matched; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edge_evidence.matched IS 'mention found by names: the names (or aliases) found, and the words of the fact found beside a single name';

-- COLUMN edge_evidence.score; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edge_evidence.score IS 'Cosine similarity of the fact''s and the action''s vectors (same model), NULL when either has none';

-- edge_evidence_episode_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX edge_evidence_episode_idx ON memory.edge_evidence USING btree (tenant_id, simulation_id, episode_key);

-- edges; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.edges ENABLE ROW LEVEL SECURITY;

-- edges; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.edges (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    edge_id text NOT NULL,
    edge_key uuid GENERATED ALWAYS AS ((md5(edge_id))::uuid) STORED NOT NULL,
    type text NOT NULL,
    source_id text NOT NULL,
    source_key uuid GENERATED ALWAYS AS ((md5(source_id))::uuid) STORED NOT NULL,
    target_id text NOT NULL,
    target_key uuid GENERATED ALWAYS AS ((md5(target_id))::uuid) STORED NOT NULL,
    fact text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    valid_at timestamp with time zone,
    invalid_at timestamp with time zone,
    embedding public.vector(384),
    embedding_model text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    content_hash bytea,
    source text DEFAULT 'api'::text NOT NULL,
    learned_at timestamp with time zone,
    expired_at timestamp with time zone,
    sim_no bigint NOT NULL,
    CONSTRAINT edges_embedding_model_check CHECK (((embedding IS NULL) = (embedding_model IS NULL))),
    CONSTRAINT edges_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text]))),
    CONSTRAINT edges_type_length_check CHECK ((char_length(type) <= memory._label_max())),
    CONSTRAINT edges_validity_check CHECK ((invalid_at >= valid_at))
)
WITH (toast_tuple_target='8160');

ALTER TABLE ONLY memory.edges FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.edges OWNER TO memory_owner;

-- TABLE edges; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.edges IS 'Typed relationships between nodes of the same simulation';

-- TABLE edges; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.edges TO memory_reader;
GRANT INSERT ON TABLE memory.edges TO memory_writer;

-- edges edges_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.edges
    ADD CONSTRAINT edges_pkey PRIMARY KEY (tenant_id, simulation_id, edge_key);

-- edges edges_sim_no_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.edges
    ADD CONSTRAINT edges_sim_no_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no) REFERENCES memory.simulations(tenant_id, simulation_id, sim_no) ON DELETE CASCADE;

-- edges edges_source_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.edges
    ADD CONSTRAINT edges_source_fkey FOREIGN KEY (tenant_id, simulation_id, source_key) REFERENCES memory.nodes(tenant_id, simulation_id, node_key) ON DELETE CASCADE;

-- edges edges_target_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.edges
    ADD CONSTRAINT edges_target_fkey FOREIGN KEY (tenant_id, simulation_id, target_key) REFERENCES memory.nodes(tenant_id, simulation_id, node_key) ON DELETE CASCADE;

-- edges history_of_deletes; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER history_of_deletes AFTER DELETE ON memory.edges REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('edges');

-- edges history_of_updates; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER history_of_updates AFTER UPDATE ON memory.edges REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('edges');

-- edges owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.edges FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edges owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.edges FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edges readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.edges FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edges words_of_deletes; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_deletes AFTER DELETE ON memory.edges REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('edges');

-- edges words_of_inserts; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_inserts AFTER INSERT ON memory.edges REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('edges');

-- edges words_of_updates; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_updates AFTER UPDATE ON memory.edges REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('edges');

-- edges writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.edges FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edges writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.edges FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- edges writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.edges FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN edges.attributes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(attributes) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.content_hash; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(content_hash) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.edge_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(edge_id) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.embedding; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.embedding_model; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding_model) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.expired_at; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edges.expired_at IS 'When the upstream graph learned that the fact no longer holds (MiroFish''s expired_at)';

-- COLUMN edges.expired_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(expired_at) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.fact; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(fact) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.invalid_at; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edges.invalid_at IS 'When the fact stopped holding in the world (NULL: it still holds)';

-- COLUMN edges.invalid_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(invalid_at) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.learned_at; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edges.learned_at IS 'When the upstream graph learned the fact (MiroFish''s created_at)';

-- COLUMN edges.learned_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(learned_at) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.sim_no; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edges.sim_no IS 'The simulation''s opaque number (memory.simulations.sim_no), written by the merge, held by edges_sim_no_fkey';

-- COLUMN edges.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.source_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source_id) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.target_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(target_id) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.type; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(type) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.edges TO memory_writer;

-- COLUMN edges.valid_at; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.edges.valid_at IS 'When the fact began to hold in the world (NULL: unknown, taken as always)';

-- COLUMN edges.valid_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(valid_at) ON TABLE memory.edges TO memory_writer;

-- edges_in_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX edges_in_idx ON memory.edges USING btree (tenant_id, simulation_id, target_key) INCLUDE (source_key, edge_key, type, valid_at, invalid_at, expired_at);

-- edges_out_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX edges_out_idx ON memory.edges USING btree (tenant_id, simulation_id, source_key) INCLUDE (target_key, edge_key, type, valid_at, invalid_at, expired_at);

-- edges_simulation_stats; Type: STATISTICS; Schema: memory; Owner: memory_owner
CREATE STATISTICS memory.edges_simulation_stats (dependencies) ON tenant_id, simulation_id FROM memory.edges;

ALTER STATISTICS memory.edges_simulation_stats OWNER TO memory_owner;

-- embedding_models; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.embedding_models ENABLE ROW LEVEL SECURITY;

-- embedding_models; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.embedding_models (
    model text NOT NULL,
    dimensions integer NOT NULL,
    normalized boolean NOT NULL,
    query_prefix text DEFAULT ''::text NOT NULL,
    passage_prefix text DEFAULT ''::text NOT NULL,
    package text NOT NULL,
    languages text[] DEFAULT '{}'::text[] NOT NULL,
    note text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT embedding_models_dimensions_check CHECK (((dimensions >= 1) AND (dimensions <= 16000))),
    CONSTRAINT embedding_models_model_check CHECK (((model <> ''::text) AND (char_length(model) <= memory._label_max()))),
    CONSTRAINT embedding_models_package_check CHECK ((package <> ''::text))
);

ALTER TABLE ONLY memory.embedding_models FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.embedding_models OWNER TO memory_owner;

-- TABLE embedding_models; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.embedding_models IS 'The embedding models a vector may come from: dimensions, normalisation, query and passage prefixes, the package that computes it';

-- TABLE embedding_models; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.embedding_models TO memory_reader;
GRANT SELECT ON TABLE memory.embedding_models TO memory_admin;

-- embedding_models embedding_models_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.embedding_models
    ADD CONSTRAINT embedding_models_pkey PRIMARY KEY (model);

-- embedding_models roles_read_every_model; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY roles_read_every_model ON memory.embedding_models FOR SELECT TO memory_reader, memory_admin USING (true);

-- entity_summary(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.entity_summary(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer DEFAULT 10) RETURNS TABLE(section text, id text, text text, detail jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_limit integer := memory._top_k(p_limit);
    v_node  memory.nodes;
    v_names text[];
BEGIN
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    SELECT n.* INTO v_node FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND n.node_key = pg_catalog.md5(p_node_id)::uuid;
    -- the agent names that are this entity: its name and aliases, any case
    v_names := ARRAY(SELECT pg_catalog.lower(l.label) FROM memory._entity_names(v_node.name, v_node.attributes) AS l (label));
    RETURN QUERY
    SELECT 'entity', v_node.node_id, v_node.name,
           pg_catalog.jsonb_build_object('type', v_node.type, 'labels', v_node.labels, 'summary', v_node.summary,
                                         'attributes', v_node.attributes)
    UNION ALL
    (SELECT 'said', o.episode_id, o.said,
            pg_catalog.jsonb_build_object('action_type', o.action_type, 'platform', o.platform, 'round', o.round,
                                          'occurred_at', o.occurred_at,
                                          'reposted', o.reposted, 'of', o.metadata -> 'action_args' -> 'original_author_name')
       FROM (SELECT x.*, memory._action_said(x.content, x.metadata) AS said,
                    (x.metadata -> 'action_args' ->> 'content') IS NULL
                    AND (x.metadata -> 'action_args' ->> 'quote_content') IS NULL
                    AND (x.metadata -> 'action_args' ->> 'original_content') IS NOT NULL AS reposted
               FROM memory.episodes AS x
              WHERE x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                AND pg_catalog.lower(pg_catalog.btrim(x.agent_name)) OPERATOR(pg_catalog.=) ANY (v_names)) AS o
      WHERE o.said IS NOT NULL
      ORDER BY o.reposted, o.occurred_at NULLS LAST, o.round NULLS LAST, o.episode_id
      LIMIT v_limit)
    UNION ALL
    (SELECT 'activity', NULL::text,
            pg_catalog.string_agg(a.action_type || ' ' || a.n, ', ' ORDER BY a.n DESC, a.action_type),
            pg_catalog.jsonb_object_agg(a.action_type, a.n)
       FROM (SELECT COALESCE(x.action_type, 'unknown') AS action_type, pg_catalog.count(*) AS n
               FROM memory.episodes AS x
              WHERE x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                AND pg_catalog.lower(pg_catalog.btrim(x.agent_name)) OPERATOR(pg_catalog.=) ANY (v_names)
                AND memory._action_said(x.content, x.metadata) IS NULL
              GROUP BY 1) AS a
     HAVING pg_catalog.count(*) > 0)
    UNION ALL
    (SELECT 'fact', f.edge_id, f.fact,
            pg_catalog.jsonb_build_object('type', f.type, 'source', f.source_name, 'target', f.target_name,
                                          'valid_at', f.valid_at, 'state', f.state)
       FROM memory.facts(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                         p_node_id => p_node_id, p_state => 'current', p_as_of => NULL,
                         p_limit => v_limit) AS f)
    UNION ALL
    (SELECT 'neighbour', w.node_id, w.name,
            pg_catalog.jsonb_build_object('type', w.type, 'via', w.edge_type, 'fact', w.fact)
       FROM memory.neighbors(p_tenant_id, p_simulation_id, p_node_id, 1) AS w
      ORDER BY w.name, w.node_id LIMIT v_limit)
    UNION ALL
    (SELECT 'episode', e.id, e.text, pg_catalog.jsonb_build_object('score', e.score, 'matched', e.matched)
       FROM memory.search_words(p_tenant_id, p_simulation_id, v_node.name, v_limit OPERATOR(pg_catalog.*) 3,
                                ARRAY['episode']) AS e
       JOIN memory.episodes AS x ON x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
            AND x.episode_key = pg_catalog.md5(e.id)::uuid
      -- (a name of no words, which an entity may have, names no episode: not searched);
      -- its own actions are above, and an action without text says nothing of it
      WHERE v_node.name OPERATOR(pg_catalog.~) '[^[:space:]]'
        AND memory._action_said(x.content, x.metadata) IS NOT NULL
        AND NOT pg_catalog.lower(pg_catalog.btrim(COALESCE(x.agent_name, ''))) OPERATOR(pg_catalog.=) ANY (v_names)
      ORDER BY e.score DESC, e.id
      LIMIT v_limit);
END
$$;

ALTER FUNCTION memory.entity_summary(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) OWNER TO memory_owner;

-- FUNCTION entity_summary(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.entity_summary(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) IS 'An entity with its current facts, its neighbours and the episodes that name it, in one call';

-- FUNCTION entity_summary(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.entity_summary(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.entity_summary(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) TO memory_reader;

-- episode_clumps; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.episode_clumps ENABLE ROW LEVEL SECURITY;

-- episode_clumps; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.episode_clumps (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    representative_key uuid NOT NULL,
    representative_id text NOT NULL,
    agent_id integer,
    members integer NOT NULL,
    member_ids text[] NOT NULL,
    dropped boolean NOT NULL,
    similarity real NOT NULL,
    compacted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT episode_clumps_members_check CHECK (((members >= 2) AND (members = (cardinality(member_ids) + 1))))
);

ALTER TABLE ONLY memory.episode_clumps FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.episode_clumps OWNER TO memory_owner;

-- TABLE episode_clumps; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.episode_clumps IS 'Near-duplicate episodes of an agent compacted into one representative, with their count';

-- TABLE episode_clumps; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.episode_clumps TO memory_reader;

-- episode_clumps episode_clumps_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.episode_clumps
    ADD CONSTRAINT episode_clumps_pkey PRIMARY KEY (tenant_id, simulation_id, representative_key);

-- episode_clumps episode_clumps_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.episode_clumps
    ADD CONSTRAINT episode_clumps_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- episode_clumps owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.episode_clumps FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episode_clumps owner_changes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.episode_clumps FOR UPDATE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episode_clumps owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.episode_clumps FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episode_clumps owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.episode_clumps FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episode_clumps readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.episode_clumps FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episode_hit; Type: TYPE; Schema: memory; Owner: memory_owner
CREATE TYPE memory.episode_hit AS (
	episode_id text,
	agent_id integer,
	agent_name text,
	platform text,
	round integer,
	action_type text,
	content text,
	occurred_at timestamp with time zone,
	similarity double precision
);

ALTER TYPE memory.episode_hit OWNER TO memory_owner;

-- TYPE episode_hit; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TYPE memory.episode_hit IS 'One result row of memory.search_episodes';

-- episode_vector(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) RETURNS public.vector
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_vector public.vector;
BEGIN
    PERFORM memory._require_row('episodes', p_tenant_id, p_simulation_id, p_episode_id);
    SELECT e.embedding INTO v_vector FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.episode_key = pg_catalog.md5(p_episode_id)::uuid;
    RETURN v_vector;
END
$$;

ALTER FUNCTION memory.episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) OWNER TO memory_owner;

-- FUNCTION episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) IS 'The stored vector of one episode ("more like this" in one statement with memory.recall)';

-- FUNCTION episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text) TO memory_reader;

-- episodes(uuid, uuid, integer, text, text, integer, integer, timestamp with time zone, timestamp with time zone, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.episodes(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer DEFAULT NULL::integer, p_platform text DEFAULT NULL::text, p_action_type text DEFAULT NULL::text, p_round_from integer DEFAULT NULL::integer, p_round_to integer DEFAULT NULL::integer, p_from timestamp with time zone DEFAULT NULL::timestamp with time zone, p_to timestamp with time zone DEFAULT NULL::timestamp with time zone, p_limit integer DEFAULT 100, p_after text DEFAULT NULL::text) RETURNS TABLE(episode_id text, agent_id integer, agent_name text, platform text, round integer, action_type text, content text, metadata jsonb, occurred_at timestamp with time zone, source text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_round integer;
    v_time  timestamptz;
    v_id    text;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    IF p_after IS NOT NULL THEN
        SELECT COALESCE(e.round, 2147483647), COALESCE(e.occurred_at, 'infinity'), e.episode_id
          INTO v_round, v_time, v_id
          FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = pg_catalog.md5(p_after)::uuid;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'unknown episode % to page after', memory._quote(p_after)
                USING ERRCODE = 'no_data_found',
                      HINT = 'pass the episode_id of the last row of the previous page';
        END IF;
    END IF;
    RETURN QUERY SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round,
                        e.action_type, e.content, e.metadata, e.occurred_at, e.source
      FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND (p_agent_id IS NULL OR e.agent_id = p_agent_id)
       AND (p_platform IS NULL OR e.platform = p_platform)
       AND (p_action_type IS NULL OR pg_catalog.upper(e.action_type) = pg_catalog.upper(p_action_type))
       AND (p_round_from IS NULL OR e.round >= p_round_from)
       AND (p_round_to IS NULL OR e.round <= p_round_to)
       AND (p_from IS NULL OR e.occurred_at >= p_from)
       AND (p_to IS NULL OR e.occurred_at < p_to)
       AND (v_id IS NULL
            OR (COALESCE(e.round, 2147483647), COALESCE(e.occurred_at, 'infinity'), e.episode_id)
               > (v_round, v_time, v_id))
     ORDER BY COALESCE(e.round, 2147483647), COALESCE(e.occurred_at, 'infinity'), e.episode_id
     LIMIT memory._page_rows(p_limit, 100);
END
$$;

ALTER FUNCTION memory.episodes(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer, p_platform text, p_action_type text, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_limit integer, p_after text) OWNER TO memory_owner;

-- episodes; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.episodes ENABLE ROW LEVEL SECURITY;

-- episodes; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.episodes (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    episode_id text NOT NULL,
    episode_key uuid GENERATED ALWAYS AS ((md5(episode_id))::uuid) STORED NOT NULL,
    agent_id integer,
    agent_name text,
    platform text,
    round integer,
    action_type text NOT NULL,
    content text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    occurred_at timestamp with time zone,
    embedding public.vector(384),
    embedding_model text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    content_hash bytea,
    sim_no bigint NOT NULL,
    source text DEFAULT 'api'::text NOT NULL,
    CONSTRAINT episodes_embedding_model_check CHECK (((embedding IS NULL) = (embedding_model IS NULL))),
    CONSTRAINT episodes_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
)
WITH (toast_tuple_target='8160');

ALTER TABLE ONLY memory.episodes FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.episodes OWNER TO memory_owner;

-- FUNCTION episodes(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer, p_platform text, p_action_type text, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_limit integer, p_after text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.episodes(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer, p_platform text, p_action_type text, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_limit integer, p_after text) IS 'Episodes of a simulation filtered by agent, platform, action type, rounds and time, in order, a page at a time';

-- TABLE episodes; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.episodes IS 'Agent actions of a simulation, one row per action';

-- FUNCTION episodes(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer, p_platform text, p_action_type text, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_limit integer, p_after text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.episodes(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer, p_platform text, p_action_type text, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_limit integer, p_after text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.episodes(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer, p_platform text, p_action_type text, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_limit integer, p_after text) TO memory_reader;

-- TABLE episodes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.episodes TO memory_reader;
GRANT INSERT ON TABLE memory.episodes TO memory_writer;

-- episodes episodes_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.episodes
    ADD CONSTRAINT episodes_pkey PRIMARY KEY (tenant_id, simulation_id, episode_key);

-- episodes episodes_sim_no_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.episodes
    ADD CONSTRAINT episodes_sim_no_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no) REFERENCES memory.simulations(tenant_id, simulation_id, sim_no) ON DELETE CASCADE;

-- episodes history_of_deletes; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER history_of_deletes AFTER DELETE ON memory.episodes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('episodes');

-- episodes history_of_updates; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER history_of_updates AFTER UPDATE ON memory.episodes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('episodes');

-- episodes owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.episodes FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episodes owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.episodes FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episodes readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.episodes FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episodes words_of_deletes; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_deletes AFTER DELETE ON memory.episodes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('episodes');

-- episodes words_of_inserts; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_inserts AFTER INSERT ON memory.episodes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('episodes');

-- episodes words_of_updates; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_updates AFTER UPDATE ON memory.episodes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('episodes');

-- episodes writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.episodes FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episodes writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.episodes FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- episodes writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.episodes FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN episodes.action_type; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(action_type) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.agent_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(agent_id) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.agent_name; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(agent_name) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.content; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(content) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.content_hash; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(content_hash) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.embedding; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.embedding_model; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding_model) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.episode_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(episode_id) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.metadata; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(metadata) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.occurred_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(occurred_at) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.platform; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(platform) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.round; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(round) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.sim_no; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.episodes.sim_no IS 'The simulation''s opaque number (memory.simulations.sim_no), set by trigger episodes_take_the_simulation_number';

-- COLUMN episodes.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.episodes TO memory_writer;

-- COLUMN episodes.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.episodes TO memory_writer;

-- episodes_agent_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX episodes_agent_idx ON memory.episodes USING btree (tenant_id, simulation_id, agent_id);

-- episodes_round_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX episodes_round_idx ON memory.episodes USING btree (tenant_id, simulation_id, round);

-- episodes_simulation_stats; Type: STATISTICS; Schema: memory; Owner: memory_owner
CREATE STATISTICS memory.episodes_simulation_stats (dependencies) ON tenant_id, simulation_id FROM memory.episodes;

ALTER STATISTICS memory.episodes_simulation_stats OWNER TO memory_owner;

-- episodes_time_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX episodes_time_idx ON memory.episodes USING btree (tenant_id, simulation_id, occurred_at);

-- evidence(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) RETURNS TABLE(kind text, episode_id text, resolved boolean, list_position integer, matched text[], agent_id integer, agent_name text, platform text, round integer, action_type text, content text, occurred_at timestamp with time zone, found_by text[], score real)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_row('edges', p_tenant_id, p_simulation_id, p_edge_id);
    SELECT l.kind, l.episode_id, x.episode_id IS NOT NULL, l.position, l.matched,
           x.agent_id, x.agent_name, x.platform, x.round, x.action_type, x.content, x.occurred_at,
           l.found_by, l.score
      FROM memory.edge_evidence AS l
      LEFT JOIN memory.episodes AS x
        ON x.tenant_id = l.tenant_id AND x.simulation_id = l.simulation_id AND x.episode_key = l.episode_key
     WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
       AND l.edge_key = pg_catalog.md5(p_edge_id)::uuid
     ORDER BY l.kind DESC, l.position, x.occurred_at, l.episode_id;
$$;

ALTER FUNCTION memory.evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) OWNER TO memory_owner;

-- FUNCTION evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) IS 'The evidence behind a fact: its source episodes (resolved or not), then the actions supporting it within its validity window, found by names and/or meaning, with the names matched and the cosine';

-- FUNCTION evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) TO memory_reader;

-- facts(uuid, uuid, text, text, timestamp with time zone, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text DEFAULT NULL::text, p_state text DEFAULT 'current'::text, p_as_of timestamp with time zone DEFAULT NULL::timestamp with time zone, p_limit integer DEFAULT 100) RETURNS TABLE(edge_id text, type text, fact text, source_id text, source_name text, target_id text, target_name text, valid_at timestamp with time zone, invalid_at timestamp with time zone, learned_at timestamp with time zone, expired_at timestamp with time zone, state text, episodes text[])
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    v_as_of timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_key   uuid := pg_catalog.md5(p_node_id)::uuid;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id) WHERE p_node_id IS NULL;
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id) WHERE p_node_id IS NOT NULL;
    PERFORM memory._check_fact_state(p_state);

    -- the state is memory._fact_state's rule written out, so that the page is cut before any
    -- function is called per row (as in memory.neighbors)
    RETURN QUERY
    SELECT d.edge_id, d.type, d.fact, d.source_id, s.name, d.target_id, t.name, d.valid_at, d.invalid_at,
           d.created_at, d.expired_at, f.state, d.episodes
      FROM (SELECT e.edge, e.state, e.source_key, e.target_key, e.valid_at, e.edge_id
              FROM (SELECT e.edge, e.source_key, e.target_key, e.valid_at, e.edge_id,
                           CASE WHEN e.valid_at > v_as_of THEN 'future'
                                WHEN e.invalid_at <= v_as_of THEN 'ended'
                                WHEN e.expired_at <= v_as_of THEN 'expired'
                                ELSE 'current' END AS state
                      FROM (SELECT ROW(e.*)::memory.edges AS edge, e.source_key, e.target_key, e.valid_at, e.invalid_at,
                                   e.expired_at, e.edge_id
                              FROM memory.edges AS e
                             WHERE p_node_id IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                            UNION ALL
                            SELECT ROW(e.*)::memory.edges, e.source_key, e.target_key, e.valid_at, e.invalid_at,
                                   e.expired_at, e.edge_id
                              FROM memory.edges AS e
                             WHERE p_node_id IS NOT NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                               AND (e.source_key = v_key OR e.target_key = v_key)) AS e) AS e
             WHERE p_state = 'all' OR e.state = p_state
                OR (p_state = 'historical' AND e.state IN ('ended', 'expired'))
             ORDER BY e.valid_at DESC NULLS LAST, e.edge_id
             LIMIT memory._page_rows(p_limit, 100)) AS f
     CROSS JOIN LATERAL memory._edge_detail(f.edge) AS d
     -- each end's name by its key, one lookup a fact whatever the generic plan's estimate of
     -- the page's size (OFFSET 0: not pulled up into a join the planner could hash over every
     -- node of the simulation)
     CROSS JOIN LATERAL (SELECT n.name FROM memory.nodes AS n
                          WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                            AND n.node_key = f.source_key OFFSET 0) AS s
     CROSS JOIN LATERAL (SELECT n.name FROM memory.nodes AS n
                          WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                            AND n.node_key = f.target_key OFFSET 0) AS t
     ORDER BY f.valid_at DESC NULLS LAST, f.edge_id;
END
$$;

ALTER FUNCTION memory.facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_state text, p_as_of timestamp with time zone, p_limit integer) OWNER TO memory_owner;

-- FUNCTION facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_state text, p_as_of timestamp with time zone, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_state text, p_as_of timestamp with time zone, p_limit integer) IS 'Facts of a simulation or a node in a state (current, historical, future, all) at a world time, with both ends, validity and evidence ids';

-- FUNCTION facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_state text, p_as_of timestamp with time zone, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_state text, p_as_of timestamp with time zone, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_state text, p_as_of timestamp with time zone, p_limit integer) TO memory_reader;

-- get_edge(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) RETURNS SETOF memory.edge_detail
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_row('edges', p_tenant_id, p_simulation_id, p_edge_id);
    SELECT d.*
      FROM memory.edges AS e CROSS JOIN LATERAL memory._edge_detail(ROW(e.*)::memory.edges) AS d
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.edge_key = pg_catalog.md5(p_edge_id)::uuid;
$$;

ALTER FUNCTION memory.get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) OWNER TO memory_owner;

-- FUNCTION get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) IS 'One edge with every field MiroFish sends (fact_type, validity, created/expired, source episodes)';

-- FUNCTION get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text) TO memory_reader;

-- get_node(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text) RETURNS TABLE(node_id text, name text, type text, labels text[], summary text, attributes jsonb, embedding_model text, created_at timestamp with time zone, updated_at timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    SELECT n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.embedding_model,
           n.created_at, n.updated_at
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = pg_catalog.md5(p_node_id)::uuid;
$$;

ALTER FUNCTION memory.get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text) OWNER TO memory_owner;

-- FUNCTION get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text) IS 'One entity of a simulation by its upstream id (P0002 when unknown)';

-- FUNCTION get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text) TO memory_reader;

-- grant_tenant(name, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.grant_tenant(p_role name, p_tenant_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_role_oid oid;
    v_tenants  uuid[];
    v_oids     oid[];
BEGIN
    IF p_role IS NULL OR p_tenant_id IS NULL THEN
        RAISE EXCEPTION 'p_role and p_tenant_id must not be NULL (got %, %)', p_role, p_tenant_id
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name an existing role and tenant';
    END IF;
    SELECT r.oid INTO v_role_oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = p_role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % does not exist', p_role
            USING ERRCODE = 'undefined_object', HINT = 'create the role first (CREATE ROLE)';
    END IF;
    IF p_role = ANY (memory._group_roles()) THEN
        RAISE EXCEPTION 'role % is a shared group role: granting it tenant % would let all its members act for the tenant', p_role, p_tenant_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'grant the tenant to the application''s own role (CREATE ROLE app LOGIN IN ROLE memory_writer)';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id) THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'create it with memory.create_tenant()';
    END IF;
    SELECT pg_catalog.array_agg(g.tenant_id), pg_catalog.array_agg(g.role_oid) INTO v_tenants, v_oids
      FROM memory.tenant_grants AS g
     WHERE g.node_role_oids IS DISTINCT FROM '{}'::jsonb;
    PERFORM memory._end_grant(d.tenant_id, d.role_oid)
       FROM ROWS FROM (pg_catalog.unnest(v_tenants), pg_catalog.unnest(v_oids)) AS d (tenant_id, role_oid)
      WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.oid = d.role_oid);
    INSERT INTO memory.tenant_grants (tenant_id, role_oid, role_name, node_role_oids)
    VALUES (p_tenant_id, v_role_oid, p_role, memory._node_role_oids(v_role_oid))
    -- a grant revoked on a cluster (its map emptied, memory._end_grant) is renewed
    ON CONFLICT (tenant_id, role_oid) DO UPDATE SET node_role_oids = excluded.node_role_oids
     WHERE tenant_grants.node_role_oids = '{}'::jsonb;
END
$$;

ALTER FUNCTION memory.grant_tenant(p_role name, p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION grant_tenant(p_role name, p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.grant_tenant(p_role name, p_tenant_id uuid) IS 'Let a role (by OID; and the roles that inherit its privileges) act for a tenant; refuses the shared group roles; memory_admin only';

-- FUNCTION grant_tenant(p_role name, p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.grant_tenant(p_role name, p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.grant_tenant(p_role name, p_tenant_id uuid) TO memory_admin;

-- graph_edges(uuid, uuid, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.graph_edges(p_tenant_id uuid, p_simulation_id uuid, p_limit integer DEFAULT 1000, p_after text DEFAULT NULL::text) RETURNS SETOF memory.edge_detail
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_page('edges', p_tenant_id, p_simulation_id, p_after);  -- P0002 for an unknown p_after
    RETURN QUERY SELECT d.*
      FROM (SELECT ROW(e.*)::memory.edges AS e FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND (p_after IS NULL OR e.edge_id COLLATE "C" > p_after COLLATE "C")
             ORDER BY e.edge_id COLLATE "C"
             LIMIT memory._page_rows(p_limit, 1000)) AS page
     CROSS JOIN LATERAL memory._edge_detail(page.e) AS d
     ORDER BY d.edge_id COLLATE "C";
END
$$;

ALTER FUNCTION memory.graph_edges(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) OWNER TO memory_owner;

-- FUNCTION graph_edges(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.graph_edges(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) IS 'Every edge of a simulation with every field MiroFish sends, ordered by id, a page at a time (keyset after the last id; limit clamped to 1..1000)';

-- FUNCTION graph_edges(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.graph_edges(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.graph_edges(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) TO memory_reader;

-- graph_nodes(uuid, uuid, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.graph_nodes(p_tenant_id uuid, p_simulation_id uuid, p_limit integer DEFAULT 1000, p_after text DEFAULT NULL::text) RETURNS TABLE(node_id text, name text, type text, labels text[], summary text, attributes jsonb, source text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_page('nodes', p_tenant_id, p_simulation_id, p_after);  -- P0002 for an unknown p_after
    RETURN QUERY SELECT n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.source
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND (p_after IS NULL OR n.node_id COLLATE "C" > p_after COLLATE "C")
     ORDER BY n.node_id COLLATE "C"
     LIMIT memory._page_rows(p_limit, 1000);
END
$$;

ALTER FUNCTION memory.graph_nodes(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) OWNER TO memory_owner;

-- FUNCTION graph_nodes(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.graph_nodes(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) IS 'Every node of a simulation with all its fields, ordered by id, a page at a time (keyset after the last id; limit clamped to 1..1000)';

-- FUNCTION graph_nodes(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.graph_nodes(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.graph_nodes(p_tenant_id uuid, p_simulation_id uuid, p_limit integer, p_after text) TO memory_reader;

-- health(uuid, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.health(p_tenant_id uuid DEFAULT NULL::uuid, p_recall_sample integer DEFAULT 10) RETURNS TABLE(section text, tenant_id uuid, simulation_id uuid, agent_id integer, metric text, value double precision, ok boolean, detail jsonb)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $_$
DECLARE
    v_tenant uuid;
    v_schema name;
BEGIN
    IF p_recall_sample < 0 THEN
        RAISE EXCEPTION 'p_recall_sample must be 0 or more, not %', p_recall_sample
            USING ERRCODE = 'invalid_parameter_value', HINT = '0 skips the recall check; 10 is the default';
    END IF;
    PERFORM memory._check_limit('health_sample', 'p_recall_sample', p_recall_sample);
    PERFORM memory._refuse_on_cluster('health', 'memory.health_tenant(tenant_id) for each tenant');
    IF p_tenant_id IS NOT NULL THEN
        RETURN QUERY SELECT * FROM memory.health_tenant(p_tenant_id, p_recall_sample);
    ELSE
        FOR v_tenant IN SELECT t.tenant_id FROM memory.list_tenants() AS t ORDER BY t.tenant_id LOOP
            RETURN QUERY SELECT * FROM memory._health_tenant(v_tenant, COALESCE(p_recall_sample, 10));
        END LOOP;
    END IF;

    SELECT n.nspname INTO v_schema FROM pg_catalog.pg_extension AS x
      JOIN pg_catalog.pg_namespace AS n ON n.oid = x.extnamespace WHERE x.extname = 'pg_stat_statements';
    IF v_schema IS NULL THEN
        RETURN QUERY SELECT 'latency'::text, NULL::uuid, NULL::uuid, NULL::integer, 'pg_stat_statements'::text,
                            NULL::double precision, NULL::boolean, '{"installed": false}'::jsonb;
        RETURN;
    END IF;
    BEGIN
        RETURN QUERY EXECUTE pg_catalog.format($q$
            WITH s AS (
                SELECT pg_catalog.substring(p.query FROM 'memory\.([a-z_]+)\s*\(') AS fn, p.calls,
                       p.total_exec_time, p.stddev_exec_time, p.mean_exec_time, p.max_exec_time
                  FROM %I.pg_stat_statements AS p
                 WHERE p.dbid = (SELECT d.oid FROM pg_catalog.pg_database AS d WHERE d.datname = pg_catalog.current_database())
                   AND p.calls > 0 AND p.query ~ 'memory\.[a-z]'
            ), f AS (
                SELECT s.fn, pg_catalog.sum(s.calls) AS calls, pg_catalog.sum(s.total_exec_time) / pg_catalog.sum(s.calls) AS mean,
                       pg_catalog.max(s.max_exec_time) AS max,
                       pg_catalog.sum(s.calls * (s.stddev_exec_time ^ 2 + s.mean_exec_time ^ 2)) / pg_catalog.sum(s.calls) AS ex2
                  FROM s WHERE s.fn IS NOT NULL AND s.fn NOT LIKE '\_%%' GROUP BY s.fn
            )
            SELECT 'latency'::text, NULL::uuid, NULL::uuid, NULL::integer, f.fn::text, f.mean::double precision, NULL::boolean,
                   pg_catalog.jsonb_build_object(
                       'calls', f.calls, 'mean_ms', pg_catalog.round(f.mean::numeric, 3),
                       'stddev_ms', pg_catalog.round(pg_catalog.sqrt(GREATEST(f.ex2 - f.mean ^ 2, 0))::numeric, 3),
                       'max_ms', pg_catalog.round(f.max::numeric, 3),
                       'p95_ms_est', pg_catalog.round(LEAST(f.max, f.mean + 1.645 * pg_catalog.sqrt(GREATEST(f.ex2 - f.mean ^ 2, 0)))::numeric, 3),
                       'p99_ms_est', pg_catalog.round(LEAST(f.max, f.mean + 2.326 * pg_catalog.sqrt(GREATEST(f.ex2 - f.mean ^ 2, 0)))::numeric, 3))
              FROM f ORDER BY f.calls DESC, f.fn$q$, v_schema);
    EXCEPTION WHEN object_not_in_prerequisite_state OR insufficient_privilege OR undefined_table THEN
        RETURN QUERY SELECT 'latency'::text, NULL::uuid, NULL::uuid, NULL::integer, 'pg_stat_statements'::text,
                            NULL::double precision, NULL::boolean,
                            pg_catalog.jsonb_build_object('installed', true, 'error', SQLERRM);
    END;
END
$_$;

ALTER FUNCTION memory.health(p_tenant_id uuid, p_recall_sample integer) OWNER TO memory_owner;

-- FUNCTION health(p_tenant_id uuid, p_recall_sample integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.health(p_tenant_id uuid, p_recall_sample integer) IS 'Rows and bytes per tenant, simulation and agent, search index state (episodes'', facts'' and entities'' per simulation), sampled index recall (alert below 0.95), feed head, and latency from pg_stat_statements where installed';

-- FUNCTION health(p_tenant_id uuid, p_recall_sample integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.health(p_tenant_id uuid, p_recall_sample integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.health(p_tenant_id uuid, p_recall_sample integer) TO memory_reader;
GRANT ALL ON FUNCTION memory.health(p_tenant_id uuid, p_recall_sample integer) TO memory_admin;

-- health_tenant(uuid, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.health_tenant(p_tenant_id uuid, p_recall_sample integer DEFAULT 10) RETURNS TABLE(section text, tenant_id uuid, simulation_id uuid, agent_id integer, metric text, value double precision, ok boolean, detail jsonb)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant, or call memory.health() for every tenant');
    IF p_recall_sample < 0 THEN
        RAISE EXCEPTION 'p_recall_sample must be 0 or more, not %', p_recall_sample
            USING ERRCODE = 'invalid_parameter_value', HINT = '0 skips the recall check; 10 is the default';
    END IF;
    PERFORM memory._check_limit('health_sample', 'p_recall_sample', p_recall_sample);
    IF NOT pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'USAGE') THEN
        PERFORM memory._enter_tenant(p_tenant_id);
    END IF;
    RETURN QUERY SELECT * FROM memory._health_tenant(p_tenant_id, COALESCE(p_recall_sample, 10));
END
$$;

ALTER FUNCTION memory.health_tenant(p_tenant_id uuid, p_recall_sample integer) OWNER TO memory_owner;

-- FUNCTION health_tenant(p_tenant_id uuid, p_recall_sample integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.health_tenant(p_tenant_id uuid, p_recall_sample integer) IS 'One tenant''s sizes, search index state, sampled index recall and feed head (memory.health without latency); the per-tenant health a Citus cluster runs on the tenant''s worker';

-- FUNCTION health_tenant(p_tenant_id uuid, p_recall_sample integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.health_tenant(p_tenant_id uuid, p_recall_sample integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.health_tenant(p_tenant_id uuid, p_recall_sample integer) TO memory_reader;
GRANT ALL ON FUNCTION memory.health_tenant(p_tenant_id uuid, p_recall_sample integer) TO memory_admin;

-- history(uuid, uuid, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text) RETURNS TABLE(version integer, recorded_from timestamp with time zone, recorded_to timestamp with time zone, change text, attempt_id uuid, data jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $_$
DECLARE
    v_kind memory.record_kind;
    v_hidden text[] := ARRAY['embedding', 'summary_embedding', 'words', 'tenant_id', 'simulation_id'];
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_kind, 'p_kind', 'pass ''node'', ''edge'' or ''episode''');
    PERFORM memory._not_null(p_id, 'p_id', 'pass the upstream id of the row');
    SELECT k.* INTO v_kind FROM memory._record_kinds() AS k
     WHERE p_kind IN (k.kind, k.item) AND k.kind IN ('nodes', 'edges', 'episodes');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no history is kept for kind %', pg_catalog.quote_literal(memory._quote(p_kind))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''node'', ''edge'' or ''episode''';
    END IF;

    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT (pg_catalog.row_number() OVER (ORDER BY v.recorded_from, v.seq NULLS LAST))::integer,'
        '       v.recorded_from, v.recorded_to, v.change, v.attempt_id, v.data'
        '  FROM (SELECT h.history_id AS seq, h.recorded_from, h.recorded_to, h.change, h.attempt_id, h.data - $4 AS data'
        '          FROM memory.row_history AS h'
        '         WHERE h.tenant_id = $1 AND h.simulation_id = $2 AND h.kind = %L AND h.row_id = $3'
        '        UNION ALL'
        '        SELECT NULL, r.updated_at, NULL::timestamptz, %L::text, NULL::uuid, pg_catalog.to_jsonb(r) - $4'
        '          FROM %s AS r'
        '         WHERE r.tenant_id = $1 AND r.simulation_id = $2 AND r.%I = $3) AS v'
        ' ORDER BY 1',
        v_kind.kind, 'current', v_kind.live, v_kind.id_column)
    USING p_tenant_id, p_simulation_id, p_id, v_hidden;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no % % in simulation %, now or before', v_kind.item, memory._quote(p_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'ids are the upstream ids (MiroFish uuids, episode ids)';
    END IF;
END
$_$;

ALTER FUNCTION memory.history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text) OWNER TO memory_owner;

-- FUNCTION history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text) IS 'The versions of a node, edge or episode across imports and upserts, with when each was the memory''s word';

-- FUNCTION history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text) TO memory_reader;

-- import_attempts(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.import_attempts(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(attempt_id uuid, state text, declared jsonb, staged jsonb, result jsonb, skip_dangling boolean, error text, started_at timestamp with time zone, finished_at timestamp with time zone, seconds double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    IF NOT EXISTS (SELECT 1 FROM memory.simulations AS s
                    WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id) THEN
        RAISE EXCEPTION 'unknown simulation % for tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'begin an import with memory.begin_import()';
    END IF;
    RETURN QUERY
    SELECT a.attempt_id,
           CASE WHEN a.state = 'loading' AND NOT memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start) THEN 'failed'
                ELSE a.state END,
           a.declared,
           CASE WHEN a.state = 'loading' THEN pg_catalog.jsonb_build_object(
               'nodes', (SELECT pg_catalog.count(*) FROM memory.staged_nodes AS s
                          WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id),
               'edges', (SELECT pg_catalog.count(*) FROM memory.staged_edges AS s
                          WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id),
               'episodes', (SELECT pg_catalog.count(*) FROM memory.staged_episodes AS s
                             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id),
               'profiles', (SELECT pg_catalog.count(*) FROM memory.staged_profiles AS s
                             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id)) END,
           a.result,
           a.skip_dangling,
           CASE WHEN a.state = 'loading' AND NOT memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start)
                THEN 'the loading session ended before commit (importer killed, connection lost or server restarted)'
                ELSE a.error END,
           a.started_at,
           a.finished_at,
           EXTRACT(epoch FROM COALESCE(a.finished_at, pg_catalog.clock_timestamp()) - a.started_at)::double precision
      FROM memory.import_attempts AS a
     WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id
     ORDER BY a.started_at DESC;
END
$$;

ALTER FUNCTION memory.import_attempts(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- import_attempts; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.import_attempts ENABLE ROW LEVEL SECURITY;

-- import_attempts; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.import_attempts (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    state text DEFAULT 'loading'::text NOT NULL,
    lock_key integer NOT NULL,
    skip_dangling boolean DEFAULT false NOT NULL,
    declared jsonb,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    result jsonb,
    error text,
    started_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    finished_at timestamp with time zone,
    backend_pid integer,
    backend_start timestamp with time zone,
    scope jsonb,
    CONSTRAINT import_attempts_scope_check CHECK (((scope IS NULL) OR (jsonb_typeof(scope) = 'object'::text))),
    CONSTRAINT import_attempts_state_check CHECK ((state = ANY (ARRAY['loading'::text, 'committed'::text, 'failed'::text, 'aborted'::text])))
);

ALTER TABLE ONLY memory.import_attempts FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.import_attempts OWNER TO memory_owner;

-- FUNCTION import_attempts(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.import_attempts(p_tenant_id uuid, p_simulation_id uuid) IS 'Import attempts of a simulation, newest first: state, counts, result, timings, error';

-- TABLE import_attempts; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.import_attempts IS 'One row per staged import: state, declared and staged counts, result, timings, error';

-- FUNCTION import_attempts(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.import_attempts(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.import_attempts(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;

-- TABLE import_attempts; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.import_attempts TO memory_reader;
GRANT INSERT ON TABLE memory.import_attempts TO memory_writer;

-- import_attempts import_attempts_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.import_attempts
    ADD CONSTRAINT import_attempts_pkey PRIMARY KEY (tenant_id, attempt_id);

-- import_attempts import_attempts_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.import_attempts
    ADD CONSTRAINT import_attempts_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- import_attempts owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.import_attempts FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- import_attempts owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.import_attempts FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- import_attempts readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.import_attempts FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- import_attempts writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.import_attempts FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- import_attempts writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.import_attempts FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- import_attempts writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.import_attempts FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN import_attempts.backend_pid; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.import_attempts.backend_pid IS 'The process id of the backend (session) that began the attempt (pg_backend_pid())';

-- COLUMN import_attempts.backend_start; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.import_attempts.backend_start IS 'When that backend started (pg_stat_activity.backend_start); NULL where the beginning role could not see it';

-- COLUMN import_attempts.error; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(error) ON TABLE memory.import_attempts TO memory_writer;

-- COLUMN import_attempts.finished_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(finished_at) ON TABLE memory.import_attempts TO memory_writer;

-- COLUMN import_attempts.result; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(result) ON TABLE memory.import_attempts TO memory_writer;

-- COLUMN import_attempts.state; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(state) ON TABLE memory.import_attempts TO memory_writer;

-- import_attempts_simulation_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX import_attempts_simulation_idx ON memory.import_attempts USING btree (tenant_id, simulation_id, started_at);

-- link_evidence(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.link_evidence(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(sources bigint, mentions bigint, added bigint, removed bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    -- one writer of a simulation's evidence at a time, as a promote (which holds this lock)
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    RETURN QUERY SELECT * FROM memory._link_evidence(p_tenant_id, p_simulation_id);
END
$$;

ALTER FUNCTION memory.link_evidence(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION link_evidence(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.link_evidence(p_tenant_id uuid, p_simulation_id uuid) IS 'Recompute a simulation''s edge evidence after upserts (imports do it themselves)';

-- FUNCTION link_evidence(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.link_evidence(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.link_evidence(p_tenant_id uuid, p_simulation_id uuid) TO memory_writer;

-- list_models(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.list_models() RETURNS TABLE(model text, dimensions integer, normalized boolean, query_prefix text, passage_prefix text, package text, languages text[], note text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT m.model, m.dimensions, m.normalized, m.query_prefix, m.passage_prefix, m.package, m.languages, m.note
      FROM memory.embedding_models AS m
     ORDER BY m.model
$$;

ALTER FUNCTION memory.list_models() OWNER TO memory_owner;

-- FUNCTION list_models(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.list_models() IS 'The embedding models the installation knows: dimensions, normalisation, prefixes, package, languages';

-- FUNCTION list_models(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.list_models() FROM PUBLIC;
GRANT ALL ON FUNCTION memory.list_models() TO memory_reader;
GRANT ALL ON FUNCTION memory.list_models() TO memory_admin;

-- list_simulations(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.list_simulations(p_tenant_id uuid) RETURNS TABLE(simulation_id uuid, name text, mirofish_id text, published boolean, created_at timestamp with time zone, updated_at timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._enter_tenant(p_tenant_id);
    SELECT s.simulation_id, s.name, s.metadata ->> 'simulation_id', s.published,
           s.created_at, s.updated_at
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id
     ORDER BY s.name NULLS LAST, s.created_at;
$$;

ALTER FUNCTION memory.list_simulations(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION list_simulations(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.list_simulations(p_tenant_id uuid) IS 'The simulations of a tenant with their names, MiroFish ids and whether an import committed';

-- FUNCTION list_simulations(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.list_simulations(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.list_simulations(p_tenant_id uuid) TO memory_reader;

-- list_tenants(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.list_tenants() RETURNS TABLE(tenant_id uuid, name text, created_at timestamp with time zone)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_tenant   uuid;
    v_previous text := pg_catalog.current_setting('memory.tenant_id', true);
BEGIN
    IF pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'USAGE') THEN
        RETURN QUERY SELECT t.tenant_id, t.name, t.created_at FROM memory.tenants AS t ORDER BY t.name;
        RETURN;
    END IF;
    FOR v_tenant IN SELECT DISTINCT g.tenant_id FROM memory.tenant_grants AS g LOOP
        CONTINUE WHEN NOT memory._holds_grant(v_tenant);
        PERFORM pg_catalog.set_config('memory.tenant_id', v_tenant::text, true);
        RETURN QUERY SELECT t.tenant_id, t.name, t.created_at FROM memory.tenants AS t
                      WHERE t.tenant_id = v_tenant;
    END LOOP;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$$;

ALTER FUNCTION memory.list_tenants() OWNER TO memory_owner;

-- FUNCTION list_tenants(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.list_tenants() IS 'The tenants the caller may act for (every tenant for memory_admin), with their names';

-- FUNCTION list_tenants(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.list_tenants() FROM PUBLIC;
GRANT ALL ON FUNCTION memory.list_tenants() TO memory_reader;
GRANT ALL ON FUNCTION memory.list_tenants() TO memory_admin;

-- match_entities(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.match_entities(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer DEFAULT 10) RETURNS TABLE(node_id text, name text, type text, similarity real)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._words_prepare(p_text, 'p_text');
    SELECT n.node_id, n.name, n.type, c.similarity
      FROM memory._name_candidates(p_tenant_id, p_simulation_id, p_text, memory._page_rows(p_limit, 10)) AS c
      JOIN memory.nodes AS n
        ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = c.node_key
     ORDER BY c.similarity DESC, n.node_id
     LIMIT memory._page_rows(p_limit, 10);
$$;

ALTER FUNCTION memory.match_entities(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) OWNER TO memory_owner;

-- FUNCTION match_entities(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.match_entities(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) IS 'Entities whose names a text names or nearly names (trigram word similarity >= 0.5, CJK as bigrams), best first; limit clamped to 1..1000';

-- FUNCTION match_entities(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.match_entities(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.match_entities(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer) TO memory_reader;

-- model_of(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.model_of(p_tenant_id uuid, p_simulation_id uuid DEFAULT NULL::uuid) RETURNS TABLE(model text, named_by text, dimensions integer, normalized boolean, query_prefix text, passage_prefix text, package text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._enter_tenant(p_tenant_id);
    -- no simulation of id NULL exists: memory._simulation_model answers as for a new one
    SELECT m.model, s.named_by, m.dimensions, m.normalized, m.query_prefix, m.passage_prefix, m.package
      FROM memory._simulation_model(p_tenant_id, p_simulation_id) AS s
      JOIN memory.embedding_models AS m ON m.model = s.model;
$$;

ALTER FUNCTION memory.model_of(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION model_of(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.model_of(p_tenant_id uuid, p_simulation_id uuid) IS 'The embedding model of a tenant''s new simulations or of a simulation''s vectors, what names it, and how to embed for it';

-- FUNCTION model_of(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.model_of(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.model_of(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;

-- neighbors(uuid, uuid, text, integer, text[], text, timestamp with time zone, timestamp with time zone, boolean, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.neighbors(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_depth integer DEFAULT 1, p_edge_types text[] DEFAULT NULL::text[], p_direction text DEFAULT 'both'::text, p_as_of timestamp with time zone DEFAULT NULL::timestamp with time zone, p_known_at timestamp with time zone DEFAULT NULL::timestamp with time zone, p_include_ended boolean DEFAULT false, p_limit integer DEFAULT NULL::integer) RETURNS TABLE(node_id text, name text, type text, depth integer, path text[], edge_id text, edge_type text, fact text, valid_at timestamp with time zone, invalid_at timestamp with time zone, state text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'force_generic_plan'
    SET enable_nestloop TO 'off'
    AS $$
DECLARE
    v_depth  integer := LEAST(GREATEST(COALESCE(p_depth, 1), 1), 20);
    v_start  uuid := pg_catalog.md5(p_node_id)::uuid;
    v_out    boolean;
    v_in     boolean;
    v_as_of  timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_known  timestamptz := CASE WHEN p_known_at < pg_catalog.now() THEN p_known_at END;
    v_all    boolean := COALESCE(p_include_ended, false);
    v_limit  integer := CASE WHEN p_limit IS NOT NULL THEN GREATEST(p_limit, 1) END;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_limit('list_elements', 'p_edge_types', pg_catalog.cardinality(p_edge_types));
    PERFORM memory._not_null(p_node_id, 'p_node_id', 'pass the upstream id of the start node');
    PERFORM memory._not_null(p_direction, 'p_direction', 'pass ''out'', ''in'' or ''both''');
    IF p_direction NOT IN ('out', 'in', 'both') THEN
        RAISE EXCEPTION 'unknown direction %', pg_catalog.quote_literal(memory._quote(p_direction))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''out'', ''in'' or ''both''';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.nodes AS n
                    WHERE v_known IS NULL AND n.tenant_id = p_tenant_id
                      AND n.simulation_id = p_simulation_id AND n.node_key = v_start
                   UNION ALL
                   SELECT 1 FROM memory._known(NULL::memory.nodes, p_tenant_id, p_simulation_id, v_known) AS n
                    WHERE v_known IS NOT NULL AND n.node_key = v_start) THEN
        RAISE EXCEPTION 'unknown node % in simulation %', memory._quote(p_node_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'list the simulation''s nodes with memory.nodes_by_type()';
    END IF;
    v_out := p_direction IN ('out', 'both');
    v_in := p_direction IN ('in', 'both');

    RETURN QUERY
    WITH RECURSIVE
    -- the edges the walk may follow, now or as known at v_known, with whether each is current
    edges_at AS NOT MATERIALIZED (
        SELECT e.edge_key, e.source_key, e.target_key, e.type, e.valid_at, e.invalid_at, e.expired_at
          FROM memory.edges AS e
         WHERE v_known IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
        UNION ALL
        SELECT e.edge_key, e.source_key, e.target_key, e.type, e.valid_at, e.invalid_at, e.expired_at
          FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, v_known) AS e
         WHERE v_known IS NOT NULL
    ),
    walk (level, found, parents, edges, visited) AS (
        SELECT 0, ARRAY[v_start], NULL::uuid[], NULL::uuid[], ARRAY[v_start]
        UNION ALL
        SELECT w.level + 1, step.found, step.parents, step.edges, w.visited || step.found
          FROM walk AS w
          CROSS JOIN LATERAL (
              SELECT pg_catalog.array_agg(d.next_key) AS found,
                     pg_catalog.array_agg(d.pick[3]) AS parents,
                     pg_catalog.array_agg(d.pick[2]) AS edges
                FROM (SELECT x.next_key,
                             -- one edge per new node: a current one before any other, then
                             -- the least edge key (then parent key); the first element ranks
                             pg_catalog.min(ARRAY[x.rank, x.edge_key, x.from_key]) AS pick
                        FROM (SELECT e.target_key AS next_key, e.source_key AS from_key, e.edge_key,
                                     e.valid_at, e.invalid_at, e.expired_at
                                FROM edges_at AS e
                               WHERE v_out
                                 AND e.source_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))
                              UNION ALL
                              SELECT e.source_key, e.target_key, e.edge_key, e.valid_at, e.invalid_at, e.expired_at
                                FROM edges_at AS e
                               WHERE v_in
                                 AND e.target_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))) AS y
                       CROSS JOIN LATERAL (
                             SELECT y.next_key, y.from_key, y.edge_key,
                                    CASE WHEN (y.valid_at IS NULL OR y.valid_at <= v_as_of)
                                               AND (y.invalid_at IS NULL OR y.invalid_at > v_as_of)
                                               AND (y.expired_at IS NULL OR y.expired_at > v_as_of)
                                         THEN '00000000-0000-0000-0000-000000000000'::uuid
                                         ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid END AS rank) AS x
                       WHERE (v_all OR x.rank = '00000000-0000-0000-0000-000000000000'::uuid)
                         AND NOT EXISTS (SELECT FROM pg_catalog.unnest(w.visited) AS v(node_key)
                                          WHERE v.node_key = x.next_key)
                       GROUP BY x.next_key) AS d
          ) AS step
         WHERE w.level < v_depth
           -- the visited set holds the start: p_limit nodes found means one more
           AND (v_limit IS NULL OR pg_catalog.cardinality(w.visited) <= v_limit)
           AND step.found IS NOT NULL
    ),
    found AS MATERIALIZED (
        SELECT w.level, f.node_key, f.parent_key, f.edge_key
          FROM walk AS w
         CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(w.found), pg_catalog.unnest(w.parents),
                                       pg_catalog.unnest(w.edges)) AS f(node_key, parent_key, edge_key)
         WHERE w.level > 0
    ),
    -- the nodes found, by one scan of the primary key (all their keys: the last visited set)
    named AS MATERIALIZED (
        SELECT f.level, f.node_key, f.parent_key, f.edge_key, n.node_id, n.name, n.type
          FROM found AS f
          JOIN (SELECT n.node_key, n.node_id, n.name, n.type FROM memory.nodes AS n
                 WHERE v_known IS NULL AND n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                UNION ALL
                SELECT n.node_key, n.node_id, n.name, n.type
                  FROM memory._known(NULL::memory.nodes, p_tenant_id, p_simulation_id, v_known) AS n
                 WHERE v_known IS NOT NULL) AS n ON n.node_key = f.node_key
         WHERE n.node_key = ANY ((SELECT w.visited FROM walk AS w
                                   ORDER BY w.level DESC LIMIT 1)::uuid[])
    ),
    -- each path is its parent's path and the node's id, one level per iteration
    paths (level, node_key, path, node_id, name, type, edge_key) AS (
        SELECT 0, v_start, ARRAY[p_node_id], NULL::text, NULL::text, NULL::text, NULL::uuid
        UNION ALL
        SELECT f.level, f.node_key, p.path || f.node_id, f.node_id, f.name, f.type, f.edge_key
          FROM paths AS p
          JOIN named AS f ON f.level = p.level + 1 AND f.parent_key = p.node_key
    ),
    -- the edges that reached them, likewise by one scan of the primary key
    reached AS MATERIALIZED (
        SELECT e.edge_key, e.edge_id, e.type, e.fact, e.valid_at, e.invalid_at, e.expired_at
          FROM (SELECT e.edge_key, e.edge_id, e.type, e.fact, e.valid_at, e.invalid_at, e.expired_at
                  FROM memory.edges AS e
                 WHERE v_known IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                UNION ALL
                SELECT e.edge_key, e.edge_id, e.type, e.fact, e.valid_at, e.invalid_at, e.expired_at
                  FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, v_known) AS e
                 WHERE v_known IS NOT NULL) AS e
         WHERE e.edge_key = ANY ((SELECT pg_catalog.array_agg(f.edge_key)
                                    FROM found AS f)::uuid[])
    )
    -- the state is memory._fact_state's rule written out (a call per row, whose pinned
    -- search_path keeps it from being inlined, cost more than the walk);
    -- sql/tests/023_time.sql holds the two to the same answers
    SELECT p.node_id, p.name, p.type, p.level, p.path, e.edge_id, e.type, e.fact, e.valid_at, e.invalid_at,
           CASE WHEN e.valid_at > v_as_of THEN 'future'
                WHEN e.invalid_at <= v_as_of THEN 'ended'
                WHEN e.expired_at <= v_as_of THEN 'expired'
                ELSE 'current' END
      FROM paths AS p
      JOIN reached AS e ON e.edge_key = p.edge_key
     WHERE p.level > 0
     ORDER BY p.level, p.node_id
     LIMIT v_limit;
END
$$;

ALTER FUNCTION memory.neighbors(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_depth integer, p_edge_types text[], p_direction text, p_as_of timestamp with time zone, p_known_at timestamp with time zone, p_include_ended boolean, p_limit integer) OWNER TO memory_owner;

-- FUNCTION neighbors(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_depth integer, p_edge_types text[], p_direction text, p_as_of timestamp with time zone, p_known_at timestamp with time zone, p_include_ended boolean, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.neighbors(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_depth integer, p_edge_types text[], p_direction text, p_as_of timestamp with time zone, p_known_at timestamp with time zone, p_include_ended boolean, p_limit integer) IS 'Breadth-first neighbourhood of a node along the facts current at a world time, as the memory held them at a record time: each node once at its least depth (1..20), at most p_limit nodes (nearest first), with path, edge and its state';

-- FUNCTION neighbors(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_depth integer, p_edge_types text[], p_direction text, p_as_of timestamp with time zone, p_known_at timestamp with time zone, p_include_ended boolean, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.neighbors(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_depth integer, p_edge_types text[], p_direction text, p_as_of timestamp with time zone, p_known_at timestamp with time zone, p_include_ended boolean, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.neighbors(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_depth integer, p_edge_types text[], p_direction text, p_as_of timestamp with time zone, p_known_at timestamp with time zone, p_include_ended boolean, p_limit integer) TO memory_reader;

-- nodes; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.nodes ENABLE ROW LEVEL SECURITY;

-- nodes; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.nodes (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    node_id text NOT NULL,
    node_key uuid GENERATED ALWAYS AS ((md5(node_id))::uuid) STORED NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    labels text[] DEFAULT '{}'::text[] NOT NULL,
    summary text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    embedding public.vector(384),
    embedding_model text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    content_hash bytea,
    source text DEFAULT 'api'::text NOT NULL,
    summary_embedding public.vector(384),
    sim_no bigint NOT NULL,
    CONSTRAINT nodes_embedding_model_check CHECK (((embedding IS NULL) = (embedding_model IS NULL))),
    CONSTRAINT nodes_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text]))),
    CONSTRAINT nodes_type_length_check CHECK ((char_length(type) <= memory._label_max()))
)
WITH (toast_tuple_target='8160');

ALTER TABLE ONLY memory.nodes FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.nodes OWNER TO memory_owner;

-- TABLE nodes; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.nodes IS 'Knowledge-graph entities of a simulation (upstream ids)';

-- TABLE nodes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.nodes TO memory_reader;
GRANT INSERT ON TABLE memory.nodes TO memory_writer;

-- nodes history_of_deletes; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER history_of_deletes AFTER DELETE ON memory.nodes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('nodes');

-- nodes history_of_updates; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER history_of_updates AFTER UPDATE ON memory.nodes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('nodes');

-- nodes nodes_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.nodes
    ADD CONSTRAINT nodes_pkey PRIMARY KEY (tenant_id, simulation_id, node_key);

-- nodes nodes_sim_no_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.nodes
    ADD CONSTRAINT nodes_sim_no_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no) REFERENCES memory.simulations(tenant_id, simulation_id, sim_no) ON DELETE CASCADE;

-- nodes owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.nodes FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- nodes owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.nodes FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- nodes readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.nodes FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- nodes words_of_deletes; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_deletes AFTER DELETE ON memory.nodes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('nodes');

-- nodes words_of_inserts; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_inserts AFTER INSERT ON memory.nodes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('nodes');

-- nodes words_of_updates; Type: TRIGGER; Schema: memory; Owner: memory_owner
CREATE TRIGGER words_of_updates AFTER UPDATE ON memory.nodes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words('nodes');

-- nodes writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.nodes FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- nodes writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.nodes FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- nodes writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.nodes FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN nodes.attributes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(attributes) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.content_hash; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(content_hash) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.embedding; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.embedding_model; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding_model) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.labels; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(labels) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.name; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(name) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.node_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(node_id) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.sim_no; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.nodes.sim_no IS 'The simulation''s opaque number (memory.simulations.sim_no), written by the merge, held by nodes_sim_no_fkey';

-- COLUMN nodes.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.summary; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(summary) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.summary_embedding; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.nodes.summary_embedding IS 'The vector of the node''s summary (the embedding column holds that of "{type}: {name}")';

-- COLUMN nodes.summary_embedding; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(summary_embedding) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.type; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(type) ON TABLE memory.nodes TO memory_writer;

-- COLUMN nodes.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.nodes TO memory_writer;

-- nodes_by_type(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.nodes_by_type(p_tenant_id uuid, p_simulation_id uuid, p_type text, p_limit integer DEFAULT 100) RETURNS TABLE(node_id text, name text, type text, labels text[], summary text, attributes jsonb)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT n.node_id, n.name, n.type, n.labels, n.summary, n.attributes
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id
       AND n.simulation_id = p_simulation_id
       AND (p_type IS NULL OR n.type = p_type)
     ORDER BY n.type, n.name, n.node_id
     LIMIT memory._page_rows(p_limit, 100);
$$;

ALTER FUNCTION memory.nodes_by_type(p_tenant_id uuid, p_simulation_id uuid, p_type text, p_limit integer) OWNER TO memory_owner;

-- FUNCTION nodes_by_type(p_tenant_id uuid, p_simulation_id uuid, p_type text, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.nodes_by_type(p_tenant_id uuid, p_simulation_id uuid, p_type text, p_limit integer) IS 'Entities of a simulation by type (NULL: all), ordered by name; limit clamped to 1..1000';

-- FUNCTION nodes_by_type(p_tenant_id uuid, p_simulation_id uuid, p_type text, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.nodes_by_type(p_tenant_id uuid, p_simulation_id uuid, p_type text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.nodes_by_type(p_tenant_id uuid, p_simulation_id uuid, p_type text, p_limit integer) TO memory_reader;

-- nodes_named(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text) RETURNS TABLE(node_id text, name text, type text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    SELECT n.node_id, n.name, n.type::text
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND pg_catalog.lower(n.name) = pg_catalog.lower(p_name)
     ORDER BY n.type, n.node_id
     LIMIT 100;
$$;

ALTER FUNCTION memory.nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text) OWNER TO memory_owner;

-- FUNCTION nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text) IS 'Entities of a simulation with a name, in any case (at most 100)';

-- FUNCTION nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text) TO memory_reader;

-- nodes_simulation_stats; Type: STATISTICS; Schema: memory; Owner: memory_owner
CREATE STATISTICS memory.nodes_simulation_stats (dependencies) ON tenant_id, simulation_id FROM memory.nodes;

ALTER STATISTICS memory.nodes_simulation_stats OWNER TO memory_owner;

-- nodes_type_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX nodes_type_idx ON memory.nodes USING btree (tenant_id, simulation_id, type);

-- nodes_without_summary_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX nodes_without_summary_idx ON memory.nodes USING btree (tenant_id, simulation_id) WHERE ((summary_embedding IS NULL) AND (embedding IS NOT NULL));

-- open_staging(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.open_staging() RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_kind memory.record_kind;
    v_cols text;
BEGIN
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        CONTINUE WHEN pg_catalog.to_regclass('pg_temp.stage_' || v_kind.kind) IS NOT NULL;
        SELECT pg_catalog.string_agg(pg_catalog.format('%I %s', a.attname,
                   pg_catalog.format_type(a.atttypid, a.atttypmod))
                   || CASE WHEN a.attgenerated = 's' THEN pg_catalog.format(' GENERATED ALWAYS AS (%s) STORED',
                                                         pg_catalog.pg_get_expr(d.adbin, d.adrelid)) ELSE '' END,
                   ', ' ORDER BY a.attnum)
          INTO v_cols
          FROM pg_catalog.pg_attribute AS a
          LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE a.attrelid = v_kind.staged AND a.attnum > 0 AND NOT a.attisdropped
           AND a.attname NOT IN ('tenant_id', 'attempt_id');
        EXECUTE pg_catalog.format('CREATE TEMPORARY TABLE %I (%s) ON COMMIT DELETE ROWS',
                                  'stage_' || v_kind.kind, v_cols);
    END LOOP;
END
$$;

ALTER FUNCTION memory.open_staging() OWNER TO memory_owner;

-- FUNCTION open_staging(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.open_staging() IS 'Create the session''s temporary staging tables (pg_temp.stage_*) that bulk loaders COPY into';

-- FUNCTION open_staging(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.open_staging() FROM PUBLIC;
GRANT ALL ON FUNCTION memory.open_staging() TO memory_writer;

-- panorama(uuid, uuid, text, public.vector, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.panorama(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_limit integer DEFAULT 30, p_model text DEFAULT NULL::text) RETURNS TABLE(kind text, id text, text text, state text, valid_at timestamp with time zone, invalid_at timestamp with time zone, score double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_limit integer := LEAST(GREATEST(COALESCE(p_limit, 30), 1), 100);
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    RETURN QUERY
    WITH found AS MATERIALIZED (
        SELECT r.kind, r.id, r.text, r.score
          FROM memory.recall(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                             p_query_text => p_query_text, p_query_vector => p_query_vector,
                             p_top_k => v_limit,
                             p_options => pg_catalog.jsonb_build_object(
                                 'arms', '["facts", "entities", "words", "graph"]'::jsonb,
                                 'model', p_model)) AS r
         WHERE r.kind IN ('entity', 'fact')
    ), rows AS (
        SELECT 'entity' AS kind, f.id, f.text, NULL::text AS state, NULL::timestamptz AS valid_at,
               NULL::timestamptz AS invalid_at, f.score
          FROM found AS f WHERE f.kind = 'entity'
        UNION ALL
        SELECT 'fact', x.edge_id, x.fact, x.state, x.valid_at, x.invalid_at,
               (SELECT f.score FROM found AS f WHERE f.kind = 'fact' AND f.id = x.edge_id)
          FROM found AS f
         CROSS JOIN LATERAL memory.facts(p_tenant_id => p_tenant_id,
                                         p_simulation_id => p_simulation_id, p_node_id => f.id,
                                         p_state => 'all', p_as_of => NULL, p_limit => 100) AS x
         WHERE f.kind = 'entity'
        UNION ALL
        -- a fact recall found, from its own row (read among its source's facts, it was lost
        -- when the source had more than 100 newer ones); its state at this moment
        SELECT 'fact', e.edge_id, e.fact, memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, pg_catalog.now()),
               e.valid_at, e.invalid_at, f.score
          FROM found AS f
          JOIN memory.edges AS e ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.edge_key = pg_catalog.md5(f.id)::uuid
         WHERE f.kind = 'fact'
    )
    SELECT DISTINCT ON (r.kind, r.id) r.kind, r.id, r.text, r.state, r.valid_at, r.invalid_at, r.score
      FROM rows AS r
     ORDER BY r.kind, r.id, r.score DESC NULLS LAST;
END
$$;

ALTER FUNCTION memory.panorama(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_limit integer, p_model text) OWNER TO memory_owner;

-- FUNCTION panorama(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_limit integer, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.panorama(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_limit integer, p_model text) IS 'Everything about a question: the entities and facts recall finds and every fact of those entities, current and historical';

-- FUNCTION panorama(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_limit integer, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.panorama(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_limit integer, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.panorama(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_limit integer, p_model text) TO memory_reader;

-- paths(uuid, uuid, text, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.paths(p_tenant_id uuid, p_simulation_id uuid, p_from text, p_to text, p_max_depth integer DEFAULT 4) RETURNS TABLE(path_no integer, length integer, node_ids text[], names text[], edge_ids text[], facts text[])
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    SET enable_nestloop TO 'off'
    AS $$
DECLARE
    v_depth  integer := LEAST(GREATEST(COALESCE(p_max_depth, 4), 1), 6);
    v_now    timestamptz := pg_catalog.now();
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_to, 'p_to', 'pass the upstream id of the other entity');
    IF p_from = p_to THEN
        RAISE EXCEPTION 'p_from and p_to are the same entity %', memory._quote(p_from)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass two different entities';
    END IF;
    RETURN QUERY
    WITH RECURSIVE d_from AS MATERIALIZED (
        SELECT p_from AS node_id, 0 AS depth
        UNION ALL SELECT n.node_id, n.depth FROM memory.neighbors(p_tenant_id, p_simulation_id, p_from, v_depth) AS n
    ), d_to AS MATERIALIZED (
        SELECT p_to AS node_id, 0 AS depth
        UNION ALL SELECT n.node_id, n.depth FROM memory.neighbors(p_tenant_id, p_simulation_id, p_to, v_depth) AS n
    ), both_ways AS MATERIALIZED (
        SELECT f.node_id, f.depth AS d_from, t.depth AS d_to, f.depth + t.depth AS total
          FROM d_from AS f JOIN d_to AS t ON t.node_id = f.node_id
    ), on_path AS MATERIALIZED (
        SELECT b.node_id, b.d_from, pg_catalog.md5(b.node_id)::uuid AS node_key
          FROM both_ways AS b
         WHERE b.total = (SELECT pg_catalog.min(x.total) FROM both_ways AS x)
           AND b.total <= v_depth
    ), steps AS MATERIALIZED (
        -- the current facts between consecutive layers, either way along the edge
        SELECT a.node_id AS from_id, b.node_id AS to_id, b.d_from, e.edge_id, e.fact
          FROM on_path AS a
          JOIN on_path AS b ON b.d_from = a.d_from + 1
          JOIN memory.edges AS e
            ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND ((e.source_key = a.node_key AND e.target_key = b.node_key)
             OR (e.source_key = b.node_key AND e.target_key = a.node_key))
         WHERE (e.valid_at IS NULL OR e.valid_at <= v_now) AND (e.invalid_at IS NULL OR e.invalid_at > v_now)
           AND (e.expired_at IS NULL OR e.expired_at > v_now)
    ), chains (node_ids, edge_ids, facts, last_id, depth) AS (
        -- a depth a step of the recursion, each keeping only the chains that can still be
        -- among the first 10 (by nodes, then edges): those of the 10 first node sequences,
        -- and of each node sequence its 10 first edge sequences. Every chain reaches p_to
        -- (each node of a layer has a neighbour in the next), so a chain behind 10 others
        -- of smaller node sequences, or of its own and smaller edges, ends behind 10 whole
        -- chains. (Before, every shortest chain was listed and 10 kept: the product of the
        -- layers' widths, 10^6 chains at six layers of ten.)
        SELECT ARRAY[p_from], ARRAY[]::text[], ARRAY[]::text[], p_from, 0
        UNION ALL
        SELECT x.node_ids, x.edge_ids, x.facts, x.last_id, x.depth
          FROM (SELECT c.node_ids || s.to_id AS node_ids, c.edge_ids || s.edge_id AS edge_ids,
                       c.facts || s.fact AS facts, s.to_id AS last_id, c.depth + 1 AS depth,
                       pg_catalog.dense_rank() OVER (ORDER BY c.node_ids || s.to_id) AS by_nodes,
                       pg_catalog.row_number() OVER (PARTITION BY c.node_ids || s.to_id
                                                     ORDER BY c.edge_ids || s.edge_id) AS by_edges
                  FROM chains AS c JOIN steps AS s ON s.from_id = c.last_id AND s.d_from = c.depth + 1) AS x
         WHERE x.by_nodes <= 10 AND x.by_edges <= 10
    ), found AS (
        SELECT c.node_ids, c.edge_ids, c.facts FROM chains AS c WHERE c.last_id = p_to
         ORDER BY c.node_ids, c.edge_ids LIMIT 10
    )
    SELECT (pg_catalog.row_number() OVER (ORDER BY f.node_ids, f.edge_ids))::integer,
           pg_catalog.cardinality(f.edge_ids), f.node_ids,
           ARRAY(SELECT n.name FROM pg_catalog.unnest(f.node_ids) WITH ORDINALITY AS u(node_id, ord)
                   JOIN memory.nodes AS n ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                    AND n.node_key = pg_catalog.md5(u.node_id)::uuid
                  ORDER BY u.ord),
           f.edge_ids, f.facts
      FROM found AS f
     ORDER BY 1;
END
$$;

ALTER FUNCTION memory.paths(p_tenant_id uuid, p_simulation_id uuid, p_from text, p_to text, p_max_depth integer) OWNER TO memory_owner;

-- FUNCTION paths(p_tenant_id uuid, p_simulation_id uuid, p_from text, p_to text, p_max_depth integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.paths(p_tenant_id uuid, p_simulation_id uuid, p_from text, p_to text, p_max_depth integer) IS 'The shortest chains of current facts between two entities (at most 10), with their nodes, names, edges and facts';

-- FUNCTION paths(p_tenant_id uuid, p_simulation_id uuid, p_from text, p_to text, p_max_depth integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.paths(p_tenant_id uuid, p_simulation_id uuid, p_from text, p_to text, p_max_depth integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.paths(p_tenant_id uuid, p_simulation_id uuid, p_from text, p_to text, p_max_depth integer) TO memory_reader;

-- prediction_outcomes; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.prediction_outcomes ENABLE ROW LEVEL SECURITY;

-- prediction_outcomes; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.prediction_outcomes (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    prediction_id text NOT NULL,
    prediction_key uuid GENERATED ALWAYS AS ((md5(prediction_id))::uuid) STORED NOT NULL,
    outcome text NOT NULL,
    note text,
    observed_at timestamp with time zone,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    recorded_by name DEFAULT CURRENT_USER NOT NULL,
    CONSTRAINT prediction_outcomes_outcome_check CHECK ((outcome = ANY (memory._outcomes())))
);

ALTER TABLE ONLY memory.prediction_outcomes FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.prediction_outcomes OWNER TO memory_owner;

-- TABLE prediction_outcomes; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.prediction_outcomes IS 'What became of a prediction, recorded later by a caller (memory.record_outcome); never written by an import';

-- TABLE prediction_outcomes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.prediction_outcomes TO memory_reader;
GRANT INSERT ON TABLE memory.prediction_outcomes TO memory_writer;

-- prediction_outcomes owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.prediction_outcomes FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- prediction_outcomes owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.prediction_outcomes FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- prediction_outcomes prediction_outcomes_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.prediction_outcomes
    ADD CONSTRAINT prediction_outcomes_pkey PRIMARY KEY (tenant_id, simulation_id, prediction_key);

-- prediction_outcomes prediction_outcomes_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.prediction_outcomes
    ADD CONSTRAINT prediction_outcomes_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- prediction_outcomes readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.prediction_outcomes FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- prediction_outcomes writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.prediction_outcomes FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- prediction_outcomes writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.prediction_outcomes FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- prediction_outcomes writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.prediction_outcomes FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN prediction_outcomes.note; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(note) ON TABLE memory.prediction_outcomes TO memory_writer;

-- COLUMN prediction_outcomes.observed_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(observed_at) ON TABLE memory.prediction_outcomes TO memory_writer;

-- COLUMN prediction_outcomes.outcome; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(outcome) ON TABLE memory.prediction_outcomes TO memory_writer;

-- COLUMN prediction_outcomes.recorded_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(recorded_at) ON TABLE memory.prediction_outcomes TO memory_writer;

-- COLUMN prediction_outcomes.recorded_by; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(recorded_by) ON TABLE memory.prediction_outcomes TO memory_writer;

-- predictions(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text DEFAULT NULL::text) RETURNS TABLE(prediction_id text, report_id text, section_index integer, claim text, horizon text, confidence numeric, metadata jsonb, source text, outcome text, note text, observed_at timestamp with time zone, recorded_at timestamp with time zone, recorded_by name)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT p.prediction_id, p.report_id, p.section_index, p.claim, p.horizon, p.confidence,
           p.metadata, p.source, o.outcome, o.note, o.observed_at, o.recorded_at, o.recorded_by
      FROM memory.predictions AS p
      LEFT JOIN memory.prediction_outcomes AS o
        ON o.tenant_id = p.tenant_id AND o.simulation_id = p.simulation_id AND o.prediction_key = p.prediction_key
     WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
       AND (p_report_id IS NULL OR p.report_id = p_report_id)
     ORDER BY p.report_id NULLS LAST, p.section_index NULLS LAST, p.prediction_id;
$$;

ALTER FUNCTION memory.predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) OWNER TO memory_owner;

-- predictions; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.predictions ENABLE ROW LEVEL SECURITY;

-- predictions; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.predictions (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    prediction_id text NOT NULL,
    prediction_key uuid GENERATED ALWAYS AS ((md5(prediction_id))::uuid) STORED NOT NULL,
    report_id text,
    section_index integer,
    claim text NOT NULL,
    horizon text,
    confidence numeric,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    source text DEFAULT 'api'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT predictions_confidence_check CHECK (((confidence >= (0)::numeric) AND (confidence <= (1)::numeric))),
    CONSTRAINT predictions_metadata_check CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT predictions_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.predictions FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.predictions OWNER TO memory_owner;

-- FUNCTION predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) IS 'The predictions of a simulation (or of one report) with their recorded outcomes';

-- TABLE predictions; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.predictions IS 'Claims about the future a simulation''s reports make: claim, horizon, confidence (0..1)';

-- FUNCTION predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) TO memory_reader;

-- TABLE predictions; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.predictions TO memory_reader;
GRANT INSERT ON TABLE memory.predictions TO memory_writer;

-- predictions owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.predictions FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- predictions owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.predictions FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- predictions predictions_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.predictions
    ADD CONSTRAINT predictions_pkey PRIMARY KEY (tenant_id, simulation_id, prediction_key);

-- predictions predictions_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.predictions
    ADD CONSTRAINT predictions_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- predictions readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.predictions FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- predictions writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.predictions FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- predictions writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.predictions FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- predictions writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.predictions FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN predictions.claim; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(claim) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.confidence; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(confidence) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.horizon; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(horizon) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.metadata; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(metadata) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.prediction_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(prediction_id) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.report_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(report_id) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.section_index; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(section_index) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.predictions TO memory_writer;

-- COLUMN predictions.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.predictions TO memory_writer;

-- profiles(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.profiles(p_tenant_id uuid, p_simulation_id uuid, p_platform text DEFAULT NULL::text, p_agent_id integer DEFAULT NULL::integer) RETURNS TABLE(platform text, agent_id integer, name text, username text, bio text, persona text, attributes jsonb, source text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT p.platform::text, p.agent_id, p.name, p.username, p.bio, p.persona,
           p.attributes, p.source
      FROM memory.profiles AS p
     WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
       AND (p_platform IS NULL OR p.platform = p_platform)
       AND (p_agent_id IS NULL OR p.agent_id = p_agent_id)
     ORDER BY p.platform, p.agent_id;
$$;

ALTER FUNCTION memory.profiles(p_tenant_id uuid, p_simulation_id uuid, p_platform text, p_agent_id integer) OWNER TO memory_owner;

-- profiles; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.profiles ENABLE ROW LEVEL SECURITY;

-- profiles; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.profiles (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    platform text NOT NULL,
    agent_id integer NOT NULL,
    name text,
    username text,
    bio text,
    persona text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    source text DEFAULT 'api'::text NOT NULL,
    CONSTRAINT profiles_platform_length_check CHECK ((char_length(platform) <= memory._label_max())),
    CONSTRAINT profiles_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.profiles FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.profiles OWNER TO memory_owner;

-- FUNCTION profiles(p_tenant_id uuid, p_simulation_id uuid, p_platform text, p_agent_id integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.profiles(p_tenant_id uuid, p_simulation_id uuid, p_platform text, p_agent_id integer) IS 'Agent profiles of a simulation, by platform and agent (NULL: all)';

-- TABLE profiles; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.profiles IS 'Agent profiles of a simulation, one per platform and agent';

-- FUNCTION profiles(p_tenant_id uuid, p_simulation_id uuid, p_platform text, p_agent_id integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.profiles(p_tenant_id uuid, p_simulation_id uuid, p_platform text, p_agent_id integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.profiles(p_tenant_id uuid, p_simulation_id uuid, p_platform text, p_agent_id integer) TO memory_reader;

-- TABLE profiles; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.profiles TO memory_reader;
GRANT INSERT ON TABLE memory.profiles TO memory_writer;

-- profiles owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.profiles FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- profiles owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.profiles FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- profiles profiles_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.profiles
    ADD CONSTRAINT profiles_pkey PRIMARY KEY (tenant_id, simulation_id, platform, agent_id);

-- profiles profiles_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.profiles
    ADD CONSTRAINT profiles_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- profiles readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.profiles FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- profiles writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.profiles FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- profiles writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.profiles FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- profiles writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.profiles FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN profiles.agent_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(agent_id) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.attributes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(attributes) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.bio; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(bio) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.name; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(name) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.persona; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(persona) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.platform; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(platform) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.profiles TO memory_writer;

-- COLUMN profiles.username; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(username) ON TABLE memory.profiles TO memory_writer;

-- profiles_simulation_stats; Type: STATISTICS; Schema: memory; Owner: memory_owner
CREATE STATISTICS memory.profiles_simulation_stats (dependencies) ON tenant_id, simulation_id FROM memory.profiles;

ALTER STATISTICS memory.profiles_simulation_stats OWNER TO memory_owner;

-- quotas(uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.quotas(p_tenant_id uuid) RETURNS TABLE(kind text, max_rows bigint, used bigint, updated_at timestamp with time zone, updated_by name)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF pg_catalog.pg_has_role(memory._acting_role(), 'memory_admin', 'USAGE') THEN
        PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    ELSE
        PERFORM memory._enter_tenant(p_tenant_id);
    END IF;
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with memory.list_tenants()';
    END IF;
    RETURN QUERY
    SELECT k.kind, q.max_rows, memory._quota_used(p_tenant_id, k.kind), q.updated_at, q.updated_by
      FROM (SELECT 'simulations'::text AS kind, 0 AS ord
            UNION ALL
            SELECT r.kind, r.ord FROM memory._record_kinds() AS r) AS k
      LEFT JOIN memory.tenant_quotas AS q ON q.tenant_id = p_tenant_id AND q.kind = k.kind
     ORDER BY k.ord;
END
$$;

ALTER FUNCTION memory.quotas(p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION quotas(p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.quotas(p_tenant_id uuid) IS 'A tenant''s caps by kind (NULL: none) beside what it holds now; memory_admin or a role granted the tenant (SECURITY DEFINER)';

-- FUNCTION quotas(p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.quotas(p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.quotas(p_tenant_id uuid) TO memory_reader;
GRANT ALL ON FUNCTION memory.quotas(p_tenant_id uuid) TO memory_admin;

-- recall(uuid, uuid, text, public.vector, integer, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.recall(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_top_k integer DEFAULT 10, p_options jsonb DEFAULT '{}'::jsonb) RETURNS TABLE(kind text, id text, text text, score double precision, ranks jsonb, why text, copies integer, agents integer)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_arms_all text[] := ARRAY['episodes', 'agents', 'facts', 'entities', 'words', 'graph', 'context'];
    v_options  jsonb := COALESCE(p_options, '{}'::jsonb);
    -- blank: nothing but white space of any kind (tabs, new lines, U+3000 ...), as the
    -- words arm reads it (memory._words_prepare)
    v_text     text := CASE WHEN p_query_text OPERATOR(pg_catalog.~) '[^[:space:]]' THEN pg_catalog.btrim(p_query_text) END;
    v_vec      public.vector := p_query_vector;
    v_arms     text[];
    v_route    text;
    v_signals  jsonb := '[]';
    v_k        double precision;
    v_cand     integer;
    v_pool     integer;
    v_kinds    text[];
    v_depth    integer;
    v_as_of    timestamptz;
    v_bad      text;
    v_hits     memory.recall_hit[] := '{}';
    v_name_keys uuid[];
    v_name_sims real[];
    v_why_route text;
    v_agent    record;
    v_collapse boolean := true;
    v_like     text;
    v_like_text text;
    v_weights  jsonb;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    -- the question's size first, whatever the arms: the route and the words and graph arms
    -- read every word and name in it (memory._limit('question_bytes'), 54000)
    PERFORM memory._check_limit('question_bytes', 'p_query_text', pg_catalog.octet_length(p_query_text));
    IF pg_catalog.jsonb_typeof(v_options) <> 'object' THEN
        RAISE EXCEPTION 'p_options must be a JSON object, not %', pg_catalog.jsonb_typeof(v_options)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass {} or an object of arms, weights, k, candidates, depth, as_of, model, kinds, collapse, like';
    END IF;
    SELECT pg_catalog.string_agg(pg_catalog.quote_literal(memory._quote(o.key)), ', ' ORDER BY o.key) INTO v_bad
      FROM pg_catalog.jsonb_object_keys(v_options) AS o(key)
     WHERE o.key NOT IN ('arms', 'weights', 'k', 'candidates', 'depth', 'as_of', 'model', 'kinds', 'collapse', 'like');
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'unknown option %', v_bad
            USING ERRCODE = 'invalid_parameter_value', HINT = 'options are arms, weights, k, candidates, depth, as_of, model, kinds, collapse, like';
    END IF;
    IF v_options ? 'collapse' THEN
        IF pg_catalog.jsonb_typeof(v_options -> 'collapse') <> 'boolean' THEN
            RAISE EXCEPTION 'option collapse must be true or false, not %', memory._quote(v_options ->> 'collapse')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'collapse: false answers every copy of a post';
        END IF;
        v_collapse := (v_options ->> 'collapse')::boolean;
    END IF;
    -- more like this: the episode's own stored vector (its simulation's model, whatever the
    -- caller's), and the episode and its copies left out of the answer
    IF v_options ? 'like' THEN
        IF pg_catalog.jsonb_typeof(v_options -> 'like') <> 'string' THEN
            RAISE EXCEPTION 'option like must be an episode id, not %', memory._quote(v_options ->> 'like')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'like: "ep-17" answers the episodes most like it';
        END IF;
        v_like := v_options ->> 'like';
        IF p_query_vector IS NOT NULL THEN
            RAISE EXCEPTION 'pass either a query vector or the option like, not both'
                USING ERRCODE = 'invalid_parameter_value', HINT = 'like takes the episode''s own vector';
        END IF;
        v_vec := memory.episode_vector(p_tenant_id, p_simulation_id, v_like);
        SELECT e.content INTO v_like_text FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = pg_catalog.md5(v_like)::uuid;
        IF v_vec IS NULL THEN
            RAISE EXCEPTION 'episode % has no vector: nothing is like it by meaning', memory._quote(v_like)
                USING ERRCODE = 'invalid_parameter_value', HINT = 'actions without text of their own are stored without a vector';
        END IF;
        v_options := v_options - 'model';
    END IF;
    -- arms, and weights for known arms only, each a number >= 0
    v_arms := memory._recall_list(v_options, 'arms', v_arms_all, 'arm');
    IF v_arms IS NOT NULL THEN
        v_route := 'as the caller chose';
    END IF;
    IF v_options ? 'weights' THEN
        SELECT pg_catalog.string_agg(pg_catalog.quote_literal(memory._quote(w.key)), ', ' ORDER BY w.key) INTO v_bad
          FROM pg_catalog.jsonb_each(CASE WHEN pg_catalog.jsonb_typeof(v_options -> 'weights') = 'object'
                                          THEN v_options -> 'weights' ELSE '{"": null}' END) AS w(key, value)
         WHERE NOT w.key = ANY (v_arms_all) OR pg_catalog.jsonb_typeof(w.value) <> 'number'
            OR (w.value #>> '{}')::numeric < 0
            OR NOT pg_catalog.pg_input_is_valid(w.value #>> '{}', 'double precision');
        IF v_bad IS NOT NULL THEN
            RAISE EXCEPTION 'weights must map arms to numbers >= 0 (a double precision): %', v_bad
                USING ERRCODE = 'invalid_parameter_value', HINT = 'weights: {"words": 2, "graph": 1.5}';
        END IF;
    END IF;
    -- each arm's weight: the caller's, else words 3, graph 0.5, context 0 (asked for by
    -- weight: it helps a conversation, where a reply follows what it answers, and harms a
    -- social run, where the next action is another agent's on another topic), the others 1
    v_weights := '{"words": 3, "graph": 0.5, "context": 0}'::jsonb || COALESCE(v_options -> 'weights', '{}'::jsonb);
    v_kinds := memory._recall_list(v_options, 'kinds', ARRAY['episode', 'fact', 'entity'], 'kind');
    v_k := memory._recall_option(v_options, 'k', 10, 0, NULL);
    v_cand := memory._recall_option(v_options, 'candidates', 50, 1, 100);
    -- the arms of meaning's pool and breadth: two a candidate, at least 100 (see below)
    v_pool := GREATEST(2 * v_cand, 100);
    v_depth := memory._recall_option(v_options, 'depth', 1, 1, 2);
    IF v_options ? 'as_of' THEN
        IF NOT pg_catalog.pg_input_is_valid(v_options ->> 'as_of', 'timestamptz') THEN
            RAISE EXCEPTION 'option as_of must be a timestamp, not %', memory._quote(v_options ->> 'as_of')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'as_of: an ISO 8601 time, or infinity';
        END IF;
        v_as_of := (v_options ->> 'as_of')::timestamptz;
    END IF;
    IF v_text IS NULL AND v_vec IS NULL AND v_like IS NULL THEN
        RAISE EXCEPTION 'recall needs a question: p_query_text is empty and p_query_vector is NULL'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass the question as text, as its embedding, or both (memory.episode_vector is NULL for an episode stored without a vector)';
    END IF;
    IF v_vec IS NOT NULL AND v_like IS NULL THEN
        PERFORM memory._check_query_vector(v_vec);
        IF pg_catalog.jsonb_typeof(v_options -> 'model') NOT IN ('string', 'null') THEN
            RAISE EXCEPTION 'option model must be a model name, not %', v_options -> 'model'
                USING ERRCODE = 'invalid_parameter_value', HINT = 'memory.list_models() names the models';
        END IF;
        PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, v_options ->> 'model');
    END IF;

    -- the route, when the caller chose no arms
    IF v_arms IS NULL THEN
        IF v_text IS NULL THEN
            v_route := 'vector';
        ELSE
            SELECT r.target, r.signals INTO v_route, v_signals FROM memory.route(v_text) AS r;
        END IF;
        -- every route reaches the episodes (and the named agents' episodes): a simulation
        -- without a graph, or a question about something it never names, still gets what
        -- its agents said
        v_arms := CASE v_route WHEN 'graph' THEN ARRAY['graph', 'facts', 'entities', 'words', 'episodes', 'agents', 'context']
                               WHEN 'vector' THEN ARRAY['episodes', 'agents', 'facts', 'entities', 'words', 'context']
                               ELSE v_arms_all END;
    END IF;

    -- the arms of meaning, each searching no more widely than the fusion needs: the episodes
    -- re-ranked from a pool of two a candidate, at least 100 (memory.search_episodes takes 20
    -- a hit), and the facts' index searched that broadly too (memory._search_facts'
    -- p_breadth, where memory.search_facts searches wider). On the bench's simulations recall's
    -- rows were the same with the pool and the facts' breadth from 50 to 400, and the smaller
    -- cost less (bench/README.md).
    -- The episodes' index is searched twice as broadly as the pool, at least 200 (not 400:
    -- memory._episodes_breadth: the same rows on the bench's questions). The
    -- entities are compared by meaning (V0036: the summary's vector, the name's for an
    -- entity without a summary; a name is found by the words and the graph arms), through
    -- the summaries' index of the pair (V0035), searched as broadly as memory.search_nodes
    -- searches it: at 100, clustered synthetic questions got a top 50 overlapping the exact
    -- one less than tests/test_ann_entities.py asks.
    -- the episodes by meaning, and an arm of their own for each agent the question names
    -- (that agent's episodes by the same vector), so that "what did Caroline say about ..."
    -- ranks Caroline's actions twice: one search each, the arm named by what it searched
    IF v_vec IS NOT NULL THEN
        FOR v_agent IN SELECT 'episodes' AS arm, NULL::integer AS agent_id, NULL::text AS agent_name
                        WHERE 'episodes' = ANY (v_arms)
                       UNION ALL
                       SELECT 'agents', a.agent_id, a.agent_name
                         FROM memory._named_agents(p_tenant_id, p_simulation_id, v_text, 3) AS a
                        WHERE v_text IS NOT NULL AND 'agents' = ANY (v_arms) LOOP
            v_hits := v_hits || ARRAY(
                SELECT ROW(v_agent.arm, 'episode', h.episode_id, h.content, h.similarity,
                           pg_catalog.row_number() OVER (ORDER BY h.similarity DESC, h.episode_id), v_agent.agent_name, NULL)::memory.recall_hit
                  FROM memory._search_episodes(p_tenant_id => p_tenant_id,
                                               p_simulation_id => p_simulation_id, p_query => v_vec,
                                               p_top_k => LEAST(v_cand, 100), p_agent_id => v_agent.agent_id,
                                               p_round_from => NULL, p_round_to => NULL, p_from => NULL,
                                               p_to => NULL, p_collapse => false, p_model => NULL,
                                               p_pool => v_pool) AS h);
        END LOOP;
    END IF;
    IF v_vec IS NOT NULL AND 'facts' = ANY (v_arms) THEN
        v_hits := v_hits || ARRAY(
            SELECT ROW('facts', 'fact', f.edge_id, f.fact, f.similarity,
                       pg_catalog.row_number() OVER (ORDER BY f.similarity DESC, f.edge_id), NULL, NULL)::memory.recall_hit
              FROM memory._search_facts(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_query => v_vec,
                                        p_top_k => LEAST(v_cand, 100), p_state => 'current',
                                        p_as_of => v_as_of, p_breadth => v_pool) AS f);
    END IF;
    IF v_vec IS NOT NULL AND 'entities' = ANY (v_arms) THEN
        v_hits := v_hits || ARRAY(
            SELECT ROW('entities', 'entity', n.node_id, n.name || COALESCE(': ' || n.summary, ''), n.similarity,
                       pg_catalog.row_number() OVER (ORDER BY n.similarity DESC, n.node_id), NULL, NULL)::memory.recall_hit
              FROM memory._search_nodes(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_query => v_vec,
                                        p_top_k => LEAST(v_cand, 100), p_type => NULL,
                                        p_by => 'meaning', p_breadth => NULL) AS n);
    END IF;

    -- the entities the question names, found once for the words and the graph arms (the
    -- graph takes the best five: found for ten, they are the same five)
    IF v_text IS NOT NULL AND ('words' = ANY (v_arms) OR 'graph' = ANY (v_arms)) THEN
        PERFORM memory._words_prepare(v_text, 'p_query_text');
        IF v_cand >= 5 THEN
            SELECT COALESCE(pg_catalog.array_agg(c.node_key), '{}'), COALESCE(pg_catalog.array_agg(c.similarity), '{}')
              INTO v_name_keys, v_name_sims
              FROM memory._name_candidates(p_tenant_id, p_simulation_id, v_text, LEAST(v_cand, 10)) AS c;
        END IF;
    END IF;

    -- The words and the graph arms answer only actions that said something (their own
    -- text, or a repost's: memory._action_said): a follow, a mute, a like or doing nothing
    -- is stored as a sentence naming agents, which those arms would find by the names alone
    -- (the arms of meaning never see them: such actions carry no vector, or the liked post's).
    -- the words, each row trusted as far as it explains the question: its weight is scaled
    -- by the square of its cover (memory._search_words: its words' idf over the question's;
    -- an entity found by name explains it all), so rows that match a question only in
    -- passing (an English question over Chinese posts matching a place name every English
    -- post holds, a word or two of a long question) do not outvote meaning
    IF v_text IS NOT NULL AND 'words' = ANY (v_arms) THEN
        v_hits := v_hits || ARRAY(
            SELECT ROW('words', w.kind, w.id, w.text, w.score,
                       pg_catalog.row_number() OVER (ORDER BY w.score DESC, w.kind, w.id), NULL,
                       w.cover * w.cover)::memory.recall_hit
              FROM memory._search_words(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_query_text => v_text,
                                        p_top_k => v_cand, p_kinds => NULL,
                                        p_name_keys => v_name_keys,
                                        p_name_sims => v_name_sims) AS w
             WHERE w.kind <> 'episode' OR memory._said_something(p_tenant_id, p_simulation_id, w.id));
    END IF;

    -- the graph: the entities the question names, their facts, neighbours and episodes
    IF v_text IS NOT NULL AND 'graph' = ANY (v_arms) THEN
        v_hits := v_hits || ARRAY(
            SELECT ROW(g.arm, g.kind, g.id, g.body, g.raw,
                       pg_catalog.row_number() OVER (ORDER BY g.rank), g.matched, g.trust)::memory.recall_hit
              FROM memory._recall_graph(
                       p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_text => v_text,
                       p_candidates => v_cand, p_depth => v_depth, p_as_of => v_as_of,
                       p_name_keys => v_name_keys, p_name_sims => v_name_sims) AS g
             WHERE g.kind <> 'episode' OR memory._said_something(p_tenant_id, p_simulation_id, g.id));
    END IF;

    -- the context: the turns around the best episodes found so far (the one before and the
    -- one after in the same round of the same platform, by time), ranked as the episode
    -- they surround is ranked: an answer often lies in the reply to what matched, or in what
    -- it replies to, which share none of the question's words
    IF 'context' = ANY (v_arms) AND (v_weights ->> 'context')::double precision > 0
       AND (v_kinds IS NULL OR 'episode' = ANY (v_kinds)) THEN
        v_hits := v_hits || ARRAY(
            WITH pre AS (
                SELECT x.id, pg_catalog.row_number() OVER (ORDER BY pg_catalog.sum(COALESCE((v_weights ->> x.arm)::double precision, 1)
                                                                                   * COALESCE(x.trust, 1) / (v_k + x.rank)) DESC, x.id) AS rank
                  FROM pg_catalog.unnest(v_hits) AS x
                 WHERE x.kind = 'episode'
                 GROUP BY x.id
                 ORDER BY 2
                 LIMIT 2 * memory._top_k(p_top_k)
            )
            SELECT ROW('context', 'episode', n.episode_id, n.content, NULL, p.rank, p.id, NULL)::memory.recall_hit
              FROM pre AS p
              JOIN memory.episodes AS e
                ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.episode_key = pg_catalog.md5(p.id)::uuid AND e.occurred_at IS NOT NULL
             CROSS JOIN LATERAL (
                 (SELECT b.episode_id, b.content FROM memory.episodes AS b
                   WHERE b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id
                     AND b.occurred_at < e.occurred_at AND b.round IS NOT DISTINCT FROM e.round
                     AND b.platform IS NOT DISTINCT FROM e.platform
                   ORDER BY b.occurred_at DESC LIMIT 1)
                 UNION ALL
                 (SELECT a.episode_id, a.content FROM memory.episodes AS a
                   WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id
                     AND a.occurred_at > e.occurred_at AND a.round IS NOT DISTINCT FROM e.round
                     AND a.platform IS NOT DISTINCT FROM e.platform
                   ORDER BY a.occurred_at LIMIT 1)) AS n);
    END IF;

    -- The fusion: each row's score over the arms that found it, then the top k, and only
    -- for those the text, the ranks and the why: the rows the arms find but the fusion drops
    -- never pay for them (the same rows, every column alike).
    v_why_route := '; route ' || v_route
        || CASE WHEN pg_catalog.jsonb_array_length(v_signals) > 0
                THEN ' (' || (SELECT pg_catalog.string_agg(x.value ->> 'phrase', ', ')
                                FROM pg_catalog.jsonb_array_elements(v_signals) AS x(value)) || ')'
                ELSE '' END;
    RETURN QUERY
    WITH h AS MATERIALIZED (
        SELECT x.* FROM pg_catalog.unnest(v_hits) AS x
         WHERE (v_kinds IS NULL OR x.kind = ANY (v_kinds))
           AND (v_like IS NULL OR x.kind <> 'episode' OR (x.id <> v_like AND x.body IS DISTINCT FROM v_like_text))
    ), fused AS MATERIALIZED (
        SELECT x.kind, x.id, pg_catalog.min(x.body) AS body,
               pg_catalog.sum(COALESCE((v_weights ->> x.arm)::double precision, 1)
                              * COALESCE(x.trust, 1) / (v_k + x.rank)) AS score
          FROM h AS x
         GROUP BY x.kind, x.id
    ), grouped AS MATERIALIZED (
        -- copies: an episode whose text is another's, word for word, joins the best of them
        -- (the text a viral post's reposts and copies share); collapse false keeps each
        SELECT f.kind, f.id, f.score,
               CASE WHEN v_collapse AND f.kind = 'episode' AND f.body IS NOT NULL
                    THEN pg_catalog.first_value(f.id) OVER (PARTITION BY f.kind, f.body ORDER BY f.score DESC, f.id)
                    ELSE f.id END AS lead
          FROM fused AS f
         WHERE f.score > 0
    ), top AS MATERIALIZED (
        SELECT g.kind, g.lead AS id, pg_catalog.max(g.score) AS score,
               pg_catalog.count(*)::integer AS copies, pg_catalog.array_agg(g.id) AS members
          FROM grouped AS g
         GROUP BY g.kind, g.lead
         ORDER BY 3 DESC, 1, 2
         LIMIT memory._top_k(p_top_k)
    )
    SELECT t.kind, t.id, d.body, t.score, d.ranks, d.arms || COALESCE('; via ' || d.matched, '') || v_why_route,
           CASE WHEN t.kind = 'episode' THEN t.copies END,
           CASE WHEN t.kind = 'episode' THEN
               (SELECT pg_catalog.count(DISTINCT e.agent_id)::integer FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                   AND e.episode_key = ANY (ARRAY(SELECT pg_catalog.md5(m)::uuid FROM pg_catalog.unnest(t.members) AS m))) END
      FROM top AS t
     CROSS JOIN LATERAL (
         SELECT pg_catalog.min(x.body) AS body,
                pg_catalog.jsonb_object_agg(x.arm, pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object('rank', x.rank, 'score', x.raw, 'trust', x.trust))) AS ranks,
                pg_catalog.string_agg(x.arm || ' #' || x.rank, ', ' ORDER BY x.rank, x.arm) AS arms,
                pg_catalog.string_agg(DISTINCT x.matched, ', ') AS matched
           FROM (SELECT DISTINCT ON (y.arm) y.* FROM h AS y
                  WHERE y.kind = t.kind AND y.id = ANY (t.members)
                  ORDER BY y.arm, y.rank, y.id) AS x) AS d
     ORDER BY t.score DESC, t.kind, t.id;
END
$$;

ALTER FUNCTION memory.recall(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_top_k integer, p_options jsonb) OWNER TO memory_owner;

-- FUNCTION recall(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_top_k integer, p_options jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.recall(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_top_k integer, p_options jsonb) IS 'Hybrid recall: episodes, named agents'' episodes, facts and entities by meaning, words and the graph, fused by reciprocal rank, copies folded, with each arm''s rank and why';

-- FUNCTION recall(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_top_k integer, p_options jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.recall(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_top_k integer, p_options jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.recall(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_query_vector public.vector, p_top_k integer, p_options jsonb) TO memory_reader;

-- recall_hit; Type: TYPE; Schema: memory; Owner: memory_owner
CREATE TYPE memory.recall_hit AS (
	arm text,
	kind text,
	id text,
	body text,
	raw double precision,
	rank integer,
	matched text,
	trust double precision
);

ALTER TYPE memory.recall_hit OWNER TO memory_owner;

-- TYPE recall_hit; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TYPE memory.recall_hit IS 'One candidate of one arm of memory.recall, before the fusion';

-- record_kind; Type: TYPE; Schema: memory; Owner: memory_owner
CREATE TYPE memory.record_kind AS (
	kind text,
	item text,
	ord integer,
	live regclass,
	staged regclass,
	batch_arg text,
	batch_spec jsonb,
	id_column name,
	batch_key text[],
	item_defaults jsonb
);

ALTER TYPE memory.record_kind OWNER TO memory_owner;

-- TYPE record_kind; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TYPE memory.record_kind IS 'A record kind (nodes, edges, episodes, profiles) as the write path sees it';

-- record_outcome(uuid, uuid, text, text, text, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.record_outcome(p_tenant_id uuid, p_simulation_id uuid, p_prediction_id text, p_outcome text, p_note text DEFAULT NULL::text, p_observed_at timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS TABLE(prediction_id text, outcome text, note text, observed_at timestamp with time zone, recorded_at timestamp with time zone, recorded_by name)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_change bigint;
BEGIN
    PERFORM memory._require_row('predictions', p_tenant_id, p_simulation_id, p_prediction_id);
    PERFORM memory._not_null(p_outcome, 'p_outcome', 'one of confirmed, refuted, partial, void (memory._outcomes())');
    PERFORM memory._check_limit('string_bytes', 'p_note', pg_catalog.octet_length(p_note));
    IF NOT p_outcome = ANY (memory._outcomes()) THEN
        RAISE EXCEPTION 'unknown outcome %', memory._quote(p_outcome)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of ' || pg_catalog.array_to_string(memory._outcomes(), ', ');
    END IF;
    -- the time and the user from the proposed row: Citus refuses functions that are not
    -- immutable in the DO UPDATE SET of a distributed table
    INSERT INTO memory.prediction_outcomes AS o
           (tenant_id, simulation_id, prediction_id, outcome, note, observed_at, recorded_at, recorded_by)
    VALUES (p_tenant_id, p_simulation_id, p_prediction_id, p_outcome, p_note, p_observed_at,
            pg_catalog.now(), CURRENT_USER)
    ON CONFLICT ON CONSTRAINT prediction_outcomes_pkey DO UPDATE
       SET outcome = excluded.outcome, note = excluded.note, observed_at = excluded.observed_at,
           recorded_at = excluded.recorded_at, recorded_by = excluded.recorded_by
     WHERE (o.outcome, o.note, o.observed_at) IS DISTINCT FROM (excluded.outcome, excluded.note, excluded.observed_at);
    IF FOUND THEN  -- the change feed (V0021), called as a plain expression (memory._record_change)
        v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                          p_simulation_id => p_simulation_id,
                                          p_kind => 'prediction_outcomes', p_op => 'outcome',
                                          p_ids => ARRAY[p_prediction_id], p_counts => '{}',
                                          p_attempt_id => NULL,
                                          p_detail => pg_catalog.jsonb_build_object('outcome', p_outcome));
    END IF;
    RETURN QUERY
    SELECT o.prediction_id, o.outcome, o.note, o.observed_at, o.recorded_at, o.recorded_by
      FROM memory.prediction_outcomes AS o
     WHERE o.tenant_id = p_tenant_id AND o.simulation_id = p_simulation_id
       AND o.prediction_key = pg_catalog.md5(p_prediction_id)::uuid;
END
$$;

ALTER FUNCTION memory.record_outcome(p_tenant_id uuid, p_simulation_id uuid, p_prediction_id text, p_outcome text, p_note text, p_observed_at timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION record_outcome(p_tenant_id uuid, p_simulation_id uuid, p_prediction_id text, p_outcome text, p_note text, p_observed_at timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.record_outcome(p_tenant_id uuid, p_simulation_id uuid, p_prediction_id text, p_outcome text, p_note text, p_observed_at timestamp with time zone) IS 'Record (or correct) the outcome of a prediction: confirmed, refuted, partial or void; imports never touch it';

-- FUNCTION record_outcome(p_tenant_id uuid, p_simulation_id uuid, p_prediction_id text, p_outcome text, p_note text, p_observed_at timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.record_outcome(p_tenant_id uuid, p_simulation_id uuid, p_prediction_id text, p_outcome text, p_note text, p_observed_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.record_outcome(p_tenant_id uuid, p_simulation_id uuid, p_prediction_id text, p_outcome text, p_note text, p_observed_at timestamp with time zone) TO memory_writer;

-- reembed_texts(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text, p_limit integer DEFAULT 10000) RETURNS TABLE(content_hash bytea, text text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._reembed_model(p_model);
    SELECT s.text_hash, pg_catalog.min(s.text)
      FROM memory._reembed_sources(p_tenant_id, p_simulation_id, p_model) AS s
     WHERE NOT EXISTS (SELECT 1 FROM memory.vector_cache AS c
                        WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                          AND c.content_hash = s.text_hash AND memory._vector_problem(c.embedding) IS NULL)
     GROUP BY s.text_hash
     ORDER BY s.text_hash
     LIMIT LEAST(GREATEST(COALESCE(p_limit, 10000), 1), 100000);
$$;

ALTER FUNCTION memory.reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text, p_limit integer) OWNER TO memory_owner;

-- FUNCTION reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text, p_limit integer) IS 'The texts of a simulation still needing a vector of a model (not in the tenant''s vector cache): a re-embed''s work list, resumable';

-- FUNCTION reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text, p_limit integer) TO memory_writer;

-- report_chunks; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.report_chunks ENABLE ROW LEVEL SECURITY;

-- report_chunks; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.report_chunks (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    chunk_id text NOT NULL,
    chunk_key uuid GENERATED ALWAYS AS ((md5(chunk_id))::uuid) STORED NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    section_index integer NOT NULL,
    chunk_index integer NOT NULL,
    content text NOT NULL,
    embedding public.vector(384),
    embedding_model text,
    content_hash bytea,
    source text DEFAULT 'api'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT report_chunks_embedding_model_check CHECK (((embedding IS NULL) = (embedding_model IS NULL))),
    CONSTRAINT report_chunks_index_check CHECK ((chunk_index >= 0)),
    CONSTRAINT report_chunks_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.report_chunks FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.report_chunks OWNER TO memory_owner;

-- TABLE report_chunks; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.report_chunks IS 'Report sections cut into embedded chunks: what search_reports searches';

-- TABLE report_chunks; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.report_chunks TO memory_reader;
GRANT INSERT ON TABLE memory.report_chunks TO memory_writer;

-- report_chunks owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.report_chunks FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_chunks owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.report_chunks FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_chunks readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.report_chunks FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_chunks report_chunks_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.report_chunks
    ADD CONSTRAINT report_chunks_pkey PRIMARY KEY (tenant_id, simulation_id, chunk_key);

-- report_chunks report_chunks_section_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.report_chunks
    ADD CONSTRAINT report_chunks_section_fkey FOREIGN KEY (tenant_id, simulation_id, report_key, section_index) REFERENCES memory.report_sections(tenant_id, simulation_id, report_key, section_index) ON DELETE CASCADE;

-- report_chunks writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.report_chunks FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_chunks writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.report_chunks FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_chunks writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.report_chunks FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN report_chunks.chunk_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(chunk_id) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.chunk_index; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(chunk_index) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.content; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(content) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.content_hash; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(content_hash) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.embedding; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.embedding_model; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding_model) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.report_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(report_id) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.section_index; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(section_index) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.report_chunks TO memory_writer;

-- COLUMN report_chunks.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.report_chunks TO memory_writer;

-- report_chunks_section_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX report_chunks_section_idx ON memory.report_chunks USING btree (tenant_id, simulation_id, report_key, section_index, chunk_index);

-- report_log(uuid, uuid, text, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.report_log(p_tenant_id uuid, p_simulation_id uuid, p_report_id text, p_limit integer DEFAULT 100, p_after integer DEFAULT NULL::integer) RETURNS TABLE(line_no integer, action text, entry jsonb)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_row('reports', p_tenant_id, p_simulation_id, p_report_id);
    SELECT l.line_no, l.action, l.entry
      FROM memory.report_log AS l
     WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
       AND l.report_key = pg_catalog.md5(p_report_id)::uuid
       AND (p_after IS NULL OR l.line_no > p_after)
     ORDER BY l.line_no
     LIMIT memory._page_rows(p_limit, 100);
$$;

ALTER FUNCTION memory.report_log(p_tenant_id uuid, p_simulation_id uuid, p_report_id text, p_limit integer, p_after integer) OWNER TO memory_owner;

-- report_log; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.report_log ENABLE ROW LEVEL SECURITY;

-- report_log; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.report_log (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    line_no integer NOT NULL,
    action text,
    entry jsonb NOT NULL,
    source text DEFAULT 'api'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT report_log_entry_check CHECK ((jsonb_typeof(entry) = 'object'::text)),
    CONSTRAINT report_log_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.report_log FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.report_log OWNER TO memory_owner;

-- FUNCTION report_log(p_tenant_id uuid, p_simulation_id uuid, p_report_id text, p_limit integer, p_after integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.report_log(p_tenant_id uuid, p_simulation_id uuid, p_report_id text, p_limit integer, p_after integer) IS 'A report''s agent log lines in order, a page at a time';

-- TABLE report_log; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.report_log IS 'A report''s agent_log.jsonl, one row a line (line_no from 1)';

-- FUNCTION report_log(p_tenant_id uuid, p_simulation_id uuid, p_report_id text, p_limit integer, p_after integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.report_log(p_tenant_id uuid, p_simulation_id uuid, p_report_id text, p_limit integer, p_after integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.report_log(p_tenant_id uuid, p_simulation_id uuid, p_report_id text, p_limit integer, p_after integer) TO memory_reader;

-- TABLE report_log; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.report_log TO memory_reader;
GRANT INSERT ON TABLE memory.report_log TO memory_writer;

-- report_log owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.report_log FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_log owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.report_log FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_log readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.report_log FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_log report_log_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.report_log
    ADD CONSTRAINT report_log_pkey PRIMARY KEY (tenant_id, simulation_id, report_key, line_no);

-- report_log report_log_report_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.report_log
    ADD CONSTRAINT report_log_report_fkey FOREIGN KEY (tenant_id, simulation_id, report_key) REFERENCES memory.reports(tenant_id, simulation_id, report_key) ON DELETE CASCADE;

-- report_log writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.report_log FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_log writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.report_log FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_log writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.report_log FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN report_log.action; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(action) ON TABLE memory.report_log TO memory_writer;

-- COLUMN report_log.entry; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(entry) ON TABLE memory.report_log TO memory_writer;

-- COLUMN report_log.line_no; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(line_no) ON TABLE memory.report_log TO memory_writer;

-- COLUMN report_log.report_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(report_id) ON TABLE memory.report_log TO memory_writer;

-- COLUMN report_log.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.report_log TO memory_writer;

-- COLUMN report_log.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.report_log TO memory_writer;

-- report_sections(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) RETURNS TABLE(section_index integer, title text, markdown text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_row('reports', p_tenant_id, p_simulation_id, p_report_id);
    SELECT s.section_index, s.title, s.markdown
      FROM memory.report_sections AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
       AND s.report_key = pg_catalog.md5(p_report_id)::uuid
     ORDER BY s.section_index;
$$;

ALTER FUNCTION memory.report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) OWNER TO memory_owner;

-- report_sections; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.report_sections ENABLE ROW LEVEL SECURITY;

-- report_sections; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.report_sections (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    section_index integer NOT NULL,
    title text NOT NULL,
    markdown text NOT NULL,
    source text DEFAULT 'api'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT report_sections_index_check CHECK ((section_index >= 1)),
    CONSTRAINT report_sections_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.report_sections FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.report_sections OWNER TO memory_owner;

-- FUNCTION report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) IS 'The sections of a report in order, as written (markdown)';

-- TABLE report_sections; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.report_sections IS 'The sections of a report (section_NN.md as written), in order';

-- FUNCTION report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text) TO memory_reader;

-- TABLE report_sections; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.report_sections TO memory_reader;
GRANT INSERT ON TABLE memory.report_sections TO memory_writer;

-- report_sections owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.report_sections FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_sections owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.report_sections FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_sections readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.report_sections FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_sections report_sections_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.report_sections
    ADD CONSTRAINT report_sections_pkey PRIMARY KEY (tenant_id, simulation_id, report_key, section_index);

-- report_sections report_sections_report_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.report_sections
    ADD CONSTRAINT report_sections_report_fkey FOREIGN KEY (tenant_id, simulation_id, report_key) REFERENCES memory.reports(tenant_id, simulation_id, report_key) ON DELETE CASCADE;

-- report_sections writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.report_sections FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_sections writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.report_sections FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- report_sections writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.report_sections FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN report_sections.markdown; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(markdown) ON TABLE memory.report_sections TO memory_writer;

-- COLUMN report_sections.report_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(report_id) ON TABLE memory.report_sections TO memory_writer;

-- COLUMN report_sections.section_index; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(section_index) ON TABLE memory.report_sections TO memory_writer;

-- COLUMN report_sections.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.report_sections TO memory_writer;

-- COLUMN report_sections.title; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(title) ON TABLE memory.report_sections TO memory_writer;

-- COLUMN report_sections.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.report_sections TO memory_writer;

-- reports(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.reports(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(report_id text, mirofish_simulation_id text, graph_id text, title text, summary text, status text, simulation_requirement text, started_at timestamp with time zone, completed_at timestamp with time zone, error text, sections bigint, predictions bigint, metadata jsonb, source text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT r.report_id, r.mirofish_simulation_id, r.graph_id, r.title, r.summary, r.status,
           r.simulation_requirement, r.started_at, r.completed_at, r.error,
           (SELECT pg_catalog.count(*) FROM memory.report_sections AS s
             WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id AND s.report_key = r.report_key),
           (SELECT pg_catalog.count(*) FROM memory.predictions AS p
             WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id AND p.report_id = r.report_id),
           r.metadata, r.source
      FROM memory.reports AS r
     WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
     ORDER BY r.started_at DESC NULLS LAST, r.report_id;
$$;

ALTER FUNCTION memory.reports(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- reports; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.reports ENABLE ROW LEVEL SECURITY;

-- reports; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.reports (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    mirofish_simulation_id text,
    graph_id text,
    simulation_requirement text,
    title text,
    summary text,
    status text NOT NULL,
    started_at timestamp with time zone,
    completed_at timestamp with time zone,
    error text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    source text DEFAULT 'api'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT reports_metadata_check CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT reports_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.reports FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.reports OWNER TO memory_owner;

-- FUNCTION reports(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.reports(p_tenant_id uuid, p_simulation_id uuid) IS 'The reports of a simulation, newest first, with their section and prediction counts';

-- TABLE reports; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.reports IS 'MiroFish ReportAgent reports of a simulation (meta.json), one row per report';

-- FUNCTION reports(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.reports(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.reports(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;

-- TABLE reports; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.reports TO memory_reader;
GRANT INSERT ON TABLE memory.reports TO memory_writer;

-- reports owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.reports FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- reports owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.reports FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- reports readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.reports FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- reports reports_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.reports
    ADD CONSTRAINT reports_pkey PRIMARY KEY (tenant_id, simulation_id, report_key);

-- reports reports_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.reports
    ADD CONSTRAINT reports_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- reports writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.reports FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- reports writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.reports FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- reports writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.reports FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN reports.completed_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(completed_at) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.error; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(error) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.graph_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(graph_id) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.metadata; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(metadata) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.mirofish_simulation_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(mirofish_simulation_id) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.report_id; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(report_id) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.simulation_requirement; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(simulation_requirement) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.source; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(source) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.started_at; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.reports.started_at IS 'MiroFish''s created_at: when the report''s generation began';

-- COLUMN reports.started_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(started_at) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.status; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(status) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.summary; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(summary) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.title; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(title) ON TABLE memory.reports TO memory_writer;

-- COLUMN reports.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.reports TO memory_writer;

-- retention_rules; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.retention_rules ENABLE ROW LEVEL SECURITY;

-- retention_rules; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.retention_rules (
    tenant_id uuid NOT NULL,
    keep_days integer,
    compact_similarity real,
    compact_drop boolean DEFAULT false NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by name DEFAULT SESSION_USER NOT NULL,
    CONSTRAINT retention_rules_keep_days_check CHECK ((keep_days >= 1)),
    CONSTRAINT retention_rules_similarity_check CHECK (((compact_similarity > (0.9)::double precision) AND (compact_similarity < (1)::double precision)))
);

ALTER TABLE ONLY memory.retention_rules FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.retention_rules OWNER TO memory_owner;

-- TABLE retention_rules; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.retention_rules IS 'Per-tenant retention (simulations older than keep_days) and compaction policy, applied by memory.sweep()';

-- TABLE retention_rules; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.retention_rules TO memory_reader;

-- retention_rules owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.retention_rules FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- retention_rules owner_changes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.retention_rules FOR UPDATE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- retention_rules owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.retention_rules FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- retention_rules owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.retention_rules FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- retention_rules readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.retention_rules FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- retention_rules retention_rules_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.retention_rules
    ADD CONSTRAINT retention_rules_pkey PRIMARY KEY (tenant_id);

-- retention_rules retention_rules_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.retention_rules
    ADD CONSTRAINT retention_rules_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- revoke_api_key(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.revoke_api_key(p_tenant_id uuid, p_key_id uuid) RETURNS TABLE(role_name name, revoked_at timestamp with time zone)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_role name;
    v_at   timestamptz;
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the tenant of the key');
    PERFORM memory._not_null(p_key_id, 'p_key_id', 'pass the id `swarm-memory key list` shows');
    UPDATE memory.api_keys AS k SET revoked_at = COALESCE(k.revoked_at, pg_catalog.now())
     WHERE k.tenant_id = p_tenant_id AND k.key_id = p_key_id
    RETURNING k.role_name, k.revoked_at INTO v_role, v_at;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown key % of tenant %', p_key_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the keys with memory.api_keys(tenant)';
    END IF;
    PERFORM memory.revoke_tenant(v_role, p_tenant_id);
    RETURN QUERY SELECT v_role, v_at;
END
$$;

ALTER FUNCTION memory.revoke_api_key(p_tenant_id uuid, p_key_id uuid) OWNER TO memory_owner;

-- FUNCTION revoke_api_key(p_tenant_id uuid, p_key_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.revoke_api_key(p_tenant_id uuid, p_key_id uuid) IS 'Revoke an API key and end its role''s grant for the tenant; memory_admin only';

-- FUNCTION revoke_api_key(p_tenant_id uuid, p_key_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.revoke_api_key(p_tenant_id uuid, p_key_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.revoke_api_key(p_tenant_id uuid, p_key_id uuid) TO memory_admin;

-- revoke_tenant(name, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.revoke_tenant(p_role name, p_tenant_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF p_role IS NULL OR p_tenant_id IS NULL THEN
        RAISE EXCEPTION 'p_role and p_tenant_id must not be NULL (got %, %)', p_role, p_tenant_id
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name the role and tenant of the grant';
    END IF;
    PERFORM memory._end_grant(p_tenant_id, r.oid)
       FROM pg_catalog.pg_roles AS r
      WHERE r.rolname = p_role;
END
$$;

ALTER FUNCTION memory.revoke_tenant(p_role name, p_tenant_id uuid) OWNER TO memory_owner;

-- FUNCTION revoke_tenant(p_role name, p_tenant_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.revoke_tenant(p_role name, p_tenant_id uuid) IS 'Take a role''s grant (by OID) for a tenant away; memory_admin only';

-- FUNCTION revoke_tenant(p_role name, p_tenant_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.revoke_tenant(p_role name, p_tenant_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.revoke_tenant(p_role name, p_tenant_id uuid) TO memory_admin;

-- rls_audit(); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.rls_audit() RETURNS TABLE(table_name text, rls_enabled boolean, rls_forced boolean, policies text[], ok boolean, problem text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
    WITH t AS (
        SELECT c.oid, c.relname AS table_name, c.relrowsecurity, c.relforcerowsecurity, c.relowner, c.relacl
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p')
    ), actual AS (
        SELECT p.tablename AS table_name, p.policyname AS policy_name, p.permissive = 'PERMISSIVE' AS permissive,
               ARRAY(SELECT x FROM pg_catalog.unnest(p.roles) AS x ORDER BY x) AS roles,
               p.cmd AS command, p.qual, p.with_check
          FROM pg_catalog.pg_policies AS p
         WHERE p.schemaname = 'memory'
    ), expected AS (
        SELECT e.table_name, e.policy_name, e.permissive,
               ARRAY(SELECT x FROM pg_catalog.unnest(e.roles) AS x ORDER BY x) AS roles,
               e.command, e.qual, e.with_check
          FROM memory._installed_policies() AS e
    ), policy_problems AS (
        SELECT COALESCE(a.table_name, x.table_name) AS table_name,
               pg_catalog.string_agg(CASE
                   WHEN x.policy_name IS NULL THEN pg_catalog.format(
                       'policy %s is not one the migrations install (%s FOR %s TO %s USING %s WITH CHECK %s): DROP POLICY %I ON memory.%I',
                       a.policy_name, CASE WHEN a.permissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END, a.command,
                       pg_catalog.array_to_string(a.roles, ', '), pg_catalog.left(COALESCE(a.qual, '-'), 200),
                       pg_catalog.left(COALESCE(a.with_check, '-'), 200), a.policy_name, a.table_name)
                   WHEN a.policy_name IS NULL THEN pg_catalog.format(
                       'installed policy %s is missing: run migrate, which re-creates it', x.policy_name)
                   ELSE pg_catalog.format(
                       'policy %s differs from its installed form (%s FOR %s TO %s USING %s WITH CHECK %s): run migrate, which re-creates it',
                       a.policy_name, CASE WHEN a.permissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END, a.command,
                       pg_catalog.array_to_string(a.roles, ', '), pg_catalog.left(COALESCE(a.qual, '-'), 200),
                       pg_catalog.left(COALESCE(a.with_check, '-'), 200))
               END, '; ' ORDER BY COALESCE(a.policy_name, x.policy_name)) AS problems
          FROM actual AS a
          FULL JOIN expected AS x ON x.table_name = a.table_name AND x.policy_name = a.policy_name
         WHERE (a.permissive, a.roles, a.command, a.qual, a.with_check)
               IS DISTINCT FROM (x.permissive, x.roles, x.command, x.qual, x.with_check)
         GROUP BY 1
    ), acl AS (
        SELECT t.oid, a.grantee, a.privilege_type AS privilege
          FROM t CROSS JOIN LATERAL pg_catalog.aclexplode(t.relacl) AS a
        UNION ALL
        SELECT t.oid, a.grantee, a.privilege_type || ' (' || att.attname || ')'
          FROM t
          JOIN pg_catalog.pg_attribute AS att
            ON att.attrelid = t.oid AND att.attnum > 0 AND NOT att.attisdropped AND att.attacl IS NOT NULL
          CROSS JOIN LATERAL pg_catalog.aclexplode(att.attacl) AS a
    ), foreign_grantees AS (
        SELECT acl.oid,
               CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE pg_catalog.quote_ident(r.rolname) END AS grantee,
               pg_catalog.string_agg(DISTINCT acl.privilege, ', ') AS privileges
          FROM acl
          JOIN t ON t.oid = acl.oid
          LEFT JOIN pg_catalog.pg_roles AS r ON r.oid = acl.grantee
         WHERE acl.grantee <> t.relowner
           AND (acl.grantee = 0 OR r.rolname <> ALL (memory._group_roles()))
         GROUP BY acl.oid, 2
    ), foreign_privileges AS (
        SELECT f.oid,
               pg_catalog.string_agg(f.grantee || ' (' || f.privileges || ')', ', ' ORDER BY f.grantee) AS held,
               pg_catalog.string_agg(f.grantee, ', ' ORDER BY f.grantee) AS grantees
          FROM foreign_grantees AS f
         GROUP BY f.oid
    ), reach AS (
        -- Every role whose privileges reach a table (0: PUBLIC, i.e. every role).
        SELECT t.oid, t.relowner AS grantee FROM t
        UNION
        SELECT acl.oid, acl.grantee FROM acl
    ), bypass AS (
        SELECT reach.oid, pg_catalog.array_agg(DISTINCT r.rolname::text ORDER BY r.rolname::text) AS bypass_roles
          FROM reach
          JOIN pg_catalog.pg_roles AS r
            ON r.rolbypassrls AND NOT r.rolsuper
           AND (reach.grantee = 0 OR pg_catalog.pg_has_role(r.oid, reach.grantee, 'MEMBER'))
         GROUP BY reach.oid
    ), p AS (
        SELECT t.oid, pg_catalog.array_agg(pol.polname::text ORDER BY pol.polname)
                          FILTER (WHERE pol.polname IS NOT NULL) AS policies
          FROM t LEFT JOIN pg_catalog.pg_policy AS pol ON pol.polrelid = t.oid
         GROUP BY t.oid
    ), table_rows AS (
        SELECT t.table_name::text AS table_name, t.relrowsecurity AS rls_enabled, t.relforcerowsecurity AS rls_forced,
               COALESCE(p.policies, '{}') AS policies,
               pg_catalog.array_remove(ARRAY[
                   CASE WHEN NOT t.relrowsecurity THEN 'row level security is disabled' END,
                   CASE WHEN NOT t.relforcerowsecurity THEN 'row level security is not forced (the owner bypasses it)' END,
                   CASE WHEN p.policies IS NULL THEN 'no policy' END,
                   pp.problems,
                   CASE WHEN t.relowner <> 'memory_owner'::regrole
                        THEN pg_catalog.format('belongs to %s instead of memory_owner: run migrate, which hands every memory object to memory_owner',
                                               t.relowner::regrole) END,
                   CASE WHEN fp.oid IS NOT NULL
                        THEN pg_catalog.format('privileges held outside the memory group roles: %s: REVOKE ALL ON memory.%I FROM %s',
                                               fp.held, t.table_name, fp.grantees) END,
                   CASE WHEN b.bypass_roles IS NOT NULL
                        THEN 'roles with BYPASSRLS can reach it: ' || pg_catalog.array_to_string(b.bypass_roles, ', ')
                             || ': ALTER ROLE ... NOBYPASSRLS, or revoke their memory roles' END
               ], NULL) AS problems
          FROM t
          JOIN p ON p.oid = t.oid
          LEFT JOIN policy_problems AS pp ON pp.table_name = t.table_name
          LEFT JOIN foreign_privileges AS fp ON fp.oid = t.oid
          LEFT JOIN bypass AS b ON b.oid = t.oid
    ), other_rows AS (
        -- Views and materialized views over memory tables, anywhere in the database.
        SELECT CASE v.relkind WHEN 'm' THEN 'materialized view ' ELSE 'view ' END || v.oid::regclass::text AS subject,
               pg_catalog.format('%s reads memory tables (%s) outside the API''s grant check (a view with its owner''s rights, a materialized view from a copy): DROP %s %s',
                                 CASE v.relkind WHEN 'm' THEN 'materialized view ' ELSE 'view ' END || v.oid::regclass::text,
                                 pg_catalog.string_agg(DISTINCT t.table_name::text, ', '),
                                 CASE v.relkind WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'VIEW' END, v.oid::regclass::text) AS problem
          FROM pg_catalog.pg_depend AS d
          JOIN pg_catalog.pg_rewrite AS w ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND w.oid = d.objid
          JOIN pg_catalog.pg_class AS v ON v.oid = w.ev_class
          JOIN t ON d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid = t.oid
         WHERE v.relkind IN ('v', 'm') AND v.oid <> t.oid
         GROUP BY v.oid, v.relkind
        UNION ALL
        -- Roles that act as the owner of every memory table.
        SELECT 'role ' || r.rolname,
               pg_catalog.format('role %s has the privileges of memory_owner or may SET ROLE to it: as the owner of every memory table it can switch row level security off, change the policies and read any tenant: REVOKE memory_owner FROM %I',
                                 r.rolname, r.rolname)
          FROM pg_catalog.pg_roles AS r
         WHERE NOT r.rolsuper AND r.rolname <> 'memory_owner'
           AND (pg_catalog.pg_has_role(r.oid, 'memory_owner', 'USAGE') OR pg_catalog.pg_has_role(r.oid, 'memory_owner', 'SET'))
        UNION ALL
        -- Tenants granted to a shared group role, and grants whose role was dropped.
        SELECT pg_catalog.format('grant of tenant %s to %s', g.tenant_id, COALESCE(r.rolname, g.role_name)),
               CASE WHEN r.oid IS NULL
                    THEN pg_catalog.format('the role granted tenant %s (%s, OID %s) was dropped: the grant authorises nobody; memory.grant_tenant() removes such grants',
                                           g.tenant_id, g.role_name, g.role_oid)
                    ELSE pg_catalog.format('tenant %s is granted to the shared group role %s, so every member of it acts for the tenant: SELECT memory.revoke_tenant(%L, %L), and grant the tenant to the application''s own role',
                                           g.tenant_id, r.rolname, r.rolname, g.tenant_id) END
          FROM memory.tenant_grants AS g
          LEFT JOIN pg_catalog.pg_roles AS r ON r.oid = g.role_oid
         WHERE r.oid IS NULL OR r.rolname = ANY (memory._group_roles())
        UNION ALL
        -- The grant's map of node role OIDs (V0024), which decides who acts for the tenant
        -- wherever it is set: on one node it has no business at all; on a cluster this node's
        -- entry must name a role that exists and is not a shared group role.
        SELECT pg_catalog.format('grant of tenant %s to %s', g.tenant_id, g.role_name),
               CASE WHEN NOT memory._on_cluster()
                    THEN pg_catalog.format('the grant of tenant %s to %s carries node role OIDs %s on a single node, where the grant''s own role is the one that counts: they would let those roles act for the tenant; SELECT memory.revoke_tenant(%L, %L) and grant it again',
                                           g.tenant_id, g.role_name, g.node_role_oids::text, g.role_name, g.tenant_id)
                    WHEN nr.oid IS NULL
                    THEN pg_catalog.format('the grant of tenant %s to %s names, for node %s, OID %s, which is no role here: SELECT memory.revoke_tenant(%L, %L) and grant it again',
                                           g.tenant_id, g.role_name, m.node, m.role_oid, g.role_name, g.tenant_id)
                    ELSE pg_catalog.format('the grant of tenant %s to %s names, for node %s, the shared group role %s, so every member of it acts for the tenant: SELECT memory.revoke_tenant(%L, %L) and grant it again',
                                           g.tenant_id, g.role_name, m.node, nr.rolname, g.role_name, g.tenant_id) END
          FROM memory.tenant_grants AS g
          CROSS JOIN LATERAL (SELECT e.key AS node, e.value AS role_oid
                                FROM pg_catalog.jsonb_each_text(
                                         CASE WHEN pg_catalog.jsonb_typeof(g.node_role_oids) = 'object'
                                              THEN g.node_role_oids ELSE '{"?": null}'::jsonb END) AS e) AS m
          LEFT JOIN pg_catalog.pg_roles AS nr
            ON nr.oid = CASE WHEN m.role_oid ~ '^[0-9]{1,10}$' AND m.role_oid::pg_catalog.int8 < 4294967296
                             THEN m.role_oid::pg_catalog.int8::pg_catalog.oid END
         WHERE g.node_role_oids IS NOT NULL
           AND (NOT memory._on_cluster()
                OR (m.node = memory._node_group()::text
                    AND (nr.oid IS NULL OR nr.rolname = ANY (memory._group_roles()))))
        UNION ALL
        -- Code: every function of the schema against what the release installed
        -- (memory._installed_functions, written by make schema from a fresh migrate).
        SELECT 'function ' || COALESCE(f.signature, i.signature),
               CASE WHEN i.signature IS NULL
                    THEN pg_catalog.format('function %s is not one the release installs: it runs with its owner''s rights; DROP FUNCTION %s',
                                           f.signature, f.signature)
                    WHEN f.signature IS NULL
                    THEN pg_catalog.format('installed function %s is missing: run migrate, which re-creates it', i.signature)
                    ELSE pg_catalog.format('function %s differs from what the release installed (%s): run migrate, which re-creates it, and find out who changed it',
                                           f.signature, pg_catalog.concat_ws('; ',
                         CASE WHEN f.body_md5 <> i.body_md5 THEN 'its definition' END,
                         CASE WHEN f.security <> i.security THEN pg_catalog.format('security %s, installed %s', f.security, i.security) END,
                         CASE WHEN f.owner <> i.owner THEN pg_catalog.format('owner %s, installed %s', f.owner, i.owner) END,
                         CASE WHEN f.config <> i.config THEN pg_catalog.format('configuration %s, installed %s', NULLIF(f.config, ''), NULLIF(i.config, '')) END,
                         CASE WHEN f.acl <> i.acl THEN pg_catalog.format('privileges %s, installed %s', NULLIF(f.acl, ''), NULLIF(i.acl, '')) END)) END
          FROM memory._function_fingerprints() AS f
          FULL JOIN memory._installed_functions() AS i ON i.signature = f.signature
         WHERE COALESCE(f.signature, '') <> 'memory._installed_functions()'
           AND CASE WHEN i.signature IS NULL THEN true
                    WHEN f.signature IS NULL THEN NOT i.cluster_only
                    ELSE (f.security, f.owner, f.config, f.acl, f.body_md5)
                         IS DISTINCT FROM (i.security, i.owner, i.config, i.acl, i.body_md5) END
    )
    SELECT s.table_name, s.rls_enabled, s.rls_forced, s.policies, s.ok, s.problem
      FROM (SELECT 0 AS section, r.table_name, r.rls_enabled, r.rls_forced, r.policies,
                   pg_catalog.cardinality(r.problems) = 0 AS ok,
                   NULLIF(pg_catalog.array_to_string(r.problems, '; '), '') AS problem
              FROM table_rows AS r
            UNION ALL
            SELECT 1, o.subject, NULL, NULL, '{}', false, o.problem
              FROM other_rows AS o) AS s
     ORDER BY s.section, s.table_name
$_$;

ALTER FUNCTION memory.rls_audit() OWNER TO memory_owner;

-- FUNCTION rls_audit(); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.rls_audit() IS 'Every table of schema memory with its RLS state, policies and problems, plus a row for each view over memory tables, role acting as memory_owner and grant to a group or dropped role; memory_admin';

-- FUNCTION rls_audit(); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.rls_audit() FROM PUBLIC;
GRANT ALL ON FUNCTION memory.rls_audit() TO memory_admin;

-- route(text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.route(p_query_text text) RETURNS TABLE(target text, signals jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $_$
DECLARE
    v_text text := pg_catalog.lower(COALESCE(p_query_text, ''));
BEGIN
    PERFORM memory._not_null(p_query_text, 'p_query_text', 'pass the question as text');
    IF v_text OPERATOR(pg_catalog.!~) '[^[:space:]]' THEN
        RAISE EXCEPTION 'p_query_text is empty'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the question as text';
    END IF;
    PERFORM memory._check_limit('question_bytes', 'p_query_text', pg_catalog.octet_length(p_query_text));
    RETURN QUERY
    SELECT CASE WHEN pg_catalog.bool_or(m.target = 'graph') AND NOT pg_catalog.bool_or(m.target = 'vector') THEN 'graph'
                WHEN pg_catalog.bool_or(m.target = 'vector') AND NOT pg_catalog.bool_or(m.target = 'graph') THEN 'vector'
                ELSE 'hybrid' END,
           COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('phrase', m.phrase, 'target', m.target)
                                         ORDER BY m.at, m.phrase) FILTER (WHERE m.phrase IS NOT NULL), '[]'::jsonb)
      FROM (SELECT r.phrase, r.target,
                   CASE WHEN r.phrase OPERATOR(pg_catalog.~) '^[a-z0-9 ''-]+$'
                        THEN pg_catalog.strpos(v_text, r.phrase) * (v_text OPERATOR(pg_catalog.~)
                             ('\m' || r.phrase || '\M'))::integer
                        ELSE pg_catalog.strpos(v_text, r.phrase) END AS at
              FROM memory.route_rules AS r) AS m
     WHERE m.at > 0;
END
$_$;

ALTER FUNCTION memory.route(p_query_text text) OWNER TO memory_owner;

-- FUNCTION route(p_query_text text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.route(p_query_text text) IS 'Route a question to the graph, to meaning or to both, with the phrases of memory.route_rules that decided it';

-- FUNCTION route(p_query_text text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.route(p_query_text text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.route(p_query_text text) TO memory_reader;

-- route_rules; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.route_rules ENABLE ROW LEVEL SECURITY;

-- route_rules; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.route_rules (
    phrase text NOT NULL,
    target text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT route_rules_phrase_check CHECK (((btrim(phrase) <> ''::text) AND (char_length(phrase) <= 200))),
    CONSTRAINT route_rules_target_check CHECK ((target = ANY (ARRAY['graph'::text, 'vector'::text])))
);

ALTER TABLE ONLY memory.route_rules FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.route_rules OWNER TO memory_owner;

-- TABLE route_rules; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.route_rules IS 'Phrases that send a question to the graph or to meaning (memory.route); changed by memory_admin through memory.set_route_rule';

-- TABLE route_rules; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.route_rules TO memory_reader;
GRANT SELECT ON TABLE memory.route_rules TO memory_admin;

-- route_rules owner_manages_every_rule; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_manages_every_rule ON memory.route_rules TO memory_owner USING (true) WITH CHECK (true);

-- route_rules roles_read_every_rule; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY roles_read_every_rule ON memory.route_rules FOR SELECT TO memory_reader, memory_admin USING (true);

-- route_rules route_rules_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.route_rules
    ADD CONSTRAINT route_rules_pkey PRIMARY KEY (phrase);

-- row_history; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.row_history ENABLE ROW LEVEL SECURITY;

-- row_history; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.row_history (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    history_id bigint NOT NULL,
    kind text NOT NULL,
    row_id text NOT NULL,
    recorded_from timestamp with time zone NOT NULL,
    recorded_to timestamp with time zone NOT NULL,
    change text NOT NULL,
    attempt_id uuid,
    data jsonb NOT NULL,
    CONSTRAINT row_history_change_check CHECK ((change = ANY (ARRAY['updated'::text, 'removed'::text]))),
    CONSTRAINT row_history_interval_check CHECK ((recorded_to >= recorded_from)),
    CONSTRAINT row_history_kind_check CHECK ((kind = ANY (ARRAY['nodes'::text, 'edges'::text, 'episodes'::text])))
);

ALTER TABLE ONLY memory.row_history FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.row_history OWNER TO memory_owner;

-- TABLE row_history; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.row_history IS 'Versions of nodes, edges and episodes that a change ended, with when they were the memory''s word (append-only)';

-- TABLE row_history; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.row_history TO memory_reader;

-- row_history owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.row_history FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- row_history owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.row_history FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- row_history owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.row_history FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- row_history readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.row_history FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- row_history row_history_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.row_history
    ADD CONSTRAINT row_history_pkey PRIMARY KEY (tenant_id, history_id);

-- row_history row_history_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.row_history
    ADD CONSTRAINT row_history_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- row_history_history_id_seq; Type: SEQUENCE; Schema: memory; Owner: memory_owner
ALTER TABLE memory.row_history ALTER COLUMN history_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME memory.row_history_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- row_history_known_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX row_history_known_idx ON memory.row_history USING btree (tenant_id, simulation_id, kind, recorded_to);

-- row_history_row_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX row_history_row_idx ON memory.row_history USING btree (tenant_id, simulation_id, kind, row_id, recorded_from);

-- search_builds; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.search_builds ENABLE ROW LEVEL SECURITY;

-- search_builds; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.search_builds (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    build_no bigint NOT NULL,
    sim_no bigint NOT NULL,
    change_id bigint,
    episodes bigint NOT NULL,
    points bigint NOT NULL,
    clumps integer NOT NULL,
    clumped bigint NOT NULL,
    indexed boolean NOT NULL,
    m integer NOT NULL,
    ef_construction integer NOT NULL,
    built_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT search_builds_counts_check CHECK (((episodes >= 0) AND (points >= 0) AND (clumps >= 0) AND (clumped >= 0)))
);

ALTER TABLE ONLY memory.search_builds FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.search_builds OWNER TO memory_owner;

-- TABLE search_builds; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.search_builds IS 'What swarm-memory index found in a simulation for search_episodes: its clumps and representatives, and the change it saw (memory._clump_build)';

-- TABLE search_builds; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.search_builds TO memory_reader;

-- search_builds owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.search_builds FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_builds owner_changes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.search_builds FOR UPDATE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_builds owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.search_builds FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_builds owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.search_builds FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_builds readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.search_builds FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_builds search_builds_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_builds
    ADD CONSTRAINT search_builds_pkey PRIMARY KEY (tenant_id, simulation_id, build_no);

-- search_builds search_builds_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_builds
    ADD CONSTRAINT search_builds_simulation_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no) REFERENCES memory.simulations(tenant_id, simulation_id, sim_no) ON DELETE CASCADE;

-- search_builds_build_no_seq; Type: SEQUENCE; Schema: memory; Owner: memory_owner
ALTER TABLE memory.search_builds ALTER COLUMN build_no ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME memory.search_builds_build_no_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- search_clump_chunks; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.search_clump_chunks ENABLE ROW LEVEL SECURITY;

-- search_clump_chunks; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.search_clump_chunks (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    build_no bigint NOT NULL,
    clump_no integer NOT NULL,
    chunk_no integer NOT NULL,
    embeddings public.halfvec(384)[] NOT NULL,
    keys uuid[] NOT NULL,
    key_ends integer[] NOT NULL,
    CONSTRAINT search_clump_chunks_shape_check CHECK (((cardinality(embeddings) >= 1) AND (cardinality(key_ends) = cardinality(embeddings)) AND (key_ends[cardinality(key_ends)] = cardinality(keys))))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY memory.search_clump_chunks ALTER COLUMN embeddings SET STORAGE MAIN;

ALTER TABLE ONLY memory.search_clump_chunks FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.search_clump_chunks OWNER TO memory_owner;

-- TABLE search_clump_chunks; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.search_clump_chunks IS 'The distinct vectors of a clump, a few to a row, and the episodes holding each: what search_episodes reads to rank a clump exactly';

-- TABLE search_clump_chunks; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.search_clump_chunks TO memory_reader;

-- search_clump_chunks owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.search_clump_chunks FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clump_chunks owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.search_clump_chunks FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clump_chunks owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.search_clump_chunks FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clump_chunks readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.search_clump_chunks FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clump_chunks search_clump_chunks_clump_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_clump_chunks
    ADD CONSTRAINT search_clump_chunks_clump_fkey FOREIGN KEY (tenant_id, simulation_id, build_no, clump_no) REFERENCES memory.search_clumps(tenant_id, simulation_id, build_no, clump_no) ON DELETE CASCADE;

-- search_clump_chunks search_clump_chunks_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_clump_chunks
    ADD CONSTRAINT search_clump_chunks_pkey PRIMARY KEY (tenant_id, simulation_id, build_no, clump_no, chunk_no);

-- search_clumps; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.search_clumps ENABLE ROW LEVEL SECURITY;

-- search_clumps; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.search_clumps (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    build_no bigint NOT NULL,
    clump_no integer NOT NULL,
    leader public.halfvec(384) NOT NULL,
    members integer NOT NULL,
    vectors integer NOT NULL,
    agent_ids integer[] NOT NULL,
    CONSTRAINT search_clumps_counts_check CHECK (((members >= vectors) AND (vectors >= 1)))
);

ALTER TABLE ONLY memory.search_clumps FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.search_clumps OWNER TO memory_owner;

-- TABLE search_clumps; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.search_clumps IS 'The clumps of near-copies (cosine > 0.99 of a leader) of an indexed simulation, read whole by search_episodes when near a question';

-- TABLE search_clumps; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.search_clumps TO memory_reader;

-- search_clumps owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.search_clumps FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clumps owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.search_clumps FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clumps owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.search_clumps FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clumps readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.search_clumps FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_clumps search_clumps_build_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_clumps
    ADD CONSTRAINT search_clumps_build_fkey FOREIGN KEY (tenant_id, simulation_id, build_no) REFERENCES memory.search_builds(tenant_id, simulation_id, build_no) ON DELETE CASCADE;

-- search_clumps search_clumps_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_clumps
    ADD CONSTRAINT search_clumps_pkey PRIMARY KEY (tenant_id, simulation_id, build_no, clump_no);

-- search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamp with time zone, timestamp with time zone, boolean, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer DEFAULT 10, p_agent_id integer DEFAULT NULL::integer, p_round_from integer DEFAULT NULL::integer, p_round_to integer DEFAULT NULL::integer, p_from timestamp with time zone DEFAULT NULL::timestamp with time zone, p_to timestamp with time zone DEFAULT NULL::timestamp with time zone, p_collapse boolean DEFAULT false, p_model text DEFAULT NULL::text) RETURNS TABLE(episode_id text, agent_id integer, agent_name text, platform text, round integer, action_type text, content text, occurred_at timestamp with time zone, similarity double precision, copies integer, agents integer)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    RETURN QUERY SELECT * FROM memory._search_episodes(
        p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_query => p_query,
        p_top_k => p_top_k, p_agent_id => p_agent_id, p_round_from => p_round_from,
        p_round_to => p_round_to, p_from => p_from, p_to => p_to, p_collapse => p_collapse,
        p_model => p_model, p_pool => NULL);
END
$$;

ALTER FUNCTION memory.search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text) OWNER TO memory_owner;

-- FUNCTION search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text) IS 'Semantic search over a simulation''s episodes (cosine), best first, optionally within a round range and a time window, near-identical hits optionally collapsed into one row with their copies and agents; top_k clamped to 1..100';

-- FUNCTION search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.search_episodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_agent_id integer, p_round_from integer, p_round_to integer, p_from timestamp with time zone, p_to timestamp with time zone, p_collapse boolean, p_model text) TO memory_reader;

-- search_facts(uuid, uuid, public.vector, integer, text, timestamp with time zone, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer DEFAULT 10, p_state text DEFAULT 'current'::text, p_as_of timestamp with time zone DEFAULT NULL::timestamp with time zone, p_model text DEFAULT NULL::text) RETURNS TABLE(edge_id text, type text, fact text, source_id text, source_name text, target_id text, target_name text, valid_at timestamp with time zone, invalid_at timestamp with time zone, state text, similarity double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    PERFORM memory._check_fact_state(p_state);
    -- each end named by a probe of the primary key (a join was planned as two hash joins over
    -- all the simulation's nodes, for at most 100 facts)
    RETURN QUERY
    SELECT f.edge_id, f.type, f.fact,
           f.source_id, (SELECT s.name FROM memory.nodes AS s
                          WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id AND s.node_key = f.source_key),
           f.target_id, (SELECT t.name FROM memory.nodes AS t
                          WHERE t.tenant_id = p_tenant_id AND t.simulation_id = p_simulation_id AND t.node_key = f.target_key),
           f.valid_at, f.invalid_at, f.state, f.similarity
      FROM memory._search_facts(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                p_query => p_query, p_top_k => p_top_k, p_state => p_state,
                                p_as_of => p_as_of, p_breadth => NULL) AS f
     ORDER BY f.similarity DESC, f.edge_id;
END
$$;

ALTER FUNCTION memory.search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_model text) OWNER TO memory_owner;

-- FUNCTION search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_model text) IS 'Semantic search over a simulation''s facts (cosine), current ones by default, best first; top_k clamped to 1..100';

-- FUNCTION search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.search_facts(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_state text, p_as_of timestamp with time zone, p_model text) TO memory_reader;

-- search_nodes(uuid, uuid, public.vector, integer, text, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer DEFAULT 10, p_type text DEFAULT NULL::text, p_by text DEFAULT 'name'::text, p_model text DEFAULT NULL::text) RETURNS TABLE(node_id text, name text, type text, summary text, similarity double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    PERFORM memory._not_null(p_by, 'p_by', 'pass ''name'', ''summary'', ''both'' or ''meaning''');
    PERFORM memory._one_of('p_by', p_by, '{name, summary, both, meaning}');
    RETURN QUERY SELECT * FROM memory._search_nodes(
        p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_query => p_query,
        p_top_k => p_top_k, p_type => p_type, p_by => p_by, p_breadth => NULL);
END
$$;

ALTER FUNCTION memory.search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_model text) OWNER TO memory_owner;

-- FUNCTION search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_model text) IS 'Semantic search over a simulation''s entities by name, summary, both or meaning (cosine), best first, through its entity indexes where they exist; top_k clamped to 1..100';

-- FUNCTION search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.search_nodes(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_type text, p_by text, p_model text) TO memory_reader;

-- search_points; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.search_points ENABLE ROW LEVEL SECURITY;

-- search_points; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.search_points (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    build_no bigint NOT NULL,
    point_no integer NOT NULL,
    embedding public.halfvec(384) NOT NULL,
    keys uuid[] NOT NULL,
    CONSTRAINT search_points_keys_check CHECK ((cardinality(keys) >= 1))
);

ALTER TABLE ONLY memory.search_points FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.search_points OWNER TO memory_owner;

-- TABLE search_points; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.search_points IS 'The representatives of an indexed simulation: each distinct vector outside its clumps once, with the episodes holding it';

-- TABLE search_points; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.search_points TO memory_reader;

-- search_points owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.search_points FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_points owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.search_points FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_points owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.search_points FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_points readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.search_points FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- search_points search_points_build_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_points
    ADD CONSTRAINT search_points_build_fkey FOREIGN KEY (tenant_id, simulation_id, build_no) REFERENCES memory.search_builds(tenant_id, simulation_id, build_no) ON DELETE CASCADE;

-- search_points search_points_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.search_points
    ADD CONSTRAINT search_points_pkey PRIMARY KEY (tenant_id, simulation_id, build_no, point_no);

-- search_reports(uuid, uuid, public.vector, integer, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.search_reports(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer DEFAULT 10, p_report_id text DEFAULT NULL::text, p_model text DEFAULT NULL::text) RETURNS TABLE(report_id text, section_index integer, section_title text, chunk_index integer, content text, similarity double precision)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id) WHERE p_report_id IS NULL;
    PERFORM memory._require_row('reports', p_tenant_id, p_simulation_id, p_report_id) WHERE p_report_id IS NOT NULL;
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    RETURN QUERY
    SELECT c.report_id, c.section_index, s.title, c.chunk_index, c.content,
           1 - (c.embedding OPERATOR(public.<=>) p_query::public.vector(384))
      FROM memory.report_chunks AS c
      JOIN memory.report_sections AS s
        ON s.tenant_id = c.tenant_id AND s.simulation_id = c.simulation_id
       AND s.report_key = c.report_key AND s.section_index = c.section_index
     WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
       AND c.embedding IS NOT NULL
       AND (p_report_id IS NULL OR c.report_key = pg_catalog.md5(p_report_id)::uuid)
     ORDER BY c.embedding OPERATOR(public.<=>) p_query::public.vector(384), c.chunk_id
     LIMIT memory._top_k(p_top_k);
END
$$;

ALTER FUNCTION memory.search_reports(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_report_id text, p_model text) OWNER TO memory_owner;

-- FUNCTION search_reports(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_report_id text, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.search_reports(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_report_id text, p_model text) IS 'Semantic search over a simulation''s report sections (chunks, cosine), best first; top_k clamped to 1..100';

-- FUNCTION search_reports(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_report_id text, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.search_reports(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_report_id text, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.search_reports(p_tenant_id uuid, p_simulation_id uuid, p_query public.vector, p_top_k integer, p_report_id text, p_model text) TO memory_reader;

-- search_words(uuid, uuid, text, integer, text[]); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer DEFAULT 10, p_kinds text[] DEFAULT NULL::text[]) RETURNS TABLE(kind text, id text, text text, score real, matched text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._words_prepare(p_query_text, 'p_query_text');
    IF p_kinds IS NOT NULL AND (pg_catalog.cardinality(p_kinds) = 0
                                OR NOT p_kinds OPERATOR(pg_catalog.<@) ARRAY['episode', 'fact', 'entity']) THEN
        RAISE EXCEPTION 'p_kinds % names no kind or an unknown one', memory._quote(p_kinds::text)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass some of episode, fact, entity, or NULL for all';
    END IF;
    RETURN QUERY SELECT w.kind, w.id, w.text, w.score, w.matched FROM memory._search_words(
        p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
        p_query_text => p_query_text, p_top_k => p_top_k, p_kinds => p_kinds,
        p_name_keys => NULL, p_name_sims => NULL) AS w;
END
$$;

ALTER FUNCTION memory.search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[]) OWNER TO memory_owner;

-- FUNCTION search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[]); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[]) IS 'Words arm: full-text search (English stemmed, CJK bigrams) over episodes, facts and entities with trigram name matching, best first; top_k clamped to 1..100';

-- FUNCTION search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[]); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.search_words(p_tenant_id uuid, p_simulation_id uuid, p_query_text text, p_top_k integer, p_kinds text[]) TO memory_reader;

-- set_model(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_current text;
    v_other   text;
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._model(p_model);
    SELECT s.embedding_model INTO v_current FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown simulation % for tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'create it with memory.upsert_simulation()';
    END IF;
    IF v_current = p_model THEN
        RETURN p_model;
    END IF;
    SELECT m.model INTO v_other
      FROM (SELECT n.embedding_model AS model FROM memory.nodes AS n
             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
               AND n.embedding_model IS DISTINCT FROM p_model AND n.embedding IS NOT NULL
            UNION ALL
            SELECT e.embedding_model FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding_model IS DISTINCT FROM p_model AND e.embedding IS NOT NULL
            UNION ALL
            SELECT e.embedding_model FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding_model IS DISTINCT FROM p_model AND e.embedding IS NOT NULL
            UNION ALL
            SELECT c.embedding_model FROM memory.report_chunks AS c
             WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
               AND c.embedding_model IS DISTINCT FROM p_model AND c.embedding IS NOT NULL) AS m
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'simulation % holds vectors of model %, not %', p_simulation_id,
                        pg_catalog.quote_literal(v_other), pg_catalog.quote_literal(p_model)
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = pg_catalog.format('re-embed it online: swarm-memory reembed --model %s (memory.reembed_texts, memory.switch_model)', p_model);
    END IF;
    UPDATE memory.simulations AS s SET embedding_model = p_model
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    RETURN p_model;
END
$$;

ALTER FUNCTION memory.set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) OWNER TO memory_owner;

-- FUNCTION set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) IS 'Name the embedding model of a simulation (55000 while it holds vectors of another model: re-embed it)';

-- FUNCTION set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) TO memory_writer;

-- set_quota(uuid, text, bigint); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.set_quota(p_tenant_id uuid, p_kind text, p_max bigint) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    PERFORM memory._not_null(p_kind, 'p_kind', 'simulations, or a record kind such as nodes');
    IF p_kind <> 'simulations' AND NOT EXISTS (SELECT 1 FROM memory._record_kinds() AS k WHERE k.kind = p_kind) THEN
        RAISE EXCEPTION 'unknown quota kind %', memory._quote(p_kind)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of simulations, ' || (SELECT pg_catalog.string_agg(k.kind, ', ' ORDER BY k.ord)
                                                      FROM memory._record_kinds() AS k);
    END IF;
    IF p_max < 0 THEN
        RAISE EXCEPTION 'p_max must be 0 or more, not %', p_max
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the most the tenant may hold, or NULL for no cap';
    END IF;
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with memory.list_tenants()';
    END IF;
    IF p_max IS NULL THEN
        DELETE FROM memory.tenant_quotas AS q WHERE q.tenant_id = p_tenant_id AND q.kind = p_kind;
        RETURN;
    END IF;
    -- the time and the user come from the proposed row (Citus refuses functions that are
    -- not immutable in the DO UPDATE SET of a distributed table)
    INSERT INTO memory.tenant_quotas AS q (tenant_id, kind, max_rows, updated_at, updated_by)
    VALUES (p_tenant_id, p_kind, p_max, pg_catalog.now(), memory._acting_role())
    ON CONFLICT (tenant_id, kind) DO UPDATE
       SET max_rows = excluded.max_rows, updated_at = excluded.updated_at, updated_by = excluded.updated_by
     WHERE q.max_rows IS DISTINCT FROM excluded.max_rows;
END
$$;

ALTER FUNCTION memory.set_quota(p_tenant_id uuid, p_kind text, p_max bigint) OWNER TO memory_owner;

-- FUNCTION set_quota(p_tenant_id uuid, p_kind text, p_max bigint); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.set_quota(p_tenant_id uuid, p_kind text, p_max bigint) IS 'Set (or, with NULL, remove) a tenant''s cap on its simulations or its rows of a record kind; memory_admin only (SECURITY DEFINER)';

-- FUNCTION set_quota(p_tenant_id uuid, p_kind text, p_max bigint); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.set_quota(p_tenant_id uuid, p_kind text, p_max bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.set_quota(p_tenant_id uuid, p_kind text, p_max bigint) TO memory_admin;

-- set_retention(uuid, integer, real, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.set_retention(p_tenant_id uuid, p_keep_days integer, p_compact_similarity real DEFAULT NULL::real, p_compact_drop boolean DEFAULT false) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    PERFORM memory._not_null(p_compact_drop, 'p_compact_drop', 'pass true or false');
    IF p_keep_days < 1 THEN
        RAISE EXCEPTION 'p_keep_days must be at least 1, not %', p_keep_days
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a number of days, or NULL to keep every simulation';
    END IF;
    IF NOT (p_compact_similarity > 0.9 AND p_compact_similarity < 1) THEN
        RAISE EXCEPTION 'p_compact_similarity must be above 0.9 and below 1, not %', p_compact_similarity
            USING ERRCODE = 'invalid_parameter_value', HINT = pg_catalog.format('near duplicates are at %s and above; NULL: no compaction', memory._near_copy());
    END IF;
    IF p_keep_days IS NULL AND p_compact_similarity IS NULL THEN
        DELETE FROM memory.retention_rules AS r WHERE r.tenant_id = p_tenant_id;
        RETURN;
    END IF;
    BEGIN
        -- the time and the user come from the proposed row (Citus refuses functions that
        -- are not immutable in the DO UPDATE SET of a distributed table)
        INSERT INTO memory.retention_rules AS r (tenant_id, keep_days, compact_similarity, compact_drop,
                                                 updated_at, updated_by)
        VALUES (p_tenant_id, p_keep_days, p_compact_similarity, p_compact_drop, pg_catalog.now(), memory._acting_role())
        ON CONFLICT (tenant_id) DO UPDATE
           SET keep_days = excluded.keep_days, compact_similarity = excluded.compact_similarity,
               compact_drop = excluded.compact_drop, updated_at = excluded.updated_at,
               updated_by = excluded.updated_by
         WHERE (r.keep_days, r.compact_similarity, r.compact_drop)
               IS DISTINCT FROM (excluded.keep_days, excluded.compact_similarity, excluded.compact_drop);
    EXCEPTION WHEN foreign_key_violation THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with memory.list_tenants()';
    END;
END
$$;

ALTER FUNCTION memory.set_retention(p_tenant_id uuid, p_keep_days integer, p_compact_similarity real, p_compact_drop boolean) OWNER TO memory_owner;

-- FUNCTION set_retention(p_tenant_id uuid, p_keep_days integer, p_compact_similarity real, p_compact_drop boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.set_retention(p_tenant_id uuid, p_keep_days integer, p_compact_similarity real, p_compact_drop boolean) IS 'Set a tenant''s retention (simulations older than N days) and compaction policy for memory.sweep(); memory_admin only (SECURITY DEFINER)';

-- FUNCTION set_retention(p_tenant_id uuid, p_keep_days integer, p_compact_similarity real, p_compact_drop boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.set_retention(p_tenant_id uuid, p_keep_days integer, p_compact_similarity real, p_compact_drop boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.set_retention(p_tenant_id uuid, p_keep_days integer, p_compact_similarity real, p_compact_drop boolean) TO memory_admin;

-- set_route_rule(text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.set_route_rule(p_phrase text, p_target text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_phrase text := pg_catalog.lower(pg_catalog.btrim(p_phrase));
    v_rows   bigint;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._not_null(p_phrase, 'p_phrase', 'pass the words that signal a route');
    IF v_phrase = '' OR pg_catalog.char_length(v_phrase) > 200 THEN
        RAISE EXCEPTION 'p_phrase must have 1 to 200 characters, not %', pg_catalog.char_length(v_phrase)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the words that signal a route';
    END IF;
    IF p_target IS NULL THEN
        DELETE FROM memory.route_rules AS r WHERE r.phrase = v_phrase;
    ELSIF p_target NOT IN ('graph', 'vector') THEN
        RAISE EXCEPTION 'unknown route target %', pg_catalog.quote_literal(memory._quote(p_target))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''graph'', ''vector'', or NULL to remove the phrase';
    ELSE
        INSERT INTO memory.route_rules AS r (phrase, target) VALUES (v_phrase, p_target)
        ON CONFLICT (phrase) DO UPDATE SET target = excluded.target WHERE r.target <> excluded.target;
    END IF;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows > 0;
END
$$;

ALTER FUNCTION memory.set_route_rule(p_phrase text, p_target text) OWNER TO memory_owner;

-- FUNCTION set_route_rule(p_phrase text, p_target text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.set_route_rule(p_phrase text, p_target text) IS 'Add, change or (NULL target) remove a routing phrase of memory.route (memory_admin)';

-- FUNCTION set_route_rule(p_phrase text, p_target text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.set_route_rule(p_phrase text, p_target text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.set_route_rule(p_phrase text, p_target text) TO memory_admin;

-- set_tenant_model(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.set_tenant_model(p_tenant_id uuid, p_model text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._model(p_model) WHERE p_model IS NOT NULL;
    -- (the time from the proposed row: Citus refuses now() in the DO UPDATE SET)
    INSERT INTO memory.tenant_models AS t (tenant_id, embedding_model, updated_at)
    VALUES (p_tenant_id, p_model, pg_catalog.now())
    ON CONFLICT (tenant_id) DO UPDATE SET embedding_model = excluded.embedding_model, updated_at = excluded.updated_at
     WHERE t.embedding_model IS DISTINCT FROM excluded.embedding_model;
    RETURN COALESCE(p_model, memory._default_model());
END
$$;

ALTER FUNCTION memory.set_tenant_model(p_tenant_id uuid, p_model text) OWNER TO memory_owner;

-- FUNCTION set_tenant_model(p_tenant_id uuid, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.set_tenant_model(p_tenant_id uuid, p_model text) IS 'Name the embedding model of a tenant''s new simulations (NULL: the default)';

-- FUNCTION set_tenant_model(p_tenant_id uuid, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.set_tenant_model(p_tenant_id uuid, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.set_tenant_model(p_tenant_id uuid, p_model text) TO memory_writer;

-- simulation_stats(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.simulation_stats(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(simulation_id uuid, name text, metadata jsonb, nodes bigint, edges bigint, episodes bigint, profiles bigint, node_types jsonb, edge_types jsonb, platforms jsonb, agents bigint, rounds integer, first_at timestamp with time zone, last_at timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT s.simulation_id, s.name, s.metadata,
           (SELECT pg_catalog.count(*) FROM memory.nodes AS n
             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id),
           (SELECT pg_catalog.count(*) FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.count(*) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.count(*) FROM memory.profiles AS p
             WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id),
           COALESCE((SELECT pg_catalog.jsonb_object_agg(t.type, t.n ORDER BY t.type)
                       FROM (SELECT n.type, pg_catalog.count(*) AS n FROM memory.nodes AS n
                              WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                              GROUP BY n.type) AS t), '{}'::jsonb),
           COALESCE((SELECT pg_catalog.jsonb_object_agg(t.type, t.n ORDER BY t.type)
                       FROM (SELECT e.type, pg_catalog.count(*) AS n FROM memory.edges AS e
                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                              GROUP BY e.type) AS t), '{}'::jsonb),
           COALESCE((SELECT pg_catalog.jsonb_object_agg(COALESCE(t.platform, ''), t.n ORDER BY t.platform)
                       FROM (SELECT e.platform, pg_catalog.count(*) AS n FROM memory.episodes AS e
                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                              GROUP BY e.platform) AS t), '{}'::jsonb),
           (SELECT pg_catalog.count(DISTINCT e.agent_id) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.max(e.round) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.min(e.occurred_at) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.max(e.occurred_at) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id)
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
$$;

ALTER FUNCTION memory.simulation_stats(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION simulation_stats(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.simulation_stats(p_tenant_id uuid, p_simulation_id uuid) IS 'Counts and shape of a simulation: nodes, edges, episodes, profiles, types, platforms, agents, rounds';

-- FUNCTION simulation_stats(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.simulation_stats(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.simulation_stats(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;

-- simulations; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.simulations ENABLE ROW LEVEL SECURITY;

-- simulations; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.simulations (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    name text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    published boolean DEFAULT true NOT NULL,
    sim_no bigint NOT NULL,
    embedding_model text,
    CONSTRAINT simulations_embedding_model_check CHECK (((embedding_model <> ''::text) AND (char_length(embedding_model) <= memory._label_max()))),
    CONSTRAINT simulations_metadata_check CHECK ((jsonb_typeof(metadata) = 'object'::text))
);

ALTER TABLE ONLY memory.simulations FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.simulations OWNER TO memory_owner;

-- TABLE simulations; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.simulations IS 'One row per mirrored simulation run';

-- TABLE simulations; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.simulations TO memory_reader;
GRANT INSERT ON TABLE memory.simulations TO memory_writer;

-- simulations owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.simulations FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- simulations owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.simulations FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- simulations readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.simulations FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- simulations simulations_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.simulations
    ADD CONSTRAINT simulations_pkey PRIMARY KEY (tenant_id, simulation_id);

-- simulations simulations_sim_no_key; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.simulations
    ADD CONSTRAINT simulations_sim_no_key UNIQUE (sim_no);

-- simulations simulations_sim_no_ref_key; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.simulations
    ADD CONSTRAINT simulations_sim_no_ref_key UNIQUE (tenant_id, simulation_id, sim_no);

-- simulations simulations_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.simulations
    ADD CONSTRAINT simulations_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- simulations writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.simulations FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- simulations writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.simulations FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- simulations writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.simulations FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN simulations.embedding_model; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.simulations.embedding_model IS 'The model of the simulation''s vectors (NULL: see memory._simulation_model)';

-- COLUMN simulations.embedding_model; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding_model) ON TABLE memory.simulations TO memory_writer;

-- COLUMN simulations.metadata; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(metadata) ON TABLE memory.simulations TO memory_writer;

-- COLUMN simulations.name; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(name) ON TABLE memory.simulations TO memory_writer;

-- COLUMN simulations.published; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(published) ON TABLE memory.simulations TO memory_writer;

-- COLUMN simulations.sim_no; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.simulations.sim_no IS 'Opaque number of the simulation: the only thing index names and predicates name';

-- COLUMN simulations.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.simulations TO memory_writer;

-- simulations_sim_no_seq; Type: SEQUENCE; Schema: memory; Owner: memory_owner
ALTER TABLE memory.simulations ALTER COLUMN sim_no ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME memory.simulations_sim_no_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

-- stage_rows(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.stage_rows(p_tenant_id uuid, p_attempt_id uuid) RETURNS TABLE(nodes bigint, edges bigint, episodes bigint, profiles bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    SET enable_nestloop TO 'off'
    AS $$
DECLARE
    v_kind     memory.record_kind;
    v_position integer;
    v_second   integer;
    v_problem  text;
    v_moved    jsonb := '{}'::jsonb;
BEGIN
    PERFORM memory._require_attempt(p_tenant_id, p_attempt_id, true);
    IF pg_catalog.to_regclass('pg_temp.stage_nodes') IS NULL THEN
        RAISE EXCEPTION 'this session has no staging tables'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'call memory.open_staging() and fill pg_temp.stage_* first';
    END IF;

    -- Every row of every kind is checked before any moves: the first problem fails the call.
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.item LOOP
        SELECT p.row_position, p.problem INTO v_position, v_problem
          FROM memory._staging_problem(v_kind.kind) AS p;
        IF FOUND THEN
            RAISE EXCEPTION '% at position %: %', v_kind.item, v_position, v_problem
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'nothing of this batch was staged; fix the row and stage the batch again';
        END IF;
    END LOOP;
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.item LOOP
        SELECT d.key, d.first_position, d.second_position INTO v_problem, v_position, v_second
          FROM memory._staging_duplicate(v_kind.kind, p_tenant_id, p_attempt_id) AS d;
        IF FOUND THEN
            RAISE EXCEPTION '% id % appears twice, at positions % and %', v_kind.item, memory._quote(v_problem),
                    v_position, v_second
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'each row of an import needs its own id; nothing of this batch was staged';
        END IF;
    END LOOP;

    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        v_moved := v_moved || pg_catalog.jsonb_build_object(
            v_kind.kind, memory._stage_kind(v_kind.kind, p_tenant_id, p_attempt_id));
    END LOOP;
    RETURN QUERY SELECT (v_moved ->> 'nodes')::bigint, (v_moved ->> 'edges')::bigint,
                        (v_moved ->> 'episodes')::bigint, (v_moved ->> 'profiles')::bigint;
END
$$;

ALTER FUNCTION memory.stage_rows(p_tenant_id uuid, p_attempt_id uuid) OWNER TO memory_owner;

-- FUNCTION stage_rows(p_tenant_id uuid, p_attempt_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.stage_rows(p_tenant_id uuid, p_attempt_id uuid) IS 'Check the session''s staging tables and move their rows into an import attempt; returns counts';

-- FUNCTION stage_rows(p_tenant_id uuid, p_attempt_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.stage_rows(p_tenant_id uuid, p_attempt_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.stage_rows(p_tenant_id uuid, p_attempt_id uuid) TO memory_writer;

-- staged_edges; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_edges ENABLE ROW LEVEL SECURITY;

-- staged_edges; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_edges (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    edge_id text NOT NULL,
    edge_key uuid GENERATED ALWAYS AS ((md5(edge_id))::uuid) STORED NOT NULL,
    "position" integer NOT NULL,
    type text NOT NULL,
    source_id text NOT NULL,
    target_id text NOT NULL,
    fact text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    valid_at timestamp with time zone,
    invalid_at timestamp with time zone,
    embedding public.vector(384),
    embedding_model text,
    content_hash bytea,
    source text DEFAULT 'import'::text NOT NULL,
    learned_at timestamp with time zone,
    expired_at timestamp with time zone,
    CONSTRAINT staged_edges_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text]))),
    CONSTRAINT staged_edges_validity_check CHECK ((invalid_at >= valid_at))
);

ALTER TABLE ONLY memory.staged_edges FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_edges OWNER TO memory_owner;

-- TABLE staged_edges; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_edges TO memory_reader;
GRANT INSERT ON TABLE memory.staged_edges TO memory_writer;

-- staged_edges owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_edges FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_edges owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_edges FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_edges readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_edges FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_edges staged_edges_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_edges
    ADD CONSTRAINT staged_edges_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_edges staged_edges_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_edges
    ADD CONSTRAINT staged_edges_pkey PRIMARY KEY (tenant_id, attempt_id, edge_key);

-- staged_edges writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_edges FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_edges writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_edges FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_edges writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_edges FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_episodes; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_episodes ENABLE ROW LEVEL SECURITY;

-- staged_episodes; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_episodes (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    episode_id text NOT NULL,
    episode_key uuid GENERATED ALWAYS AS ((md5(episode_id))::uuid) STORED NOT NULL,
    "position" integer NOT NULL,
    agent_id integer,
    agent_name text,
    platform text,
    round integer,
    action_type text NOT NULL,
    content text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    occurred_at timestamp with time zone,
    embedding public.vector(384),
    embedding_model text,
    content_hash bytea,
    source text DEFAULT 'import'::text NOT NULL,
    CONSTRAINT staged_episodes_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_episodes FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_episodes OWNER TO memory_owner;

-- TABLE staged_episodes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_episodes TO memory_reader;
GRANT INSERT ON TABLE memory.staged_episodes TO memory_writer;

-- staged_episodes owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_episodes FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_episodes owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_episodes FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_episodes readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_episodes FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_episodes staged_episodes_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_episodes
    ADD CONSTRAINT staged_episodes_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_episodes staged_episodes_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_episodes
    ADD CONSTRAINT staged_episodes_pkey PRIMARY KEY (tenant_id, attempt_id, episode_key);

-- staged_episodes writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_episodes FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_episodes writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_episodes FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_episodes writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_episodes FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_nodes; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_nodes ENABLE ROW LEVEL SECURITY;

-- staged_nodes; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_nodes (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    node_id text NOT NULL,
    node_key uuid GENERATED ALWAYS AS ((md5(node_id))::uuid) STORED NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    labels text[] DEFAULT '{}'::text[] NOT NULL,
    summary text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    embedding public.vector(384),
    embedding_model text,
    content_hash bytea,
    source text DEFAULT 'import'::text NOT NULL,
    summary_embedding public.vector(384),
    CONSTRAINT staged_nodes_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_nodes FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_nodes OWNER TO memory_owner;

-- TABLE staged_nodes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_nodes TO memory_reader;
GRANT INSERT ON TABLE memory.staged_nodes TO memory_writer;

-- staged_nodes owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_nodes FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_nodes owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_nodes FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_nodes readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_nodes FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_nodes staged_nodes_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_nodes
    ADD CONSTRAINT staged_nodes_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_nodes staged_nodes_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_nodes
    ADD CONSTRAINT staged_nodes_pkey PRIMARY KEY (tenant_id, attempt_id, node_key);

-- staged_nodes writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_nodes FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_nodes writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_nodes FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_nodes writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_nodes FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_predictions; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_predictions ENABLE ROW LEVEL SECURITY;

-- staged_predictions; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_predictions (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    prediction_id text NOT NULL,
    prediction_key uuid GENERATED ALWAYS AS ((md5(prediction_id))::uuid) STORED NOT NULL,
    "position" integer NOT NULL,
    report_id text,
    section_index integer,
    claim text NOT NULL,
    horizon text,
    confidence numeric,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    source text DEFAULT 'import'::text NOT NULL,
    CONSTRAINT staged_predictions_confidence_check CHECK (((confidence >= (0)::numeric) AND (confidence <= (1)::numeric))),
    CONSTRAINT staged_predictions_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_predictions FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_predictions OWNER TO memory_owner;

-- TABLE staged_predictions; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_predictions TO memory_reader;
GRANT INSERT ON TABLE memory.staged_predictions TO memory_writer;

-- staged_predictions owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_predictions FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_predictions owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_predictions FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_predictions readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_predictions FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_predictions staged_predictions_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_predictions
    ADD CONSTRAINT staged_predictions_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_predictions staged_predictions_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_predictions
    ADD CONSTRAINT staged_predictions_pkey PRIMARY KEY (tenant_id, attempt_id, prediction_key);

-- staged_predictions writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_predictions FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_predictions writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_predictions FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_predictions writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_predictions FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_profiles; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_profiles ENABLE ROW LEVEL SECURITY;

-- staged_profiles; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_profiles (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    platform text NOT NULL,
    agent_id integer NOT NULL,
    "position" integer NOT NULL,
    name text,
    username text,
    bio text,
    persona text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    source text DEFAULT 'import'::text NOT NULL,
    CONSTRAINT staged_profiles_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_profiles FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_profiles OWNER TO memory_owner;

-- TABLE staged_profiles; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_profiles TO memory_reader;
GRANT INSERT ON TABLE memory.staged_profiles TO memory_writer;

-- staged_profiles owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_profiles FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_profiles owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_profiles FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_profiles readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_profiles FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_profiles staged_profiles_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_profiles
    ADD CONSTRAINT staged_profiles_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_profiles staged_profiles_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_profiles
    ADD CONSTRAINT staged_profiles_pkey PRIMARY KEY (tenant_id, attempt_id, platform, agent_id);

-- staged_profiles writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_profiles FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_profiles writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_profiles FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_profiles writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_profiles FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_chunks; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_report_chunks ENABLE ROW LEVEL SECURITY;

-- staged_report_chunks; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_report_chunks (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    chunk_id text NOT NULL,
    chunk_key uuid GENERATED ALWAYS AS ((md5(chunk_id))::uuid) STORED NOT NULL,
    "position" integer NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    section_index integer NOT NULL,
    chunk_index integer NOT NULL,
    content text NOT NULL,
    embedding public.vector(384),
    embedding_model text,
    content_hash bytea,
    source text DEFAULT 'import'::text NOT NULL,
    CONSTRAINT staged_report_chunks_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_report_chunks FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_report_chunks OWNER TO memory_owner;

-- TABLE staged_report_chunks; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_report_chunks TO memory_reader;
GRANT INSERT ON TABLE memory.staged_report_chunks TO memory_writer;

-- staged_report_chunks owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_report_chunks FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_chunks owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_report_chunks FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_chunks readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_report_chunks FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_chunks staged_report_chunks_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_report_chunks
    ADD CONSTRAINT staged_report_chunks_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_report_chunks staged_report_chunks_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_report_chunks
    ADD CONSTRAINT staged_report_chunks_pkey PRIMARY KEY (tenant_id, attempt_id, chunk_key);

-- staged_report_chunks writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_report_chunks FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_chunks writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_report_chunks FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_chunks writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_report_chunks FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_log; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_report_log ENABLE ROW LEVEL SECURITY;

-- staged_report_log; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_report_log (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    line_no integer NOT NULL,
    "position" integer NOT NULL,
    action text,
    entry jsonb NOT NULL,
    source text DEFAULT 'import'::text NOT NULL,
    CONSTRAINT staged_report_log_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_report_log FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_report_log OWNER TO memory_owner;

-- TABLE staged_report_log; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_report_log TO memory_reader;
GRANT INSERT ON TABLE memory.staged_report_log TO memory_writer;

-- staged_report_log owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_report_log FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_log owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_report_log FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_log readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_report_log FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_log staged_report_log_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_report_log
    ADD CONSTRAINT staged_report_log_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_report_log staged_report_log_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_report_log
    ADD CONSTRAINT staged_report_log_pkey PRIMARY KEY (tenant_id, attempt_id, report_key, line_no);

-- staged_report_log writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_report_log FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_log writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_report_log FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_log writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_report_log FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_sections; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_report_sections ENABLE ROW LEVEL SECURITY;

-- staged_report_sections; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_report_sections (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    section_index integer NOT NULL,
    "position" integer NOT NULL,
    title text NOT NULL,
    markdown text NOT NULL,
    source text DEFAULT 'import'::text NOT NULL,
    CONSTRAINT staged_report_sections_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_report_sections FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_report_sections OWNER TO memory_owner;

-- TABLE staged_report_sections; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_report_sections TO memory_reader;
GRANT INSERT ON TABLE memory.staged_report_sections TO memory_writer;

-- staged_report_sections owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_report_sections FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_sections owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_report_sections FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_sections readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_report_sections FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_sections staged_report_sections_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_report_sections
    ADD CONSTRAINT staged_report_sections_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_report_sections staged_report_sections_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_report_sections
    ADD CONSTRAINT staged_report_sections_pkey PRIMARY KEY (tenant_id, attempt_id, report_key, section_index);

-- staged_report_sections writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_report_sections FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_sections writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_report_sections FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_report_sections writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_report_sections FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_reports; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.staged_reports ENABLE ROW LEVEL SECURITY;

-- staged_reports; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE UNLOGGED TABLE memory.staged_reports (
    tenant_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    report_id text NOT NULL,
    report_key uuid GENERATED ALWAYS AS ((md5(report_id))::uuid) STORED NOT NULL,
    "position" integer NOT NULL,
    mirofish_simulation_id text,
    graph_id text,
    simulation_requirement text,
    title text,
    summary text,
    status text NOT NULL,
    started_at timestamp with time zone,
    completed_at timestamp with time zone,
    error text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    source text DEFAULT 'import'::text NOT NULL,
    CONSTRAINT staged_reports_source_check CHECK ((source = ANY (ARRAY['api'::text, 'import'::text])))
);

ALTER TABLE ONLY memory.staged_reports FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.staged_reports OWNER TO memory_owner;

-- TABLE staged_reports; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.staged_reports TO memory_reader;
GRANT INSERT ON TABLE memory.staged_reports TO memory_writer;

-- staged_reports owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.staged_reports FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_reports owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.staged_reports FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_reports readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.staged_reports FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_reports staged_reports_attempt_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_reports
    ADD CONSTRAINT staged_reports_attempt_fkey FOREIGN KEY (tenant_id, attempt_id) REFERENCES memory.import_attempts(tenant_id, attempt_id) ON DELETE CASCADE;

-- staged_reports staged_reports_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.staged_reports
    ADD CONSTRAINT staged_reports_pkey PRIMARY KEY (tenant_id, attempt_id, report_key);

-- staged_reports writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.staged_reports FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_reports writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.staged_reports FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- staged_reports writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.staged_reports FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- sweep(uuid, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.sweep(p_tenant_id uuid DEFAULT NULL::uuid, p_now timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS TABLE(tenant_id uuid, simulation_id uuid, action text, detail jsonb)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_tenant uuid;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('sweep', 'memory.sweep_tenant(tenant_id) for each tenant');
    FOR v_tenant IN SELECT t.tenant_id FROM memory.tenants AS t
                     WHERE p_tenant_id IS NULL OR t.tenant_id = p_tenant_id ORDER BY t.tenant_id LOOP
        RETURN QUERY SELECT v_tenant, w.simulation_id, w.action, w.detail
                       FROM memory._sweep_tenant(v_tenant, COALESCE(p_now, pg_catalog.now())) AS w;
    END LOOP;
END
$$;

ALTER FUNCTION memory.sweep(p_tenant_id uuid, p_now timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION sweep(p_tenant_id uuid, p_now timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.sweep(p_tenant_id uuid, p_now timestamp with time zone) IS 'Apply the tenants'' retention and compaction policies (memory.set_retention); what a scheduler or pg_cron runs; memory_admin only';

-- FUNCTION sweep(p_tenant_id uuid, p_now timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.sweep(p_tenant_id uuid, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.sweep(p_tenant_id uuid, p_now timestamp with time zone) TO memory_admin;

-- sweep_tenant(uuid, timestamp with time zone); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS TABLE(tenant_id uuid, simulation_id uuid, action text, detail jsonb)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT memory._enter_tenant_as_admin(p_tenant_id);
    SELECT p_tenant_id, w.simulation_id, w.action, w.detail
      FROM memory._sweep_tenant(p_tenant_id, COALESCE(p_now, pg_catalog.now())) AS w;
$$;

ALTER FUNCTION memory.sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) OWNER TO memory_owner;

-- FUNCTION sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) IS 'Apply one tenant''s retention and compaction policy (memory.set_retention); the per-tenant sweep a Citus cluster runs on the tenant''s worker; memory_admin only';

-- FUNCTION sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.sweep_tenant(p_tenant_id uuid, p_now timestamp with time zone) TO memory_admin;

-- switch_model(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) RETURNS TABLE(kind text, switched bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $_$
DECLARE
    v_from    text;
    v_attempt uuid;
    v_missing bigint;
    v_counts  jsonb := '{}'::jsonb;
    v_rows    bigint;
    v_kind    text;
    v_text    text;
    v_change  bigint;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._reembed_model(p_model);
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    SELECT a.attempt_id INTO v_attempt FROM memory.import_attempts AS a
     WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id AND a.state = 'loading'
       AND memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'simulation % is importing (attempt %); its vectors are not switched meanwhile', p_simulation_id, v_attempt
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'switch once the import has committed or failed (swarm-memory reembed waits for it)';
    END IF;
    v_from := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;

    SELECT pg_catalog.count(*) INTO v_missing
      FROM memory._reembed_sources(p_tenant_id, p_simulation_id, p_model) AS s
     WHERE NOT EXISTS (SELECT 1 FROM memory.vector_cache AS c
                        WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                          AND c.content_hash = s.text_hash AND memory._vector_problem(c.embedding) IS NULL);
    IF v_missing > 0 THEN
        RAISE EXCEPTION '% texts of simulation % have no vector of model % yet', v_missing, p_simulation_id,
                        pg_catalog.quote_literal(p_model)
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'embed what memory.reembed_texts() lists and add it with memory.cache_vectors(), then switch (swarm-memory reembed does both)';
    END IF;

    -- The vector of a text, from the cache (the check above found every one).
    UPDATE memory.nodes AS n
       SET embedding = (SELECT c.embedding FROM memory.vector_cache AS c
                         WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                           AND c.content_hash = memory._text_hash(p_model, n.type || ': ' || n.name)),
           summary_embedding = CASE WHEN n.summary_embedding IS NOT NULL THEN
                                   (SELECT c.embedding FROM memory.vector_cache AS c
                                     WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                                       AND c.content_hash = memory._text_hash(p_model, n.summary)) END,
           embedding_model = p_model,
           content_hash = memory._text_hash(p_model, n.type || ': ' || n.name
                                            || CASE WHEN n.summary_embedding IS NOT NULL THEN E'\x1f' || n.summary ELSE '' END),
           updated_at = pg_catalog.now()
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND n.embedding IS NOT NULL AND n.embedding_model IS DISTINCT FROM p_model;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_counts := v_counts || pg_catalog.jsonb_build_object('nodes', v_rows);

    -- An edge's vector is its fact's, an episode's its content's: one statement for both.
    FOR v_kind, v_text IN VALUES ('edges', 'fact'), ('episodes', 'content') LOOP
        EXECUTE pg_catalog.format($sql$
            UPDATE memory.%1$I AS r
               SET embedding = (SELECT c.embedding FROM memory.vector_cache AS c
                                 WHERE c.tenant_id = $1 AND c.embedding_model = $3
                                   AND c.content_hash = memory._text_hash($3, r.%2$I)),
                   embedding_model = $3, content_hash = memory._text_hash($3, r.%2$I),
                   updated_at = pg_catalog.now()
             WHERE r.tenant_id = $1 AND r.simulation_id = $2
               AND r.embedding IS NOT NULL AND r.embedding_model IS DISTINCT FROM $3$sql$, v_kind, v_text)
          USING p_tenant_id, p_simulation_id, p_model;
        GET DIAGNOSTICS v_rows = ROW_COUNT;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind, v_rows);
    END LOOP;

    UPDATE memory.report_chunks AS r
       SET embedding = (SELECT c.embedding FROM memory.vector_cache AS c
                         WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                           AND c.content_hash = memory._text_hash(p_model, s.title || E'\n' || r.content)),
           embedding_model = p_model,
           content_hash = memory._text_hash(p_model, s.title || E'\n' || r.content),
           updated_at = pg_catalog.now()
      FROM memory.report_sections AS s
     WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
       AND s.tenant_id = r.tenant_id AND s.simulation_id = r.simulation_id
       AND s.report_key = r.report_key AND s.section_index = r.section_index
       AND r.embedding IS NOT NULL AND r.embedding_model IS DISTINCT FROM p_model;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_counts := v_counts || pg_catalog.jsonb_build_object('report_chunks', v_rows);

    UPDATE memory.simulations AS s SET embedding_model = p_model
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
       AND s.embedding_model IS DISTINCT FROM p_model;
    IF v_from IS DISTINCT FROM p_model OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_each(v_counts) AS c WHERE c.value::bigint > 0) THEN
        v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                          p_simulation_id => p_simulation_id,
                                          p_kind => 'embeddings', p_op => 'reembed', p_ids => NULL,
                                          p_counts => v_counts, p_attempt_id => NULL,
                                          p_detail => pg_catalog.jsonb_build_object('from_model', v_from, 'to_model', p_model));
    END IF;
    RETURN QUERY SELECT c.key, c.value::bigint FROM pg_catalog.jsonb_each(v_counts) AS c ORDER BY c.key;
END
$_$;

ALTER FUNCTION memory.switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) OWNER TO memory_owner;

-- FUNCTION switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) IS 'Switch a simulation''s vectors to a model atomically, from the tenant''s vector cache (55000 while importing or incomplete); recorded in the change feed';

-- FUNCTION switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text) TO memory_writer;

-- tenant_grants; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.tenant_grants ENABLE ROW LEVEL SECURITY;

-- tenant_grants; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.tenant_grants (
    tenant_id uuid NOT NULL,
    role_name name NOT NULL,
    granted_by name DEFAULT CURRENT_USER NOT NULL,
    granted_at timestamp with time zone DEFAULT now() NOT NULL,
    role_oid oid NOT NULL,
    node_role_oids jsonb,
    CONSTRAINT tenant_grants_node_role_oids_shape CHECK (((node_role_oids IS NULL) OR ((jsonb_typeof(node_role_oids) = 'object'::text) AND (NOT jsonb_path_exists(node_role_oids, '$.*?(@.type() != "string" || !(@ like_regex "^[0-9]{1,10}$"))'::jsonpath)))))
);

ALTER TABLE ONLY memory.tenant_grants FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.tenant_grants OWNER TO memory_owner;

-- TABLE tenant_grants; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.tenant_grants IS 'Which database roles may act for which tenant, by role OID (a grant counts for the roles that have the granted role''s privileges)';

-- TABLE tenant_grants; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.tenant_grants TO memory_reader;
GRANT SELECT,INSERT ON TABLE memory.tenant_grants TO memory_admin;

-- tenant_grants admins_manage_all_grants; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY admins_manage_all_grants ON memory.tenant_grants TO memory_admin USING (pg_has_role(CURRENT_USER, 'memory_admin'::name, 'MEMBER'::text)) WITH CHECK (pg_has_role(CURRENT_USER, 'memory_admin'::name, 'MEMBER'::text));

-- tenant_grants owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_grants FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_grants owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_grants FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_grants roles_see_their_own_grants; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY roles_see_their_own_grants ON memory.tenant_grants FOR SELECT TO memory_reader USING (pg_has_role(CURRENT_USER,
CASE
    WHEN (node_role_oids IS NULL) THEN role_oid
    ELSE ((node_role_oids ->> (memory._node_group())::text))::oid
END, 'USAGE'::text));

-- tenant_grants tenant_grants_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenant_grants
    ADD CONSTRAINT tenant_grants_pkey PRIMARY KEY (tenant_id, role_oid);

-- tenant_grants tenant_grants_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenant_grants
    ADD CONSTRAINT tenant_grants_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- COLUMN tenant_grants.node_role_oids; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.tenant_grants.node_role_oids IS 'On a Citus cluster: the granted role''s OID on each node, by Citus group id ({"0": coordinator OID, "1": ...}); NULL on a single node';

-- COLUMN tenant_grants.node_role_oids; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(node_role_oids) ON TABLE memory.tenant_grants TO memory_admin;

-- COLUMN tenant_grants.role_name; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.tenant_grants.role_name IS 'Display only: the role''s name when it was granted; never used to authorise';

-- COLUMN tenant_grants.role_oid; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON COLUMN memory.tenant_grants.role_oid IS 'The granted role (pg_roles.oid); a grant whose role was dropped authorises nobody';

-- tenant_grants_role_oid_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX tenant_grants_role_oid_idx ON memory.tenant_grants USING btree (role_oid);

-- tenant_models; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.tenant_models ENABLE ROW LEVEL SECURITY;

-- tenant_models; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.tenant_models (
    tenant_id uuid NOT NULL,
    embedding_model text,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT tenant_models_embedding_model_check CHECK (((embedding_model <> ''::text) AND (char_length(embedding_model) <= memory._label_max())))
);

ALTER TABLE ONLY memory.tenant_models FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.tenant_models OWNER TO memory_owner;

-- TABLE tenant_models; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.tenant_models IS 'The embedding model of a tenant''s new simulations (NULL or no row: memory._default_model())';

-- TABLE tenant_models; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.tenant_models TO memory_reader;
GRANT INSERT ON TABLE memory.tenant_models TO memory_writer;

-- tenant_models owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_models FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_models owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_models FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_models readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.tenant_models FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_models tenant_models_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenant_models
    ADD CONSTRAINT tenant_models_pkey PRIMARY KEY (tenant_id);

-- tenant_models tenant_models_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenant_models
    ADD CONSTRAINT tenant_models_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- tenant_models writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.tenant_models FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_models writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.tenant_models FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_models writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.tenant_models FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- COLUMN tenant_models.embedding_model; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(embedding_model) ON TABLE memory.tenant_models TO memory_writer;

-- COLUMN tenant_models.updated_at; Type: ACL; Schema: memory; Owner: memory_owner
GRANT UPDATE(updated_at) ON TABLE memory.tenant_models TO memory_writer;

-- tenant_quotas; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.tenant_quotas ENABLE ROW LEVEL SECURITY;

-- tenant_quotas; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.tenant_quotas (
    tenant_id uuid NOT NULL,
    kind text NOT NULL,
    max_rows bigint NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_by name DEFAULT SESSION_USER NOT NULL,
    CONSTRAINT tenant_quotas_kind_check CHECK ((kind ~ '^[a-z_]{1,40}$'::text)),
    CONSTRAINT tenant_quotas_max_rows_check CHECK ((max_rows >= 0))
);

ALTER TABLE ONLY memory.tenant_quotas FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.tenant_quotas OWNER TO memory_owner;

-- TABLE tenant_quotas; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.tenant_quotas IS 'Per-tenant caps on simulations and on rows of each record kind (no row: no cap); set by memory.set_quota, enforced by memory._check_quota';

-- TABLE tenant_quotas; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.tenant_quotas TO memory_reader;

-- tenant_quotas owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.tenant_quotas FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_quotas owner_changes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.tenant_quotas FOR UPDATE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_quotas owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_quotas FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_quotas owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_quotas FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_quotas readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.tenant_quotas FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenant_quotas tenant_quotas_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenant_quotas
    ADD CONSTRAINT tenant_quotas_pkey PRIMARY KEY (tenant_id, kind);

-- tenant_quotas tenant_quotas_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenant_quotas
    ADD CONSTRAINT tenant_quotas_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- tenants; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.tenants ENABLE ROW LEVEL SECURITY;

-- tenants; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.tenants (
    tenant_id uuid NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT tenants_name_check CHECK ((name <> ''::text))
);

ALTER TABLE ONLY memory.tenants FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.tenants OWNER TO memory_owner;

-- TABLE tenants; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.tenants IS 'Tenants: the unit of ownership and isolation';

-- TABLE tenants; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.tenants TO memory_reader;
GRANT SELECT,INSERT ON TABLE memory.tenants TO memory_admin;

-- tenants admins_manage_all_tenants; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY admins_manage_all_tenants ON memory.tenants TO memory_admin USING (pg_has_role(CURRENT_USER, 'memory_admin'::name, 'MEMBER'::text)) WITH CHECK (pg_has_role(CURRENT_USER, 'memory_admin'::name, 'MEMBER'::text));

-- tenants owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenants FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenants owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenants FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenants readers_see_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_the_granted_call_tenant ON memory.tenants FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- tenants tenants_name_key; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenants
    ADD CONSTRAINT tenants_name_key UNIQUE (name);

-- tenants tenants_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.tenants
    ADD CONSTRAINT tenants_pkey PRIMARY KEY (tenant_id);

-- timeline(uuid, uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer DEFAULT 100) RETURNS TABLE(at timestamp with time zone, event text, edge_id text, episode_id text, content text, other_node_id text, other_name text)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_key     uuid := pg_catalog.md5(p_node_id)::uuid;
    v_needles text[];
BEGIN
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    IF p_limit < 1 THEN
        RAISE EXCEPTION 'p_limit % is below 1', p_limit
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a limit from 1 to 1000, or NULL for 100';
    END IF;
    SELECT pg_catalog.array_agg(pg_catalog.lower(v.label)) INTO v_needles
      FROM memory.nodes AS n CROSS JOIN LATERAL memory._entity_names(n.name, n.attributes) AS v (label)
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = v_key;
    RETURN QUERY
    SELECT t.at, t.event, t.edge_id, t.episode_id, t.content, t.other_node_id, t.other_name
      FROM (SELECT c.at, c.event, c.ord, e.edge_id, NULL::text AS episode_id, e.fact AS content,
                   o.node_id AS other_node_id, o.name AS other_name
              FROM memory.edges AS e
              JOIN memory.nodes AS o
                ON o.tenant_id = e.tenant_id AND o.simulation_id = e.simulation_id
               AND o.node_key = CASE WHEN e.source_key = v_key THEN e.target_key ELSE e.source_key END
             CROSS JOIN LATERAL (VALUES (e.invalid_at, 'fact_ended', 0), (e.valid_at, 'fact_began', 1)) AS c (at, event, ord)
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND (e.source_key = v_key OR e.target_key = v_key)
               AND c.at IS NOT NULL
            UNION ALL
            SELECT x.occurred_at, 'action', 2, NULL, x.episode_id, x.content, NULL, NULL
              FROM memory.episodes AS x
             WHERE x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
               AND x.occurred_at IS NOT NULL AND x.content IS NOT NULL
               AND x.episode_key IN (
                   -- in the text: the actions holding every word of the name (memory.word_postings),
                   -- then the name itself
                   SELECT y.episode_key
                     FROM pg_catalog.unnest(v_needles) AS nd (needle)
                    CROSS JOIN LATERAL (SELECT pg_catalog.array_agg(q.lexeme) AS lexemes
                                          FROM memory._words_query(nd.needle) AS q) AS w
                    CROSS JOIN LATERAL (SELECT p.row_key FROM memory.word_postings AS p
                                         WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                                           AND p.kind = 'e' AND p.word = ANY (w.lexemes)
                                         GROUP BY p.row_key
                                        HAVING pg_catalog.count(*) = pg_catalog.cardinality(w.lexemes)) AS k
                     JOIN memory.episodes AS y
                       ON y.tenant_id = p_tenant_id AND y.simulation_id = p_simulation_id AND y.episode_key = k.row_key
                      AND pg_catalog.strpos(pg_catalog.lower(y.content), nd.needle) > 0
                   UNION
                   -- as the agent
                   SELECT y.episode_key FROM memory.episodes AS y
                    WHERE y.tenant_id = p_tenant_id AND y.simulation_id = p_simulation_id
                      AND y.agent_name IS NOT NULL
                      AND EXISTS (SELECT 1 FROM pg_catalog.unnest(v_needles) AS nd (needle)
                                   WHERE pg_catalog.strpos(pg_catalog.lower(y.agent_name), nd.needle) > 0))) AS t
     ORDER BY t.at, t.ord, COALESCE(t.edge_id, t.episode_id)
     LIMIT memory._page_rows(p_limit, 100);
END
$$;

ALTER FUNCTION memory.timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) OWNER TO memory_owner;

-- FUNCTION timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) IS 'What happened to an entity in time order: facts touching it that began or ended, and actions naming it';

-- FUNCTION timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text, p_limit integer) TO memory_reader;

-- upsert_edges(uuid, uuid, jsonb, boolean); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.upsert_edges(p_tenant_id uuid, p_simulation_id uuid, p_edges jsonb, p_skip_dangling boolean DEFAULT false) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint, skipped bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_index   bigint;
    v_edge_id text;
    v_node_id text;
    v_skipped bigint;
    v_dangling boolean;
    v_kept    jsonb := p_edges;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch(k.batch_arg, p_edges, k.batch_spec, k.batch_key)
       FROM memory._kind('edges') AS k;
    PERFORM memory._not_null(p_skip_dangling, 'p_skip_dangling', 'pass true or false');
    PERFORM memory._check_items_model(p_tenant_id, p_simulation_id, p_edges);
    -- A fact cannot end before it begins (the table's edges_validity_check, said with the item).
    SELECT t.ord - 1, t.item ->> 'id' INTO v_index, v_edge_id
      FROM pg_catalog.jsonb_array_elements(p_edges) WITH ORDINALITY AS t(item, ord)
     WHERE (t.item ->> 'invalid_at')::timestamptz < (t.item ->> 'valid_at')::timestamptz
     ORDER BY t.ord LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'p_edges[%]: edge % ends before it begins (invalid_at precedes valid_at)', v_index, memory._quote(v_edge_id)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'nothing of the batch was written; give the edge an invalid_at at or after its valid_at';
    END IF;

    SELECT d.ord - 1, d.edge_id, d.node_id, pg_catalog.count(*) OVER ()
      INTO v_index, v_edge_id, v_node_id, v_skipped
      FROM (SELECT t.ord, t.item ->> 'id' AS edge_id, e.node_id
              FROM pg_catalog.jsonb_array_elements(p_edges) WITH ORDINALITY AS t(item, ord)
             CROSS JOIN LATERAL (VALUES (t.item ->> 'source_id', 1), (t.item ->> 'target_id', 2))
                   AS e(node_id, side)
             WHERE NOT EXISTS (SELECT 1 FROM memory.nodes AS n
                                WHERE n.tenant_id = p_tenant_id
                                  AND n.simulation_id = p_simulation_id
                                  AND n.node_key = pg_catalog.md5(e.node_id)::uuid)
             ORDER BY t.ord, e.side) AS d
     LIMIT 1;
    v_dangling := FOUND;
    IF v_dangling AND NOT p_skip_dangling THEN
        RAISE EXCEPTION 'p_edges[%]: edge % refers to unknown node %', v_index, memory._quote(v_edge_id), memory._quote(v_node_id)
            USING ERRCODE = 'foreign_key_violation',
                  HINT = 'upsert the node first, or pass p_skip_dangling => true to leave such edges out';
    END IF;

    IF v_dangling THEN
        -- Leave the edges with an unknown endpoint out, and count them.
        SELECT COALESCE(pg_catalog.jsonb_agg(t.item ORDER BY t.ord), '[]'::jsonb)
          INTO v_kept
          FROM pg_catalog.jsonb_array_elements(p_edges) WITH ORDINALITY AS t(item, ord)
         WHERE EXISTS (SELECT 1 FROM memory.nodes AS n
                        WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                          AND n.node_key = pg_catalog.md5(t.item ->> 'source_id')::uuid)
           AND EXISTS (SELECT 1 FROM memory.nodes AS n
                        WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                          AND n.node_key = pg_catalog.md5(t.item ->> 'target_id')::uuid);
    END IF;
    RETURN QUERY
    SELECT m.inserted, m.updated, m.unchanged,
           (pg_catalog.jsonb_array_length(p_edges) - pg_catalog.jsonb_array_length(v_kept))::bigint
      FROM memory._merge(p_kind => 'edges', p_tenant_id => p_tenant_id,
                         p_simulation_id => p_simulation_id, p_attempt_id => NULL,
                         p_items => v_kept) AS m
     -- the change feed (V0021)
     CROSS JOIN LATERAL memory._record_upsert(p_kind => 'edges', p_tenant_id => p_tenant_id,
                                              p_simulation_id => p_simulation_id, p_items => v_kept,
                                              p_inserted => m.inserted, p_updated => m.updated) AS feed;
END
$$;

ALTER FUNCTION memory.upsert_edges(p_tenant_id uuid, p_simulation_id uuid, p_edges jsonb, p_skip_dangling boolean) OWNER TO memory_owner;

-- FUNCTION upsert_edges(p_tenant_id uuid, p_simulation_id uuid, p_edges jsonb, p_skip_dangling boolean); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.upsert_edges(p_tenant_id uuid, p_simulation_id uuid, p_edges jsonb, p_skip_dangling boolean) IS 'Insert or update graph edges of a simulation; an unknown endpoint fails with 23503 unless skipped';

-- FUNCTION upsert_edges(p_tenant_id uuid, p_simulation_id uuid, p_edges jsonb, p_skip_dangling boolean); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.upsert_edges(p_tenant_id uuid, p_simulation_id uuid, p_edges jsonb, p_skip_dangling boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.upsert_edges(p_tenant_id uuid, p_simulation_id uuid, p_edges jsonb, p_skip_dangling boolean) TO memory_writer;

-- upsert_episodes(uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT * FROM memory._upsert('episodes', p_tenant_id, p_simulation_id, p_episodes)  -- with its change (V0021)
$$;

ALTER FUNCTION memory.upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb) OWNER TO memory_owner;

-- FUNCTION upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb) IS 'Insert or update agent episodes of a simulation from a jsonb array; atomic and idempotent';

-- FUNCTION upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb) TO memory_writer;

-- upsert_nodes(uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT * FROM memory._upsert('nodes', p_tenant_id, p_simulation_id, p_nodes)  -- with its change (V0021)
$$;

ALTER FUNCTION memory.upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb) OWNER TO memory_owner;

-- FUNCTION upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb) IS 'Insert or update graph nodes of a simulation from a jsonb array; atomic and idempotent';

-- FUNCTION upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb) TO memory_writer;

-- upsert_predictions(uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT * FROM memory._upsert('predictions', p_tenant_id, p_simulation_id, p_predictions)  -- with its change (V0021)
$$;

ALTER FUNCTION memory.upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb) OWNER TO memory_owner;

-- FUNCTION upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb) IS 'Insert or update predictions (key: id) of a simulation; atomic and idempotent; outcomes untouched';

-- FUNCTION upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb) TO memory_writer;

-- upsert_profiles(uuid, uuid, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb) RETURNS TABLE(inserted bigint, updated bigint, unchanged bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT * FROM memory._upsert('profiles', p_tenant_id, p_simulation_id, p_profiles)  -- with its change (V0021)
$$;

ALTER FUNCTION memory.upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb) OWNER TO memory_owner;

-- FUNCTION upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb) IS 'Insert or update agent profiles (key: platform, agent_id) of a simulation; atomic and idempotent';

-- FUNCTION upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb) TO memory_writer;

-- upsert_simulation(uuid, uuid, text, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.upsert_simulation(p_tenant_id uuid, p_simulation_id uuid, p_name text DEFAULT NULL::text, p_metadata jsonb DEFAULT '{}'::jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_new     boolean;
    v_changed boolean;
    v_change  bigint;
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    PERFORM memory._check_limit('object_bytes', 'p_metadata', pg_catalog.pg_column_size(p_metadata));
    IF p_metadata IS NOT NULL AND pg_catalog.jsonb_typeof(p_metadata) <> 'object' THEN
        RAISE EXCEPTION 'p_metadata must be a JSON object, not %', pg_catalog.jsonb_typeof(p_metadata)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a JSON object such as {"rounds": 8}';
    END IF;

    v_new := NOT EXISTS (SELECT 1 FROM memory.simulations AS s
                          WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id);
    INSERT INTO memory.simulations AS s (tenant_id, simulation_id, name, metadata)
    VALUES (p_tenant_id, p_simulation_id, p_name, COALESCE(p_metadata, '{}'::jsonb))
    ON CONFLICT (tenant_id, simulation_id) DO UPDATE
       SET name = COALESCE(excluded.name, s.name),
           metadata = s.metadata || excluded.metadata,
           published = true,
           updated_at = excluded.updated_at
     WHERE (s.name, s.metadata, s.published) IS DISTINCT FROM
           (COALESCE(excluded.name, s.name), s.metadata || excluded.metadata, true);
    v_changed := FOUND;
    IF v_changed AND v_new THEN
        PERFORM memory._check_quota(p_tenant_id, 'simulations');
    END IF;
    IF v_changed THEN  -- the change feed (V0021), called as a plain expression (memory._record_change)
        v_change := memory._record_change(p_tenant_id, p_simulation_id, 'simulation', 'upsert');
    END IF;
END
$$;

ALTER FUNCTION memory.upsert_simulation(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_metadata jsonb) OWNER TO memory_owner;

-- FUNCTION upsert_simulation(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_metadata jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.upsert_simulation(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_metadata jsonb) IS 'Create or update a simulation (NULL name keeps the stored one, metadata is merged); idempotent';

-- FUNCTION upsert_simulation(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_metadata jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.upsert_simulation(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_metadata jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.upsert_simulation(p_tenant_id uuid, p_simulation_id uuid, p_name text, p_metadata jsonb) TO memory_writer;

-- validate_import(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid) RETURNS TABLE(problem text, kind text, item_id text, detail text)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    SET enable_nestloop TO 'off'
    AS $$
    SELECT p.problem, k.kind, p.item_id, p.detail
      FROM memory._require_attempt(p_tenant_id, p_attempt_id, true) AS a
     CROSS JOIN memory._record_kinds() AS k
     CROSS JOIN LATERAL memory._kind_problems(k.kind, a) AS p
     ORDER BY 1, 2, 3
$$;

ALTER FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid) OWNER TO memory_owner;

-- FUNCTION validate_import(p_tenant_id uuid, p_attempt_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid) IS 'Problems that stop an import attempt from committing: count mismatches, dangling edges, missing embeddings';

-- FUNCTION validate_import(p_tenant_id uuid, p_attempt_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid) TO memory_writer;

-- vector_cache; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.vector_cache ENABLE ROW LEVEL SECURITY;

-- vector_cache; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.vector_cache (
    tenant_id uuid NOT NULL,
    embedding_model text NOT NULL,
    content_hash bytea NOT NULL,
    embedding public.vector(384) NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT vector_cache_content_hash_check CHECK (((octet_length(content_hash) >= 1) AND (octet_length(content_hash) <= 64))),
    CONSTRAINT vector_cache_embedding_model_check CHECK (((embedding_model <> ''::text) AND (char_length(embedding_model) <= memory._label_max())))
);

ALTER TABLE ONLY memory.vector_cache FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.vector_cache OWNER TO memory_owner;

-- TABLE vector_cache; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.vector_cache IS 'Vectors a tenant has computed, by embedding model and content hash (append-only): an import embeds a text once per tenant';

-- TABLE vector_cache; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.vector_cache TO memory_reader;
GRANT INSERT ON TABLE memory.vector_cache TO memory_writer;

-- vector_cache owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.vector_cache FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- vector_cache owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.vector_cache FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- vector_cache readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.vector_cache FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- vector_cache vector_cache_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.vector_cache
    ADD CONSTRAINT vector_cache_pkey PRIMARY KEY (tenant_id, embedding_model, content_hash);

-- vector_cache vector_cache_tenant_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.vector_cache
    ADD CONSTRAINT vector_cache_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES memory.tenants(tenant_id) ON DELETE CASCADE;

-- vector_cache writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.vector_cache FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- warm(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.warm(p_tenant_id uuid, p_simulation_id uuid) RETURNS TABLE(part text, amount bigint, unit text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    SET enable_seqscan TO 'off'
    AS $$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    -- each count reads every row whole (no index holds it), so every row's page is read
    RETURN QUERY
        SELECT x.part, x.amount, 'rows'::text
          FROM (SELECT 1 AS n, 'episodes'::text AS part, pg_catalog.count(r.*) AS amount FROM memory.episodes AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
                UNION ALL
                SELECT 2, 'facts', pg_catalog.count(r.*) FROM memory.edges AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
                UNION ALL
                SELECT 3, 'entities', pg_catalog.count(r.*) FROM memory.nodes AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
                UNION ALL
                SELECT 4, 'word postings', pg_catalog.count(r.*) FROM memory.word_postings AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id) AS x
         ORDER BY x.n;
    RETURN QUERY
        SELECT w.part, w.pages, CASE WHEN w.pages IS NULL THEN 'not loaded: pg_prewarm is not installed' ELSE 'pages' END
          FROM memory._warm_indexes(p_tenant_id, p_simulation_id) AS w;
END
$$;

ALTER FUNCTION memory.warm(p_tenant_id uuid, p_simulation_id uuid) OWNER TO memory_owner;

-- FUNCTION warm(p_tenant_id uuid, p_simulation_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.warm(p_tenant_id uuid, p_simulation_id uuid) IS 'Load a simulation''s rows, word postings and (with pg_prewarm) its own indexes into memory, so that its first questions do not each read from disk';

-- FUNCTION warm(p_tenant_id uuid, p_simulation_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.warm(p_tenant_id uuid, p_simulation_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.warm(p_tenant_id uuid, p_simulation_id uuid) TO memory_reader;

-- word_postings; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.word_postings ENABLE ROW LEVEL SECURITY;

-- word_postings; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.word_postings (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    word text NOT NULL,
    kind "char" NOT NULL,
    row_key uuid NOT NULL,
    tf smallint NOT NULL,
    weight "char" NOT NULL,
    doc_len smallint NOT NULL,
    CONSTRAINT word_postings_counts_check CHECK (((tf > 0) AND (doc_len > 0))),
    CONSTRAINT word_postings_kind_check CHECK ((kind = ANY (ARRAY['e'::"char", 'f'::"char", 'n'::"char", 't'::"char"]))),
    CONSTRAINT word_postings_weight_check CHECK ((weight = ANY (ARRAY['A'::"char", 'B'::"char"])))
);

ALTER TABLE ONLY memory.word_postings FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.word_postings OWNER TO memory_owner;

-- TABLE word_postings; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.word_postings IS 'The words index of the words arm: one row a (row, word) of episodes (e), facts (f), entity names and summaries (n) and entity name trigrams (t); written by the trigger memory._index_words';

-- TABLE word_postings; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.word_postings TO memory_reader;

-- word_postings owner_adds_rows_to_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.word_postings FOR INSERT TO memory_owner WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- word_postings owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.word_postings FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- word_postings owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.word_postings FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- word_postings readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.word_postings FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- word_postings word_postings_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.word_postings
    ADD CONSTRAINT word_postings_pkey PRIMARY KEY (tenant_id, simulation_id, word, kind, row_key);

-- zep_add_episodes(uuid, text, jsonb, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb, p_batch_id uuid DEFAULT NULL::uuid) RETURNS SETOF jsonb
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_sim     uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
    v_items   jsonb;
    v_added   jsonb;
    v_problem text;
BEGIN
    IF pg_catalog.jsonb_typeof(p_episodes) IS DISTINCT FROM 'array' OR pg_catalog.jsonb_array_length(p_episodes) = 0 THEN
        RAISE EXCEPTION 'p_episodes must be a non-empty JSON array of episodes'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass [{"data": "...", "type": "text"}]';
    END IF;
    IF pg_catalog.jsonb_array_length(p_episodes) > memory._zep_batch_max() THEN
        RAISE EXCEPTION 'at most % episodes a call, not %', memory._zep_batch_max(), pg_catalog.jsonb_array_length(p_episodes)
            USING ERRCODE = 'program_limit_exceeded', HINT = 'split the batch; nothing was written';
    END IF;
    SELECT CASE
               WHEN pg_catalog.jsonb_typeof(e.value) IS DISTINCT FROM 'object' THEN 'is not an object'
               WHEN pg_catalog.jsonb_typeof(e.value -> 'data') IS DISTINCT FROM 'string'
                 OR pg_catalog.btrim(e.value ->> 'data') = '' THEN '"data" must be a non-empty string'
               WHEN pg_catalog.octet_length(e.value ->> 'data') > memory._limit('string_bytes') THEN
                   pg_catalog.format('"data" is %s bytes, more than %s', pg_catalog.octet_length(e.value ->> 'data'),
                                     memory._limit('string_bytes'))
               WHEN COALESCE(e.value ->> 'type', 'text') NOT IN ('text', 'json', 'message') THEN
                   pg_catalog.format('"type" %s is not one of text, json, message', memory._quote(e.value ->> 'type'))
               WHEN e.value ->> 'type' = 'json' AND NOT pg_catalog.pg_input_is_valid(e.value ->> 'data', 'jsonb') THEN
                   '"data" of type json is not JSON'
               WHEN e.value ? 'created_at' AND pg_catalog.jsonb_typeof(e.value -> 'created_at') <> 'null'
                    AND NOT pg_catalog.pg_input_is_valid(e.value ->> 'created_at', 'timestamptz') THEN
                   pg_catalog.format('"created_at" %s is not a time', memory._quote(e.value ->> 'created_at'))
               WHEN pg_catalog.octet_length(e.value ->> 'source_description') > memory._limit('string_bytes') THEN
                   '"source_description" is too long'
           END || pg_catalog.format(' (episode %s)', e.ordinality)
      INTO v_problem
      FROM pg_catalog.jsonb_array_elements(p_episodes) WITH ORDINALITY AS e
     WHERE pg_catalog.jsonb_typeof(e.value) IS DISTINCT FROM 'object'
        OR pg_catalog.jsonb_typeof(e.value -> 'data') IS DISTINCT FROM 'string'
        OR pg_catalog.btrim(e.value ->> 'data') = ''
        OR pg_catalog.octet_length(e.value ->> 'data') > memory._limit('string_bytes')
        OR COALESCE(e.value ->> 'type', 'text') NOT IN ('text', 'json', 'message')
        OR (e.value ->> 'type' = 'json' AND NOT pg_catalog.pg_input_is_valid(e.value ->> 'data', 'jsonb'))
        OR (e.value ? 'created_at' AND pg_catalog.jsonb_typeof(e.value -> 'created_at') <> 'null'
            AND NOT pg_catalog.pg_input_is_valid(e.value ->> 'created_at', 'timestamptz'))
        OR pg_catalog.octet_length(e.value ->> 'source_description') > memory._limit('string_bytes')
     ORDER BY e.ordinality LIMIT 1;
    IF v_problem IS NOT NULL THEN
        RAISE EXCEPTION 'bad episode: %', v_problem
            USING ERRCODE = 'invalid_parameter_value', HINT = 'an episode is {"data": "...", "type": "text"}; nothing was written';
    END IF;

    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'ord', e.ordinality,
               'episode_uuid', CASE WHEN e.value ->> 'created_at' IS NULL THEN pg_catalog.gen_random_uuid()
                                    ELSE pg_catalog.md5(pg_catalog.concat_ws(E'\x1f', v_sim::text,
                                             (e.value ->> 'created_at')::timestamptz::text,
                                             e.value ->> 'source_description', e.value ->> 'data'))::uuid END,
               'content', e.value ->> 'data', 'source', COALESCE(e.value ->> 'type', 'text'),
               'source_description', e.value ->> 'source_description',
               'created_at', COALESCE((e.value ->> 'created_at')::timestamptz, pg_catalog.now()),
               'embedding', NULLIF(e.value -> 'embedding', 'null'::jsonb), 'embedding_model', e.value ->> 'embedding_model'))
      INTO v_added
      FROM pg_catalog.jsonb_array_elements(p_episodes) WITH ORDINALITY AS e;

    -- the searchable episode: an ordinary one of the simulation (words, meaning, evidence)
    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
               'id', a.episode_uuid::text, 'action_type', pg_catalog.upper(a.source), 'content', a.content,
               'occurred_at', a.created_at,
               'metadata', pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                   'zep_source', a.source, 'source_description', a.source_description)),
               'embedding', a.embedding, 'embedding_model', a.embedding_model)) ORDER BY a.ord)
      INTO v_items
      FROM pg_catalog.jsonb_to_recordset(v_added) AS a (ord bigint, episode_uuid uuid, content text, source text,
               source_description text, created_at timestamptz, embedding jsonb, embedding_model text)
     WHERE NOT EXISTS (SELECT 1 FROM memory.zep_episodes AS z
                        WHERE z.tenant_id = p_tenant_id AND z.simulation_id = v_sim AND z.episode_uuid = a.episode_uuid);
    IF v_items IS NOT NULL THEN
        PERFORM memory.upsert_episodes(p_tenant_id, v_sim, v_items);
    END IF;
    INSERT INTO memory.zep_episodes (tenant_id, simulation_id, episode_uuid, content, source, source_description,
                                     created_at, batch_id)
    SELECT p_tenant_id, v_sim, a.episode_uuid, a.content, a.source, a.source_description, a.created_at, p_batch_id
      FROM pg_catalog.jsonb_to_recordset(v_added) AS a (ord bigint, episode_uuid uuid, content text, source text,
               source_description text, created_at timestamptz, embedding jsonb, embedding_model text) ORDER BY a.ord
    ON CONFLICT (tenant_id, simulation_id, episode_uuid) DO NOTHING;

    RETURN QUERY
    SELECT memory._zep_episode(z)
      FROM pg_catalog.jsonb_to_recordset(v_added) AS a (ord bigint, episode_uuid uuid, content text, source text,
               source_description text, created_at timestamptz, embedding jsonb, embedding_model text)
      JOIN memory.zep_episodes AS z
        ON z.tenant_id = p_tenant_id AND z.simulation_id = v_sim AND z.episode_uuid = a.episode_uuid
     ORDER BY a.ord;
END
$$;

ALTER FUNCTION memory.zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb, p_batch_id uuid) OWNER TO memory_owner;

-- FUNCTION zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb, p_batch_id uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb, p_batch_id uuid) IS 'Zep graph.add / add_batch: episodes committed, searchable and queued for extraction; all or none';

-- FUNCTION zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb, p_batch_id uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb, p_batch_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb, p_batch_id uuid) TO memory_writer;

-- zep_apply_extraction(uuid, uuid, integer, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_extraction jsonb) RETURNS jsonb
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_ep         memory.zep_episodes;
    v_sim        uuid;
    v_model      text;
    v_etypes     text[];
    v_edge_types jsonb;
    v_names      jsonb := '{}'::jsonb;
    v_nodes      jsonb := '{}'::jsonb;
    v_edges      jsonb := '{}'::jsonb;
    v_refused    jsonb := '[]'::jsonb;
    v_counts     jsonb := '{"entities_created": 0, "entities_resolved": 0, "facts_created": 0,
                           "facts_merged": 0, "facts_ended": 0}'::jsonb;
    v_item       record;
    v_name       text;
    v_type       text;
    v_vec        public.vector;
    v_found      record;
    v_id         text;
    v_src        text;
    v_tgt        text;
    v_fact       text;
    v_valid      timestamptz;
    v_invalid    timestamptz;
    v_old        jsonb;
    v_end        text;
    v_summary    jsonb;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    SELECT * INTO v_ep FROM memory.zep_episodes AS z
     WHERE z.tenant_id = p_tenant_id AND z.episode_uuid = p_episode_uuid
     LIMIT 1 FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown episode %', p_episode_uuid USING ERRCODE = 'no_data_found';
    END IF;
    IF v_ep.status = 'succeeded' THEN
        RETURN COALESCE(v_ep.extracted, '{}'::jsonb) || '{"status": "already"}'::jsonb;
    END IF;
    IF v_ep.status <> 'processing' OR v_ep.attempts IS DISTINCT FROM p_attempt THEN
        RAISE EXCEPTION 'episode % is no longer claimed by attempt %', p_episode_uuid, p_attempt
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'its claim ran out and another extractor took it: claim again (memory.zep_claim_episodes)';
    END IF;
    IF pg_catalog.jsonb_typeof(p_extraction) IS DISTINCT FROM 'object'
       OR pg_catalog.jsonb_typeof(COALESCE(p_extraction -> 'entities', '[]')) <> 'array'
       OR pg_catalog.jsonb_typeof(COALESCE(p_extraction -> 'facts', '[]')) <> 'array' THEN
        RAISE EXCEPTION 'an extraction is {"entities": [...], "facts": [...]}, not %', memory._quote(p_extraction::text)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM memory._check_limit('batch_bytes', 'p_extraction', pg_catalog.octet_length(p_extraction::text));
    v_sim := v_ep.simulation_id;
    -- one extraction of a graph commits at a time: each resolves against the entities the
    -- one before it made
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('zep-extract/' || v_sim::text, 44));
    v_model := (memory._simulation_model(p_tenant_id, v_sim)).model;
    SELECT ARRAY(SELECT t ->> 'name' FROM pg_catalog.jsonb_array_elements(o.entity_types) AS t), o.edge_types
      INTO v_etypes, v_edge_types
      FROM memory.zep_ontologies AS o WHERE o.tenant_id = p_tenant_id AND o.simulation_id = v_sim;
    v_etypes := COALESCE(v_etypes, '{}');
    v_edge_types := COALESCE(v_edge_types, '[]');

    -- entities
    FOR v_item IN SELECT e.value AS item, e.ordinality AS ord
                    FROM pg_catalog.jsonb_array_elements(COALESCE(p_extraction -> 'entities', '[]')) WITH ORDINALITY AS e LOOP
        v_name := pg_catalog.btrim(v_item.item ->> 'name');
        v_type := COALESCE(NULLIF(pg_catalog.btrim(v_item.item ->> 'type'), ''), 'Entity');
        IF pg_catalog.jsonb_typeof(v_item.item) <> 'object' OR v_name IS NULL OR v_name = ''
           OR pg_catalog.char_length(v_name) > 200 THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('entity', v_item.ord, 'item', v_item.item,
                                                                    'why', 'no name of at most 200 characters');
            CONTINUE;
        END IF;
        IF v_type <> 'Entity' AND NOT (v_type = ANY (v_etypes)) THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('entity', v_item.ord, 'name', v_name,
                'why', pg_catalog.format('type %s is not an entity type of the ontology', memory._quote(v_type)));
            CONTINUE;
        END IF;
        CONTINUE WHEN v_names ? pg_catalog.lower(v_name);
        v_vec := CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'embedding') = 'array'
                      THEN (v_item.item -> 'embedding')::text::public.vector END;
        SELECT * INTO v_found FROM memory._zep_resolve_entity(p_tenant_id, v_sim, v_name, v_type, v_vec, v_model);
        IF v_found.node_id IS NOT NULL THEN
            v_names := v_names || pg_catalog.jsonb_build_object(pg_catalog.lower(v_name), v_found.node_id);
            v_counts := pg_catalog.jsonb_set(v_counts, '{entities_resolved}', pg_catalog.to_jsonb((v_counts ->> 'entities_resolved')::int + 1));
            IF v_found.found_by <> 'name' THEN
                -- the name it was found by becomes an alias: the next mention is found by it
                SELECT pg_catalog.jsonb_build_object('id', n.node_id, 'name', n.name, 'type', n.type, 'labels', n.labels,
                           'summary', n.summary,
                           'attributes', n.attributes || pg_catalog.jsonb_build_object('aliases',
                               COALESCE(CASE WHEN pg_catalog.jsonb_typeof(n.attributes -> 'aliases') = 'array'
                                             THEN n.attributes -> 'aliases' END, '[]') || pg_catalog.to_jsonb(v_name)),
                           'embedding', n.embedding::text::jsonb, 'embedding_model', n.embedding_model,
                           'summary_embedding', n.summary_embedding::text::jsonb)
                  INTO v_old
                  FROM memory.nodes AS n
                 WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim AND n.node_key = pg_catalog.md5(v_found.node_id)::uuid;
                v_nodes := v_nodes || pg_catalog.jsonb_build_object(v_found.node_id, pg_catalog.jsonb_strip_nulls(v_old));
            END IF;
        ELSE
            v_id := pg_catalog.md5('zep-entity/' || v_sim::text || '/' || v_type || '/' || pg_catalog.lower(v_name))::uuid::text;
            v_nodes := v_nodes || pg_catalog.jsonb_build_object(v_id, pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'id', v_id, 'name', v_name, 'type', v_type,
                'labels', CASE WHEN v_type = 'Entity' THEN '["Entity"]'::jsonb ELSE pg_catalog.jsonb_build_array('Entity', v_type) END,
                'summary', NULLIF(pg_catalog.btrim(v_item.item ->> 'summary'), ''),
                'embedding', CASE WHEN v_vec IS NOT NULL THEN v_item.item -> 'embedding' END,
                'embedding_model', CASE WHEN v_vec IS NOT NULL THEN v_item.item ->> 'embedding_model' END)));
            v_names := v_names || pg_catalog.jsonb_build_object(pg_catalog.lower(v_name), v_id);
            v_counts := pg_catalog.jsonb_set(v_counts, '{entities_created}', pg_catalog.to_jsonb((v_counts ->> 'entities_created')::int + 1));
        END IF;
    END LOOP;
    IF v_nodes <> '{}'::jsonb THEN
        PERFORM memory.upsert_nodes(p_tenant_id, v_sim,
                                    (SELECT pg_catalog.jsonb_agg(n.value ORDER BY n.key) FROM pg_catalog.jsonb_each(v_nodes) AS n));
    END IF;

    -- facts
    FOR v_item IN SELECT e.value AS item, e.ordinality AS ord
                    FROM pg_catalog.jsonb_array_elements(COALESCE(p_extraction -> 'facts', '[]')) WITH ORDINALITY AS e LOOP
        IF pg_catalog.jsonb_typeof(v_item.item) <> 'object' THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'item', v_item.item, 'why', 'not an object');
            CONTINUE;
        END IF;
        v_type := pg_catalog.btrim(v_item.item ->> 'type');
        v_fact := pg_catalog.btrim(v_item.item ->> 'fact');
        v_src := COALESCE(v_names ->> pg_catalog.lower(pg_catalog.btrim(v_item.item ->> 'source')),
                          (SELECT r.node_id FROM memory._zep_resolve_entity(p_tenant_id, v_sim, pg_catalog.btrim(v_item.item ->> 'source'),
                                                                            'Entity', NULL, NULL) AS r WHERE r.found_by = 'name'));
        v_tgt := COALESCE(v_names ->> pg_catalog.lower(pg_catalog.btrim(v_item.item ->> 'target')),
                          (SELECT r.node_id FROM memory._zep_resolve_entity(p_tenant_id, v_sim, pg_catalog.btrim(v_item.item ->> 'target'),
                                                                            'Entity', NULL, NULL) AS r WHERE r.found_by = 'name'));
        v_end := CASE
            WHEN v_fact IS NULL OR v_fact = '' THEN 'no fact'
            WHEN v_type IS NULL OR v_type = '' OR pg_catalog.char_length(v_type) > memory._label_max() THEN
                pg_catalog.format('no type of at most %s characters', memory._label_max())
            WHEN pg_catalog.jsonb_array_length(v_edge_types) > 0
                 AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(v_edge_types) AS t WHERE t ->> 'name' = v_type) THEN
                pg_catalog.format('type %s is not an edge type of the ontology', memory._quote(v_type))
            WHEN v_src IS NULL THEN
                pg_catalog.format('source %s is not an entity of the text or the graph', memory._quote(v_item.item ->> 'source'))
            WHEN v_tgt IS NULL THEN
                pg_catalog.format('target %s is not an entity of the text or the graph', memory._quote(v_item.item ->> 'target'))
            WHEN v_src = v_tgt THEN 'source and target are the same entity'
            WHEN NOT memory._zep_pair_allowed(v_edge_types, v_type,
                     (SELECT n.type FROM memory.nodes AS n WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim
                         AND n.node_key = pg_catalog.md5(v_src)::uuid),
                     (SELECT n.type FROM memory.nodes AS n WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim
                         AND n.node_key = pg_catalog.md5(v_tgt)::uuid)) THEN
                pg_catalog.format('edge type %s may not join these entity types (its source_targets)', memory._quote(v_type))
        END;
        IF v_end IS NOT NULL THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'item', v_item.item - 'embedding', 'why', v_end);
            CONTINUE;
        END IF;
        v_valid := NULL;
        v_invalid := NULL;
        IF v_item.item ->> 'valid_at' IS NOT NULL THEN
            IF pg_catalog.pg_input_is_valid(v_item.item ->> 'valid_at', 'timestamptz') THEN
                v_valid := (v_item.item ->> 'valid_at')::timestamptz;
            ELSE
                v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'valid_at', v_item.item -> 'valid_at',
                                                                        'why', 'valid_at is not a time (the fact kept without it)');
            END IF;
        END IF;
        IF v_item.item ->> 'invalid_at' IS NOT NULL THEN
            IF pg_catalog.pg_input_is_valid(v_item.item ->> 'invalid_at', 'timestamptz')
               AND (v_valid IS NULL OR (v_item.item ->> 'invalid_at')::timestamptz >= v_valid) THEN
                v_invalid := (v_item.item ->> 'invalid_at')::timestamptz;
            ELSE
                v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'invalid_at', v_item.item -> 'invalid_at',
                                                                        'why', 'invalid_at is not a time after valid_at (the fact kept without it)');
            END IF;
        END IF;
        -- the same fact, current between the same entities: it gains this episode
        SELECT memory._zep_edge_item(e) INTO v_old
          FROM memory.edges AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
           AND e.source_key = pg_catalog.md5(v_src)::uuid AND e.target_key = pg_catalog.md5(v_tgt)::uuid
           AND e.type = v_type AND pg_catalog.lower(e.fact) = pg_catalog.lower(v_fact)
           AND memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, pg_catalog.now()) = 'current'
         ORDER BY e.edge_id LIMIT 1;
        v_old := COALESCE(v_edges -> (v_old ->> 'id'), v_old);
        IF v_old ->> 'invalid_at' IS NOT NULL OR v_old ->> 'expired_at' IS NOT NULL THEN
            v_old := NULL;  -- ended by a fact of this same text
        END IF;
        IF v_old IS NOT NULL THEN
            v_edges := v_edges || pg_catalog.jsonb_build_object(v_old ->> 'id',
                pg_catalog.jsonb_set(v_old, '{attributes,episodes}',
                    (SELECT pg_catalog.jsonb_agg(DISTINCT x) FROM pg_catalog.jsonb_array_elements(
                         COALESCE(v_old -> 'attributes' -> 'episodes', '[]') || pg_catalog.to_jsonb(p_episode_uuid::text)) AS x)));
            v_counts := pg_catalog.jsonb_set(v_counts, '{facts_merged}', pg_catalog.to_jsonb((v_counts ->> 'facts_merged')::int + 1));
            v_id := v_old ->> 'id';
        ELSE
            v_id := pg_catalog.md5('zep-fact/' || v_sim::text || '/' || p_episode_uuid::text || '/' || v_item.ord)::uuid::text;
            v_edges := v_edges || pg_catalog.jsonb_build_object(v_id, pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'id', v_id, 'type', v_type, 'source_id', v_src, 'target_id', v_tgt, 'fact', v_fact,
                'attributes', pg_catalog.jsonb_build_object('episodes', pg_catalog.jsonb_build_array(p_episode_uuid::text)),
                'valid_at', v_valid, 'invalid_at', v_invalid, 'learned_at', pg_catalog.now(),
                'embedding', CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'embedding') = 'array' THEN v_item.item -> 'embedding' END,
                'embedding_model', CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'embedding') = 'array'
                                        THEN v_item.item ->> 'embedding_model' END)));
            v_counts := pg_catalog.jsonb_set(v_counts, '{facts_created}', pg_catalog.to_jsonb((v_counts ->> 'facts_created')::int + 1));
        END IF;
        -- the current facts of its entities that it ends
        FOR v_end IN SELECT x FROM pg_catalog.jsonb_array_elements_text(
                         CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'ends') = 'array' THEN v_item.item -> 'ends' ELSE '[]' END) AS x LOOP
            SELECT memory._zep_edge_item(e) INTO v_old
              FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.edge_key = pg_catalog.md5(v_end)::uuid
               AND e.edge_id <> v_id
               AND (e.source_key IN (pg_catalog.md5(v_src)::uuid, pg_catalog.md5(v_tgt)::uuid)
                    OR e.target_key IN (pg_catalog.md5(v_src)::uuid, pg_catalog.md5(v_tgt)::uuid));
            v_old := COALESCE(v_edges -> v_end, v_old);
            IF v_old IS NULL OR v_old ->> 'invalid_at' IS NOT NULL OR v_old ->> 'expired_at' IS NOT NULL
               OR (v_old ->> 'valid_at')::timestamptz > pg_catalog.now() THEN
                v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'ends', v_end,
                    'why', 'not a current fact of its source or target');
                CONTINUE;
            END IF;
            v_edges := v_edges || pg_catalog.jsonb_build_object(v_end, v_old || pg_catalog.jsonb_build_object(
                'invalid_at', GREATEST((v_old ->> 'valid_at')::timestamptz, COALESCE(v_valid, v_ep.created_at)),
                'expired_at', pg_catalog.now()));
            v_counts := pg_catalog.jsonb_set(v_counts, '{facts_ended}', pg_catalog.to_jsonb((v_counts ->> 'facts_ended')::int + 1));
        END LOOP;
    END LOOP;
    IF v_edges <> '{}'::jsonb THEN
        PERFORM memory.upsert_edges(p_tenant_id, v_sim,
                                    (SELECT pg_catalog.jsonb_agg(e.value ORDER BY e.key) FROM pg_catalog.jsonb_each(v_edges) AS e));
        PERFORM memory.link_evidence(p_tenant_id, v_sim);
    END IF;

    v_summary := v_counts || pg_catalog.jsonb_build_object('refused', pg_catalog.jsonb_array_length(v_refused));
    UPDATE memory.zep_episodes AS z
       SET status = 'succeeded', processed_at = pg_catalog.now(), claimed_until = NULL, next_attempt_at = NULL,
           last_error = NULL, extracted = v_summary, refused = NULLIF(v_refused, '[]'::jsonb)
     WHERE z.tenant_id = p_tenant_id AND z.simulation_id = v_sim AND z.episode_uuid = p_episode_uuid;
    RETURN v_summary || '{"status": "succeeded"}'::jsonb;
END
$$;

ALTER FUNCTION memory.zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_extraction jsonb) OWNER TO memory_owner;

-- FUNCTION zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_extraction jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_extraction jsonb) IS 'Commit an episode''s extraction whole: entities resolved, facts added or merged, ended facts kept ended, evidence, processed';

-- FUNCTION zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_extraction jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_extraction jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_extraction jsonb) TO memory_writer;

-- zep_claim_episodes(uuid, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_claim_episodes(p_tenant_id uuid, p_limit integer DEFAULT 1, p_lease_seconds integer DEFAULT 300) RETURNS TABLE(graph_id text, simulation_id uuid, episode_uuid uuid, sequence_index bigint, content text, source text, source_description text, created_at timestamp with time zone, attempt integer, model text, entity_types jsonb, edge_types jsonb)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_lease interval := pg_catalog.make_interval(secs => LEAST(GREATEST(COALESCE(p_lease_seconds, 300), 10), 3600));
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    UPDATE memory.zep_episodes AS z
       SET status = 'failed', claimed_until = NULL, next_attempt_at = NULL,
           last_error = pg_catalog.format('extraction did not finish in %s attempts (the last claim ran out)', z.attempts)
     WHERE z.tenant_id = p_tenant_id AND z.status = 'processing' AND z.claimed_until < pg_catalog.now()
       AND z.attempts >= memory._zep_attempts_max();
    RETURN QUERY
    WITH next AS (
        SELECT z.simulation_id, z.episode_uuid
          FROM memory.zep_episodes AS z
         WHERE z.tenant_id = p_tenant_id AND z.status <> 'succeeded'
           AND (z.status = 'queued'
                OR (z.status = 'processing' AND z.claimed_until < pg_catalog.now())
                OR (z.status = 'failed' AND z.attempts < memory._zep_attempts_max()
                    AND z.next_attempt_at <= pg_catalog.now()))
         ORDER BY z.sequence_index
         LIMIT LEAST(GREATEST(COALESCE(p_limit, 1), 1), 100)
           FOR UPDATE SKIP LOCKED
    ), claimed AS (
        UPDATE memory.zep_episodes AS z
           SET status = 'processing', attempts = z.attempts + 1,
               claimed_until = pg_catalog.now() + v_lease, next_attempt_at = NULL
          FROM next AS n
         WHERE z.tenant_id = p_tenant_id AND z.simulation_id = n.simulation_id AND z.episode_uuid = n.episode_uuid
        RETURNING z.*
    )
    SELECT (memory._zep_graph_json(s.simulation_id, s.name, s.metadata, s.created_at)) ->> 'graph_id',
           c.simulation_id, c.episode_uuid, c.sequence_index, c.content, c.source, c.source_description,
           c.created_at, c.attempts, m.model,
           COALESCE(o.entity_types, '[]'::jsonb), COALESCE(o.edge_types, '[]'::jsonb)
      FROM claimed AS c
      JOIN memory.simulations AS s ON s.tenant_id = p_tenant_id AND s.simulation_id = c.simulation_id
      LEFT JOIN memory.zep_ontologies AS o ON o.tenant_id = p_tenant_id AND o.simulation_id = c.simulation_id
     CROSS JOIN LATERAL memory._simulation_model(p_tenant_id, c.simulation_id) AS m
     ORDER BY c.sequence_index;
END
$$;

ALTER FUNCTION memory.zep_claim_episodes(p_tenant_id uuid, p_limit integer, p_lease_seconds integer) OWNER TO memory_owner;

-- FUNCTION zep_claim_episodes(p_tenant_id uuid, p_limit integer, p_lease_seconds integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_claim_episodes(p_tenant_id uuid, p_limit integer, p_lease_seconds integer) IS 'The extraction queue: claim the oldest episodes due for extraction, with their graph''s ontology and model';

-- FUNCTION zep_claim_episodes(p_tenant_id uuid, p_limit integer, p_lease_seconds integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_claim_episodes(p_tenant_id uuid, p_limit integer, p_lease_seconds integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_claim_episodes(p_tenant_id uuid, p_limit integer, p_lease_seconds integer) TO memory_writer;

-- zep_create_graph(uuid, text, text, text, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text DEFAULT NULL::text, p_description text DEFAULT NULL::text, p_model text DEFAULT NULL::text) RETURNS TABLE(simulation_id uuid, model text, graph jsonb, created boolean)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $_$
DECLARE
    v_sim uuid;
    v_new boolean := false;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_graph_id, 'p_graph_id', 'name the graph (graph.create''s graph_id)');
    IF p_graph_id !~ '^[A-Za-z0-9][A-Za-z0-9_.:-]*$' OR pg_catalog.char_length(p_graph_id) > memory._label_max() THEN
        RAISE EXCEPTION 'graph_id % is not a graph id', memory._quote(p_graph_id)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('letters, digits and _ . : - , at most %s characters, starting with a letter or digit',
                                           memory._label_max());
    END IF;
    PERFORM memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    PERFORM memory._check_limit('string_bytes', 'p_description', pg_catalog.octet_length(p_description));
    -- one graph_id, one graph: racing creates of the same id wait for each other
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_tenant_id::text || '/' || p_graph_id, 44));
    BEGIN
        v_sim := memory._zep_simulation(p_tenant_id, p_graph_id);
    EXCEPTION WHEN no_data_found THEN
        v_sim := pg_catalog.md5('zep-graph/' || p_tenant_id::text || '/' || p_graph_id)::uuid;
        PERFORM memory.upsert_simulation(p_tenant_id, v_sim, p_graph_id,
            pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'graph_id', p_graph_id, 'zep_name', p_name, 'description', p_description, 'made_by', 'zep')));
        v_new := true;
    END;
    IF p_model IS NOT NULL THEN
        PERFORM memory.set_model(p_tenant_id, v_sim, p_model);
    END IF;
    RETURN QUERY SELECT g.simulation_id, g.model, g.graph, v_new FROM memory.zep_graph(p_tenant_id, v_sim::text) AS g;
END
$_$;

ALTER FUNCTION memory.zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text, p_description text, p_model text) OWNER TO memory_owner;

-- FUNCTION zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text, p_description text, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text, p_description text, p_model text) IS 'Zep graph.create: the graph of a graph_id, made once (creating it again returns it)';

-- FUNCTION zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text, p_description text, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text, p_description text, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text, p_description text, p_model text) TO memory_writer;

-- zep_delete_graph(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_delete_graph(p_tenant_id uuid, p_graph_id text) RETURNS TABLE(nodes bigint, edges bigint, episodes bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
    SELECT d.nodes, d.edges, d.episodes
      FROM memory.delete_simulation(p_tenant_id, memory._zep_simulation(p_tenant_id, p_graph_id)) AS d;
$$;

ALTER FUNCTION memory.zep_delete_graph(p_tenant_id uuid, p_graph_id text) OWNER TO memory_owner;

-- FUNCTION zep_delete_graph(p_tenant_id uuid, p_graph_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_delete_graph(p_tenant_id uuid, p_graph_id text) IS 'Zep graph.delete: a graph and everything in it';

-- FUNCTION zep_delete_graph(p_tenant_id uuid, p_graph_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_delete_graph(p_tenant_id uuid, p_graph_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_delete_graph(p_tenant_id uuid, p_graph_id text) TO memory_writer;

-- zep_edge(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_edge(p_tenant_id uuid, p_uuid text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_sim uuid := memory._zep_home(p_tenant_id, 'edge', p_uuid);
BEGIN
    RETURN (SELECT memory._zep_edge(g, e.created_at)
              FROM memory.get_edge(p_tenant_id, v_sim, p_uuid) AS g
              JOIN memory.edges AS e
                ON e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.edge_key = pg_catalog.md5(p_uuid)::uuid);
END
$$;

ALTER FUNCTION memory.zep_edge(p_tenant_id uuid, p_uuid text) OWNER TO memory_owner;

-- FUNCTION zep_edge(p_tenant_id uuid, p_uuid text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_edge(p_tenant_id uuid, p_uuid text) IS 'Zep graph.edge.get: one relationship by its uuid in Zep''s shape (P0002 when unknown)';

-- FUNCTION zep_edge(p_tenant_id uuid, p_uuid text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_edge(p_tenant_id uuid, p_uuid text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_edge(p_tenant_id uuid, p_uuid text) TO memory_reader;

-- zep_edges(uuid, text, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer DEFAULT 1000, p_uuid_cursor text DEFAULT NULL::text) RETURNS SETOF jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_sim uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
BEGIN
    RETURN QUERY
    SELECT memory._zep_edge(g, e.created_at)
      FROM memory.graph_edges(p_tenant_id, v_sim, p_limit, p_uuid_cursor) AS g
      JOIN memory.edges AS e
        ON e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.edge_key = pg_catalog.md5(g.edge_id)::uuid
     ORDER BY g.edge_id COLLATE "C";
END
$$;

ALTER FUNCTION memory.zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) OWNER TO memory_owner;

-- FUNCTION zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) IS 'Zep graph.edge.get_by_graph_id: a page of a graph''s relationships in Zep''s shape, after a uuid cursor';

-- FUNCTION zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) TO memory_reader;

-- zep_episode(uuid, uuid); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_episode(p_tenant_id uuid, p_episode_uuid uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_episode jsonb;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_episode_uuid, 'p_episode_uuid', 'pass the uuid graph.add answered');
    SELECT memory._zep_episode(z) INTO v_episode
      FROM memory.zep_episodes AS z
     WHERE z.tenant_id = p_tenant_id AND z.episode_uuid = p_episode_uuid
     LIMIT 1;
    IF v_episode IS NULL THEN
        RAISE EXCEPTION 'unknown episode %', p_episode_uuid
            USING ERRCODE = 'no_data_found', HINT = 'graph.episode.get_by_graph_id lists a graph''s episodes';
    END IF;
    RETURN v_episode;
END
$$;

ALTER FUNCTION memory.zep_episode(p_tenant_id uuid, p_episode_uuid uuid) OWNER TO memory_owner;

-- FUNCTION zep_episode(p_tenant_id uuid, p_episode_uuid uuid); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_episode(p_tenant_id uuid, p_episode_uuid uuid) IS 'Zep graph.episode.get: an episode added through serve, processed or not (P0002 when unknown)';

-- FUNCTION zep_episode(p_tenant_id uuid, p_episode_uuid uuid); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_episode(p_tenant_id uuid, p_episode_uuid uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_episode(p_tenant_id uuid, p_episode_uuid uuid) TO memory_reader;

-- zep_episodes; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.zep_episodes ENABLE ROW LEVEL SECURITY;

-- zep_episodes; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.zep_episodes (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    episode_uuid uuid NOT NULL,
    sequence_index bigint DEFAULT nextval('memory.zep_sequence'::regclass) NOT NULL,
    content text NOT NULL,
    source text DEFAULT 'text'::text NOT NULL,
    source_description text,
    created_at timestamp with time zone NOT NULL,
    added_at timestamp with time zone DEFAULT now() NOT NULL,
    added_by name DEFAULT CURRENT_USER NOT NULL,
    batch_id uuid,
    status text DEFAULT 'queued'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    claimed_until timestamp with time zone,
    next_attempt_at timestamp with time zone,
    last_error text,
    processed_at timestamp with time zone,
    extracted jsonb,
    refused jsonb,
    CONSTRAINT zep_episodes_attempts_check CHECK ((attempts >= 0)),
    CONSTRAINT zep_episodes_claim_check CHECK (((status = 'processing'::text) = (claimed_until IS NOT NULL))),
    CONSTRAINT zep_episodes_source_check CHECK ((source = ANY (ARRAY['text'::text, 'json'::text, 'message'::text]))),
    CONSTRAINT zep_episodes_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'processing'::text, 'succeeded'::text, 'failed'::text])))
);

ALTER TABLE ONLY memory.zep_episodes FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.zep_episodes OWNER TO memory_owner;

-- TABLE zep_episodes; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.zep_episodes IS 'Episodes added through swarm-memory serve: their Zep fields and their place in the extraction queue';

-- TABLE zep_episodes; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.zep_episodes TO memory_reader;
GRANT INSERT,DELETE,UPDATE ON TABLE memory.zep_episodes TO memory_writer;

-- zep_episodes owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.zep_episodes FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_episodes owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.zep_episodes FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_episodes readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.zep_episodes FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_episodes writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.zep_episodes FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_episodes writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.zep_episodes FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_episodes writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.zep_episodes FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_episodes zep_episodes_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.zep_episodes
    ADD CONSTRAINT zep_episodes_pkey PRIMARY KEY (tenant_id, simulation_id, episode_uuid);

-- zep_episodes zep_episodes_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.zep_episodes
    ADD CONSTRAINT zep_episodes_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- zep_episodes_graph_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX zep_episodes_graph_idx ON memory.zep_episodes USING btree (tenant_id, simulation_id, sequence_index);

-- zep_episodes_queue_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX zep_episodes_queue_idx ON memory.zep_episodes USING btree (tenant_id, sequence_index) WHERE (status <> 'succeeded'::text);

-- zep_episodes_uuid_idx; Type: INDEX; Schema: memory; Owner: memory_owner
CREATE INDEX zep_episodes_uuid_idx ON memory.zep_episodes USING btree (tenant_id, episode_uuid);

-- zep_extraction_context(uuid, uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_text     text := pg_catalog.lower(COALESCE(p_text, ''));
    v_entities jsonb;
    v_facts    jsonb;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_limit('string_bytes', 'p_text', pg_catalog.octet_length(p_text));
    WITH named AS MATERIALIZED (
        SELECT n.node_id, n.node_key, n.name, n.type, n.summary
          FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
           AND (pg_catalog.strpos(v_text, pg_catalog.lower(n.name)) > 0
                OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements_text(
                                             CASE WHEN pg_catalog.jsonb_typeof(n.attributes -> 'aliases') = 'array'
                                                  THEN n.attributes -> 'aliases' ELSE '[]'::jsonb END) AS a
                            WHERE pg_catalog.strpos(v_text, pg_catalog.lower(a)) > 0))
         ORDER BY pg_catalog.char_length(n.name) DESC, n.node_id
         LIMIT 40
    ), current_facts AS (
        SELECT e.edge_id, e.type, e.fact, s.name AS source, t.name AS target, e.valid_at, e.learned_at
          FROM memory.edges AS e
          JOIN memory.nodes AS s ON s.tenant_id = e.tenant_id AND s.simulation_id = e.simulation_id AND s.node_key = e.source_key
          JOIN memory.nodes AS t ON t.tenant_id = e.tenant_id AND t.simulation_id = e.simulation_id AND t.node_key = e.target_key
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND (e.source_key IN (SELECT x.node_key FROM named AS x) OR e.target_key IN (SELECT x.node_key FROM named AS x))
           AND memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, pg_catalog.now()) = 'current'
         ORDER BY COALESCE(e.valid_at, e.learned_at, e.created_at) DESC, e.edge_id
         LIMIT 40
    )
    SELECT (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'id', x.node_id, 'name', x.name, 'type', x.type, 'summary', x.summary) ORDER BY x.name), '[]')
              FROM named AS x),
           (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'n', f.n, 'id', f.edge_id, 'type', f.type, 'fact', f.fact, 'source', f.source,
                       'target', f.target, 'valid_at', memory._zep_time(f.valid_at)) ORDER BY f.n), '[]')
              FROM (SELECT c.*, pg_catalog.row_number() OVER (ORDER BY c.source, c.target, c.edge_id) AS n
                      FROM current_facts AS c) AS f)
      INTO v_entities, v_facts;
    RETURN pg_catalog.jsonb_build_object('entities', v_entities, 'facts', v_facts);
END
$$;

ALTER FUNCTION memory.zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text) OWNER TO memory_owner;

-- FUNCTION zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text) IS 'The entities a text names in a graph and their current facts, numbered: what extraction resolves against and may end';

-- FUNCTION zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text) TO memory_reader;

-- zep_fail_extraction(uuid, uuid, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_error text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    UPDATE memory.zep_episodes AS z
       SET status = 'failed', claimed_until = NULL,
           last_error = pg_catalog.left(COALESCE(p_error, 'extraction failed'), 2000),
           next_attempt_at = pg_catalog.now() + pg_catalog.make_interval(secs => 30 * 2 ^ LEAST(z.attempts - 1, 10))
     WHERE z.tenant_id = p_tenant_id AND z.episode_uuid = p_episode_uuid
       AND z.status = 'processing' AND z.attempts = p_attempt;
    RETURN FOUND;
END
$$;

ALTER FUNCTION memory.zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_error text) OWNER TO memory_owner;

-- FUNCTION zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_error text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_error text) IS 'An extraction that did not commit: the episode failed with its error, retried later';

-- FUNCTION zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_error text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer, p_error text) TO memory_writer;

-- zep_graph(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_graph(p_tenant_id uuid, p_graph_id text) RETURNS TABLE(simulation_id uuid, model text, graph jsonb)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_sim uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
BEGIN
    RETURN QUERY
    SELECT s.simulation_id, m.model, memory._zep_graph_json(s.simulation_id, s.name, s.metadata, s.created_at)
      FROM memory.simulations AS s
     CROSS JOIN LATERAL memory.model_of(p_tenant_id, s.simulation_id) AS m
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim;
END
$$;

ALTER FUNCTION memory.zep_graph(p_tenant_id uuid, p_graph_id text) OWNER TO memory_owner;

-- FUNCTION zep_graph(p_tenant_id uuid, p_graph_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_graph(p_tenant_id uuid, p_graph_id text) IS 'Zep graph.get: the graph a graph_id names, its simulation and its embedding model (P0002 when unknown)';

-- FUNCTION zep_graph(p_tenant_id uuid, p_graph_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_graph(p_tenant_id uuid, p_graph_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_graph(p_tenant_id uuid, p_graph_id text) TO memory_reader;

-- zep_graph_episodes(uuid, text, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer DEFAULT NULL::integer) RETURNS SETOF jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._zep_episode(z)
      FROM (SELECT z FROM memory.zep_episodes AS z
             WHERE z.tenant_id = p_tenant_id AND z.simulation_id = memory._zep_simulation(p_tenant_id, p_graph_id)
             ORDER BY z.sequence_index DESC
             LIMIT memory._page_rows(p_lastn, 10)) AS l (z)
     ORDER BY (l.z).sequence_index;
$$;

ALTER FUNCTION memory.zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer) OWNER TO memory_owner;

-- FUNCTION zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer) IS 'Zep graph.episode.get_by_graph_id: a graph''s last episodes, oldest first';

-- FUNCTION zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer) TO memory_reader;

-- zep_graphs(uuid, integer, integer); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_graphs(p_tenant_id uuid, p_page_number integer DEFAULT 1, p_page_size integer DEFAULT 1000) RETURNS TABLE(graph jsonb, total_count bigint)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_size integer := memory._page_rows(p_page_size, 1000);
    v_page integer := COALESCE(p_page_number, 1);
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF v_page < 1 THEN
        RAISE EXCEPTION 'page number % is below 1', v_page
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pages are numbered from 1';
    END IF;
    RETURN QUERY
    SELECT memory._zep_graph_json(s.simulation_id, s.name, s.metadata, s.created_at),
           pg_catalog.count(*) OVER ()
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.published
     ORDER BY s.name NULLS LAST, s.created_at, s.simulation_id
    OFFSET (v_page::bigint - 1) * v_size LIMIT v_size;
END
$$;

ALTER FUNCTION memory.zep_graphs(p_tenant_id uuid, p_page_number integer, p_page_size integer) OWNER TO memory_owner;

-- FUNCTION zep_graphs(p_tenant_id uuid, p_page_number integer, p_page_size integer); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_graphs(p_tenant_id uuid, p_page_number integer, p_page_size integer) IS 'Zep graph.list_all: the tenant''s committed simulations as Zep graphs, a page at a time, with the count of all';

-- FUNCTION zep_graphs(p_tenant_id uuid, p_page_number integer, p_page_size integer); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_graphs(p_tenant_id uuid, p_page_number integer, p_page_size integer) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_graphs(p_tenant_id uuid, p_page_number integer, p_page_size integer) TO memory_reader;

-- zep_node(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_node(p_tenant_id uuid, p_uuid text) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT memory._zep_node(n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.created_at)
      FROM memory.get_node(p_tenant_id, memory._zep_home(p_tenant_id, 'node', p_uuid), p_uuid) AS n;
$$;

ALTER FUNCTION memory.zep_node(p_tenant_id uuid, p_uuid text) OWNER TO memory_owner;

-- FUNCTION zep_node(p_tenant_id uuid, p_uuid text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_node(p_tenant_id uuid, p_uuid text) IS 'Zep graph.node.get: one entity by its uuid in Zep''s shape (P0002 when unknown)';

-- FUNCTION zep_node(p_tenant_id uuid, p_uuid text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_node(p_tenant_id uuid, p_uuid text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_node(p_tenant_id uuid, p_uuid text) TO memory_reader;

-- zep_node_edges(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_node_edges(p_tenant_id uuid, p_uuid text) RETURNS SETOF jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_sim uuid := memory._zep_home(p_tenant_id, 'node', p_uuid);
    v_key uuid := pg_catalog.md5(p_uuid)::uuid;
BEGIN
    RETURN QUERY
    SELECT memory._zep_edge(memory._edge_detail(ROW(e.*)::memory.edges), e.created_at)
      FROM memory.edges AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
       AND (e.source_key = v_key OR e.target_key = v_key)
     ORDER BY e.edge_id COLLATE "C";
END
$$;

ALTER FUNCTION memory.zep_node_edges(p_tenant_id uuid, p_uuid text) OWNER TO memory_owner;

-- FUNCTION zep_node_edges(p_tenant_id uuid, p_uuid text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_node_edges(p_tenant_id uuid, p_uuid text) IS 'Zep graph.node.get_entity_edges: every relationship of an entity in Zep''s shape (P0002 when unknown)';

-- FUNCTION zep_node_edges(p_tenant_id uuid, p_uuid text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_node_edges(p_tenant_id uuid, p_uuid text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_node_edges(p_tenant_id uuid, p_uuid text) TO memory_reader;

-- zep_nodes(uuid, text, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer DEFAULT 1000, p_uuid_cursor text DEFAULT NULL::text) RETURNS SETOF jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_sim uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
BEGIN
    RETURN QUERY
    SELECT memory._zep_node(g.node_id, g.name, g.type, g.labels, g.summary, g.attributes, n.created_at)
      FROM memory.graph_nodes(p_tenant_id, v_sim, p_limit, p_uuid_cursor) AS g
      JOIN memory.nodes AS n
        ON n.tenant_id = p_tenant_id AND n.simulation_id = v_sim AND n.node_key = pg_catalog.md5(g.node_id)::uuid
     ORDER BY g.node_id COLLATE "C";
END
$$;

ALTER FUNCTION memory.zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) OWNER TO memory_owner;

-- FUNCTION zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) IS 'Zep graph.node.get_by_graph_id: a page of a graph''s entities in Zep''s shape, after a uuid cursor';

-- FUNCTION zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer, p_uuid_cursor text) TO memory_reader;

-- zep_ontologies; Type: ROW SECURITY; Schema: memory; Owner: memory_owner
ALTER TABLE memory.zep_ontologies ENABLE ROW LEVEL SECURITY;

-- zep_ontologies; Type: TABLE; Schema: memory; Owner: memory_owner
CREATE TABLE memory.zep_ontologies (
    tenant_id uuid NOT NULL,
    simulation_id uuid NOT NULL,
    entity_types jsonb DEFAULT '[]'::jsonb NOT NULL,
    edge_types jsonb DEFAULT '[]'::jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT zep_ontologies_edge_types_check CHECK ((jsonb_typeof(edge_types) = 'array'::text)),
    CONSTRAINT zep_ontologies_entity_types_check CHECK ((jsonb_typeof(entity_types) = 'array'::text))
);

ALTER TABLE ONLY memory.zep_ontologies FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.zep_ontologies OWNER TO memory_owner;

-- TABLE zep_ontologies; Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON TABLE memory.zep_ontologies IS 'The entity and edge types of a graph made through swarm-memory serve (Zep''s set_ontology)';

-- TABLE zep_ontologies; Type: ACL; Schema: memory; Owner: memory_owner
GRANT SELECT ON TABLE memory.zep_ontologies TO memory_reader;
GRANT INSERT,DELETE,UPDATE ON TABLE memory.zep_ontologies TO memory_writer;

-- zep_ontologies owner_removes_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.zep_ontologies FOR DELETE TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_ontologies owner_sees_rows_of_the_entered_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.zep_ontologies FOR SELECT TO memory_owner USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_ontologies readers_see_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.zep_ontologies FOR SELECT TO memory_reader USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_ontologies writers_add_rows_to_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.zep_ontologies FOR INSERT TO memory_writer WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_ontologies writers_change_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.zep_ontologies FOR UPDATE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))) WITH CHECK ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_ontologies writers_remove_rows_of_the_granted_call_tenant; Type: POLICY; Schema: memory; Owner: memory_owner
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.zep_ontologies FOR DELETE TO memory_writer USING ((tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id)));

-- zep_ontologies zep_ontologies_pkey; Type: CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.zep_ontologies
    ADD CONSTRAINT zep_ontologies_pkey PRIMARY KEY (tenant_id, simulation_id);

-- zep_ontologies zep_ontologies_simulation_fkey; Type: FK CONSTRAINT; Schema: memory; Owner: memory_owner
ALTER TABLE ONLY memory.zep_ontologies
    ADD CONSTRAINT zep_ontologies_simulation_fkey FOREIGN KEY (tenant_id, simulation_id) REFERENCES memory.simulations(tenant_id, simulation_id) ON DELETE CASCADE;

-- zep_ontology(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_ontology(p_tenant_id uuid, p_graph_id text) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
    SELECT pg_catalog.jsonb_build_object(
        'entity_types', COALESCE((SELECT o.entity_types FROM memory.zep_ontologies AS o
                                   WHERE o.tenant_id = p_tenant_id AND o.simulation_id = g.sim), '[]'::jsonb),
        'edge_types', COALESCE((SELECT o.edge_types FROM memory.zep_ontologies AS o
                                 WHERE o.tenant_id = p_tenant_id AND o.simulation_id = g.sim), '[]'::jsonb))
      FROM (SELECT memory._zep_simulation(p_tenant_id, p_graph_id) AS sim) AS g;
$$;

ALTER FUNCTION memory.zep_ontology(p_tenant_id uuid, p_graph_id text) OWNER TO memory_owner;

-- FUNCTION zep_ontology(p_tenant_id uuid, p_graph_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_ontology(p_tenant_id uuid, p_graph_id text) IS 'Zep list_entity_types: a graph''s entity and edge types';

-- FUNCTION zep_ontology(p_tenant_id uuid, p_graph_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_ontology(p_tenant_id uuid, p_graph_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_ontology(p_tenant_id uuid, p_graph_id text) TO memory_reader;

-- zep_retry_episodes(uuid, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_retry_episodes(p_tenant_id uuid, p_graph_id text DEFAULT NULL::text) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_sim uuid;
    v_n   bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_graph_id IS NOT NULL THEN
        v_sim := memory._zep_simulation(p_tenant_id, p_graph_id);
    END IF;
    UPDATE memory.zep_episodes AS z
       SET status = 'queued', attempts = 0, next_attempt_at = NULL
     WHERE z.tenant_id = p_tenant_id AND z.status = 'failed'
       AND (v_sim IS NULL OR z.simulation_id = v_sim);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END
$$;

ALTER FUNCTION memory.zep_retry_episodes(p_tenant_id uuid, p_graph_id text) OWNER TO memory_owner;

-- FUNCTION zep_retry_episodes(p_tenant_id uuid, p_graph_id text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_retry_episodes(p_tenant_id uuid, p_graph_id text) IS 'Queue again the failed episodes of a graph (NULL: all), attempts from zero';

-- FUNCTION zep_retry_episodes(p_tenant_id uuid, p_graph_id text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_retry_episodes(p_tenant_id uuid, p_graph_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_retry_episodes(p_tenant_id uuid, p_graph_id text) TO memory_writer;

-- zep_search(uuid, text, text, public.vector, text, integer, text); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_search(p_tenant_id uuid, p_graph_id text, p_query text, p_query_vector public.vector, p_scope text DEFAULT 'edges'::text, p_limit integer DEFAULT 10, p_model text DEFAULT NULL::text) RETURNS SETOF jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '5s'
    AS $$
DECLARE
    v_sim     uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
    v_scope   text := memory._one_of('scope', COALESCE(p_scope, 'edges'), ARRAY['edges', 'nodes', 'episodes'],
                                     'the scopes served are edges, nodes and episodes');
    v_limit   integer := COALESCE(p_limit, 10);
    v_options jsonb;
BEGIN
    IF v_limit < 1 THEN
        RAISE EXCEPTION 'limit % is below 1', v_limit
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a limit from 1 to 50';
    END IF;
    v_options := pg_catalog.jsonb_build_object(
        'kinds', pg_catalog.jsonb_build_array(CASE v_scope WHEN 'edges' THEN 'fact'
                                                            WHEN 'nodes' THEN 'entity'
                                                            ELSE 'episode' END));
    IF p_model IS NOT NULL THEN
        v_options := v_options OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('model', p_model);
    END IF;
    RETURN QUERY
    SELECT CASE v_scope
           WHEN 'edges' THEN
               (SELECT memory._zep_edge(memory._edge_detail(ROW(e.*)::memory.edges), e.created_at)
                  FROM memory.edges AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
                   AND e.edge_key = pg_catalog.md5(r.id)::uuid)
           WHEN 'nodes' THEN
               (SELECT memory._zep_node(n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.created_at)
                  FROM memory.nodes AS n
                 WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim
                   AND n.node_key = pg_catalog.md5(r.id)::uuid)
           ELSE
               (SELECT pg_catalog.jsonb_build_object(
                           'uuid', x.episode_id,
                           'content', COALESCE(x.content, ''),
                           'created_at', memory._zep_time(COALESCE(x.occurred_at, x.created_at)),
                           'source', 'text',
                           'processed', true,
                           'metadata', x.metadata OPERATOR(pg_catalog.||) pg_catalog.jsonb_strip_nulls(
                               pg_catalog.jsonb_build_object('agent_id', x.agent_id, 'agent_name', x.agent_name,
                                                             'platform', x.platform, 'round', x.round,
                                                             'action_type', x.action_type)))
                  FROM memory.episodes AS x
                 WHERE x.tenant_id = p_tenant_id AND x.simulation_id = v_sim
                   AND x.episode_key = pg_catalog.md5(r.id)::uuid)
           END OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('score', r.score)
      FROM memory.recall(p_tenant_id, v_sim, p_query, p_query_vector, LEAST(v_limit, 50), v_options)
           WITH ORDINALITY AS r (kind, id, text, score, ranks, why, copies, agents, ord)
     ORDER BY r.ord;
END
$$;

ALTER FUNCTION memory.zep_search(p_tenant_id uuid, p_graph_id text, p_query text, p_query_vector public.vector, p_scope text, p_limit integer, p_model text) OWNER TO memory_owner;

-- FUNCTION zep_search(p_tenant_id uuid, p_graph_id text, p_query text, p_query_vector public.vector, p_scope text, p_limit integer, p_model text); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_search(p_tenant_id uuid, p_graph_id text, p_query text, p_query_vector public.vector, p_scope text, p_limit integer, p_model text) IS 'Zep graph.search over one graph: memory.recall for one kind (edges, nodes, episodes), each hit in Zep''s shape with its fused score';

-- FUNCTION zep_search(p_tenant_id uuid, p_graph_id text, p_query text, p_query_vector public.vector, p_scope text, p_limit integer, p_model text); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_search(p_tenant_id uuid, p_graph_id text, p_query text, p_query_vector public.vector, p_scope text, p_limit integer, p_model text) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_search(p_tenant_id uuid, p_graph_id text, p_query text, p_query_vector public.vector, p_scope text, p_limit integer, p_model text) TO memory_reader;

-- zep_sequence; Type: SEQUENCE; Schema: memory; Owner: memory_owner
CREATE SEQUENCE memory.zep_sequence
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE memory.zep_sequence OWNER TO memory_owner;

-- SEQUENCE zep_sequence; Type: ACL; Schema: memory; Owner: memory_owner
GRANT USAGE ON SEQUENCE memory.zep_sequence TO memory_writer;

-- zep_set_ontology(uuid, text[], jsonb, jsonb); Type: FUNCTION; Schema: memory; Owner: memory_owner
CREATE FUNCTION memory.zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb, p_edge_types jsonb) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
DECLARE
    v_entities jsonb := COALESCE(p_entity_types, '[]'::jsonb);
    v_edges    jsonb := COALESCE(p_edge_types, '[]'::jsonb);
    v_graph    text;
    v_sim      uuid;
    v_n        integer := 0;
    v_problem  text;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_graph_ids, 'p_graph_ids', 'name the graphs (set_ontology''s graph_ids)');
    PERFORM memory._check_limit('object_bytes', 'the ontology', pg_catalog.pg_column_size(v_entities) + pg_catalog.pg_column_size(v_edges));
    SELECT memory._zep_type_problem(k.kind, t.value, t.ordinality::integer, v_entities) INTO v_problem
      FROM (VALUES ('entity', v_entities), ('edge', v_edges)) AS k (kind, types)
     CROSS JOIN LATERAL pg_catalog.jsonb_array_elements(
               CASE WHEN pg_catalog.jsonb_typeof(k.types) = 'array' THEN k.types ELSE '[null]'::jsonb END)
           WITH ORDINALITY AS t
     WHERE memory._zep_type_problem(k.kind, t.value, t.ordinality::integer, v_entities) IS NOT NULL
     LIMIT 1;
    IF v_problem IS NULL THEN
        SELECT pg_catalog.format('%s types: at most %s, not %s', k.kind, memory._zep_types_max(), pg_catalog.jsonb_array_length(k.types))
          INTO v_problem
          FROM (VALUES ('entity', v_entities), ('edge', v_edges)) AS k (kind, types)
         WHERE pg_catalog.jsonb_array_length(k.types) > memory._zep_types_max();
    END IF;
    IF v_problem IS NULL THEN
        SELECT pg_catalog.format('%s type %s named twice', k.kind, memory._quote(t.value ->> 'name')) INTO v_problem
          FROM (VALUES ('entity', v_entities), ('edge', v_edges)) AS k (kind, types)
         CROSS JOIN LATERAL pg_catalog.jsonb_array_elements(k.types) AS t
         GROUP BY k.kind, t.value ->> 'name' HAVING pg_catalog.count(*) > 1
         LIMIT 1;
    END IF;
    IF v_problem IS NOT NULL THEN
        RAISE EXCEPTION 'bad ontology: %', v_problem
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'an entity type is {"name", "description", "properties"}; an edge type adds "source_targets": [{"source", "target"}]';
    END IF;
    FOREACH v_graph IN ARRAY p_graph_ids LOOP
        v_sim := memory._zep_simulation(p_tenant_id, v_graph);
        INSERT INTO memory.zep_ontologies AS o (tenant_id, simulation_id, entity_types, edge_types)
        VALUES (p_tenant_id, v_sim, v_entities, v_edges)
        ON CONFLICT (tenant_id, simulation_id) DO UPDATE
           SET entity_types = excluded.entity_types, edge_types = excluded.edge_types, updated_at = excluded.updated_at
         WHERE (o.entity_types, o.edge_types) IS DISTINCT FROM (excluded.entity_types, excluded.edge_types);
        v_n := v_n + 1;
    END LOOP;
    RETURN v_n;
END
$$;

ALTER FUNCTION memory.zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb, p_edge_types jsonb) OWNER TO memory_owner;

-- FUNCTION zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb, p_edge_types jsonb); Type: COMMENT; Schema: memory; Owner: memory_owner
COMMENT ON FUNCTION memory.zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb, p_edge_types jsonb) IS 'Zep set_ontology: the entity and edge types of graphs, replaced whole; all graphs or none';

-- FUNCTION zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb, p_edge_types jsonb); Type: ACL; Schema: memory; Owner: memory_owner
REVOKE ALL ON FUNCTION memory.zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb, p_edge_types jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION memory.zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb, p_edge_types jsonb) TO memory_writer;
