-- memory.health's report of one tenant: rows and bytes per tenant, simulation and agent
-- (bytes: the rows' stored size, pg_column_size, vectors and words included); the search
-- indexes of each simulation, one row a kind: 'ann_index' its episodes' HNSW index,
-- 'facts_ann_index' its facts' (memory.edges with a vector), 'entities_ann_index' its
-- entities' pair (memory.nodes: the name vectors' index and its _summary, whole only when
-- both exist and are valid, as memory.search_nodes takes it); each 'indexed', 'invalid' (an
-- index, or either half of the pair, left invalid), else 'exact' below c_min_rows (2,000,
-- the default threshold of memory.ann_plan, ann_plan_facts and ann_plan_entities) embedded
-- rows of the kind (facts and entities on a Citus cluster: always, as they are searched
-- exactly there), else 'missing'; ok when 'indexed' or 'exact'; an episodes' index that is
-- missing or invalid names in its detail the bridge that answers meanwhile ('bridge'). The
-- recall@10 of the approximate search over episodes against the exact one on p_sample
-- queries (each the sum of two random episodes' vectors, the two drawn independently and
-- paired by their draw order; 'sampled' says how many ran) for every simulation whose
-- episodes' index is valid, ok at 0.95 or more (the seeds' alert below; p_sample over
-- memory._limit('health_sample') 54000: each query is an exact scan); the change feed's
-- head. One row per metric.
-- SECURITY DEFINER: an administrator holds no tenant grant, yet sizes every tenant; the
-- caller is checked as the session user (a grant for the tenant, or memory_admin) and the
-- owner's policies keep every read to the tenant entered.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (or its memory_admin privileges) and
-- the call's tenant setting, which it makes itself; its SET clauses pin the rest, and every
-- value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._health_tenant(p_tenant_id uuid, p_sample integer)
RETURNS TABLE (section text, tenant_id uuid, simulation_id uuid, agent_id integer, metric text,
               value double precision, ok boolean, detail jsonb)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
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
$fn$;

COMMENT ON FUNCTION memory._health_tenant(uuid, integer) IS 'Internal: a tenant''s sizes, search indexes (episodes'', facts'' and entities'' per simulation), sampled recall of the episodes'' index and feed head (SECURITY DEFINER: administrators hold no tenant grant)';
GRANT EXECUTE ON FUNCTION memory._health_tenant(uuid, integer) TO memory_reader, memory_admin;
