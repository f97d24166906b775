-- Link the entities of two simulations of a tenant (p_simulation_a < p_simulation_b; the
-- caller has entered the tenant and checked both). Candidates come three ways, each served
-- without comparing every pair: a shared name or alias (memory._identity_names, a hash
-- join); then, for the entities no name pairs (in a rerun, the few renamed, new or gone),
-- shared name trigrams within one type (pg_trgm's show_trgm, a hash join) and the nearest
-- entity of the same type by meaning among the other run's entities no name pairs either
-- (its summary's vector, else its name's; only when both runs' vectors are of one model): an
-- entity a name paired is taken, and comparing with it would cost a distance for every
-- entity of the type. Each entity is read, and its names made, once (the CTEs na and nb:
-- every later step joins them rather than calling memory._identity_names again).
-- Each candidate is scored from its evidence
-- (memory._link_score) and kept when it reaches p_min_score and each side is the other's
-- best (one entity a run, ties broken by id). A pair a person refused is never linked, and
-- an entity a person linked by hand or confirmed is not linked again. The links found are
-- written, a link written before and found again is left as it is (a replay writes
-- nothing), and an automatic link no longer found stops counting (current false).
-- Nested loops are off for the call: every join here is of whole runs, and a run just
-- imported is not yet analysed, so its rows are estimated at a handful and a nested loop
-- would compare every pair (the lookups that need one, the nearest by meaning and the
-- refused pairs, still get it).
CREATE OR REPLACE FUNCTION memory._link_pair(p_tenant_id uuid, p_simulation_a uuid, p_simulation_b uuid,
                                             p_min_score real)
RETURNS TABLE (linked bigint, added bigint, changed bigint, dropped bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET enable_nestloop = off
AS $fn$
DECLARE
    v_vectors boolean := (SELECT m.model FROM memory._simulation_model(p_tenant_id, p_simulation_a) AS m)
                         IS NOT DISTINCT FROM
                         (SELECT m.model FROM memory._simulation_model(p_tenant_id, p_simulation_b) AS m);
BEGIN
    RETURN QUERY
    WITH na AS MATERIALIZED (  -- each entity read and its names made once: every step below reads these
        -- (own, its name alone, is its names when it has no alias to add)
        SELECT n.node_id, n.node_key, n.name, n.type, COALESCE(n.summary_embedding, n.embedding) AS v,
               x.names,
               CASE WHEN n.attributes OPERATOR(pg_catalog.?|) ARRAY['aliases', 'alias']
                    THEN memory._identity_names(n.name, NULL) ELSE x.names END AS own
          FROM memory.nodes AS n
         CROSS JOIN LATERAL (SELECT memory._identity_names(n.name, n.attributes) AS names) AS x
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_a
    ), nb AS MATERIALIZED (
        SELECT n.node_id, n.node_key, n.name, n.type, COALESCE(n.summary_embedding, n.embedding) AS v,
               x.names,
               CASE WHEN n.attributes OPERATOR(pg_catalog.?|) ARRAY['aliases', 'alias']
                    THEN memory._identity_names(n.name, NULL) ELSE x.names END AS own
          FROM memory.nodes AS n
         CROSS JOIN LATERAL (SELECT memory._identity_names(n.name, n.attributes) AS names) AS x
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_b
    ), named AS MATERIALIZED (  -- a shared name or alias: the pairs most runs consist of
        SELECT DISTINCT a.node_id AS node_a, b.node_id AS node_b
          FROM (SELECT na.node_id, pg_catalog.unnest(na.names) AS n FROM na) AS a
          JOIN (SELECT nb.node_id, pg_catalog.unnest(nb.names) AS n FROM nb) AS b ON b.n = a.n
    ), ua AS MATERIALIZED (  -- the entities no name pairs: only these are compared further
        SELECT na.* FROM na WHERE NOT EXISTS (SELECT 1 FROM named AS x WHERE x.node_a = na.node_id)
    ), ub AS MATERIALIZED (
        SELECT nb.* FROM nb WHERE NOT EXISTS (SELECT 1 FROM named AS x WHERE x.node_b = nb.node_id)
    ), ta AS (
        SELECT ua.node_id, ua.type, g.g, pg_catalog.count(*) OVER (PARTITION BY ua.node_id) AS k
          FROM ua CROSS JOIN LATERAL pg_catalog.unnest(public.show_trgm(ua.name)) AS g(g)
    ), tb AS (
        SELECT ub.node_id, ub.type, g.g, pg_catalog.count(*) OVER (PARTITION BY ub.node_id) AS k
          FROM ub CROSS JOIN LATERAL pg_catalog.unnest(public.show_trgm(ub.name)) AS g(g)
    ), candidates AS MATERIALIZED (
        SELECT x.node_a, x.node_b FROM named AS x
        UNION
        SELECT ta.node_id, tb.node_id
          FROM ta JOIN tb ON tb.type = ta.type AND tb.g = ta.g
         GROUP BY ta.node_id, tb.node_id
        HAVING pg_catalog.count(*)::real / (pg_catalog.max(ta.k) + pg_catalog.max(tb.k) - pg_catalog.count(*)) >= 0.3
        UNION
        SELECT ua.node_id, near.node_id
          FROM ua CROSS JOIN LATERAL (
                   SELECT ub.node_id
                     FROM ub
                    WHERE ub.type = ua.type AND ub.v IS NOT NULL
                    ORDER BY ub.v OPERATOR(public.<=>) ua.v, ub.node_id
                    LIMIT 1) AS near
         WHERE v_vectors AND ua.v IS NOT NULL
    ), around_a AS MATERIALIZED (
        SELECT x.node_id, pg_catalog.array_agg(DISTINCT x.nname) AS nn
          FROM (SELECT e.source_id AS node_id, t.own[1] AS nname
                  FROM memory.edges AS e JOIN na AS t ON t.node_key = e.target_key
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_a
                UNION ALL
                SELECT e.target_id, s.own[1]
                  FROM memory.edges AS e JOIN na AS s ON s.node_key = e.source_key
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_a) AS x
         GROUP BY x.node_id
    ), around_b AS MATERIALIZED (
        SELECT x.node_id, pg_catalog.array_agg(DISTINCT x.nname) AS nn
          FROM (SELECT e.source_id AS node_id, t.own[1] AS nname
                  FROM memory.edges AS e JOIN nb AS t ON t.node_key = e.target_key
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_b
                UNION ALL
                SELECT e.target_id, s.own[1]
                  FROM memory.edges AS e JOIN nb AS s ON s.node_key = e.source_key
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_b) AS x
         GROUP BY x.node_id
    ), evidence AS MATERIALIZED (
        SELECT c.node_a, c.node_b, a.name AS name_a, b.name AS name_b, a.type AS type_a, b.type AS type_b,
               a.own = b.own AS same_name,
               a.own <> b.own AND a.names OPERATOR(pg_catalog.&&) b.names AS alias,
               public.similarity(a.name, b.name)::real AS trigram,
               CASE WHEN v_vectors THEN (1 - (a.v OPERATOR(public.<=>) b.v))::real END AS meaning,
               a.type = b.type AS same_type,
               shared.names AS shared,
               CASE WHEN cardinality(COALESCE(ra.nn, '{}')) + cardinality(COALESCE(rb.nn, '{}')) = 0 THEN 0::real
                    ELSE (cardinality(shared.names)::real
                          / (cardinality(COALESCE(ra.nn, '{}')) + cardinality(COALESCE(rb.nn, '{}')) - cardinality(shared.names)))::real
               END AS neighbours
          FROM candidates AS c
          JOIN na AS a ON a.node_id = c.node_a
          JOIN nb AS b ON b.node_id = c.node_b
          LEFT JOIN around_a AS ra ON ra.node_id = c.node_a
          LEFT JOIN around_b AS rb ON rb.node_id = c.node_b
          CROSS JOIN LATERAL (SELECT COALESCE(pg_catalog.array_agg(i.n ORDER BY i.n), '{}') AS names
                                FROM (SELECT pg_catalog.unnest(ra.nn) INTERSECT SELECT pg_catalog.unnest(rb.nn)) AS i(n)) AS shared
    ), decided AS MATERIALIZED (  -- a person's verdicts: read once, not once a candidate
        SELECT l.node_a, l.node_b, l.decision
          FROM memory.identity_links AS l
         WHERE l.tenant_id = p_tenant_id AND l.simulation_a = p_simulation_a AND l.simulation_b = p_simulation_b
           AND l.decision <> 'auto'
    ), scored AS MATERIALIZED (
        SELECT e.*, memory._link_score(e.same_name, e.alias, e.trigram, e.meaning, e.neighbours, e.same_type) AS score
          FROM evidence AS e
         WHERE NOT EXISTS (SELECT 1 FROM decided AS d WHERE d.node_a = e.node_a AND d.node_b = e.node_b)
           AND e.node_a NOT IN (SELECT d.node_a FROM decided AS d WHERE d.decision IN ('confirmed', 'manual'))
           AND e.node_b NOT IN (SELECT d.node_b FROM decided AS d WHERE d.decision IN ('confirmed', 'manual'))
    ), chosen AS (
        SELECT s.node_a, s.node_b, s.score,
               pg_catalog.jsonb_build_object(
                   'names', pg_catalog.jsonb_build_array(s.name_a, s.name_b),
                   'types', pg_catalog.jsonb_build_array(s.type_a, s.type_b),
                   'same_name', s.same_name, 'alias', s.alias,
                   'name_trigram', pg_catalog.round(s.trigram::numeric, 3),
                   'meaning', pg_catalog.round(s.meaning::numeric, 3),
                   'neighbours', pg_catalog.round(s.neighbours::numeric, 3),
                   'shared_neighbours', pg_catalog.to_jsonb(s.shared[1:5])) AS evidence
          FROM (SELECT s.*,
                       pg_catalog.row_number() OVER (PARTITION BY s.node_a ORDER BY s.score DESC, s.node_b) AS rank_a,
                       pg_catalog.row_number() OVER (PARTITION BY s.node_b ORDER BY s.score DESC, s.node_a) AS rank_b
                  FROM scored AS s
                 WHERE s.score >= p_min_score) AS s
         WHERE s.rank_a = 1 AND s.rank_b = 1
    ), written AS (
        INSERT INTO memory.identity_links AS l
               (tenant_id, simulation_a, node_a, simulation_b, node_b, score, evidence)
        SELECT p_tenant_id, p_simulation_a, c.node_a, p_simulation_b, c.node_b, c.score, c.evidence
          FROM chosen AS c
        ON CONFLICT ON CONSTRAINT identity_links_pkey DO UPDATE
           SET score = excluded.score, evidence = excluded.evidence, current = true,
               updated_at = excluded.updated_at
         WHERE (l.score, l.evidence, l.current) IS DISTINCT FROM (excluded.score, excluded.evidence, true)
        RETURNING l.xmax::text = '0' AS inserted
    ), stale AS (
        UPDATE memory.identity_links AS l
           SET current = false, updated_at = pg_catalog.now()
         WHERE l.tenant_id = p_tenant_id AND l.simulation_a = p_simulation_a AND l.simulation_b = p_simulation_b
           AND l.decision = 'auto' AND l.current
           AND (l.node_a, l.node_b) NOT IN (SELECT c.node_a, c.node_b FROM chosen AS c)  -- hashed once, not scanned a link
        RETURNING 1
    )
    SELECT (SELECT pg_catalog.count(*) FROM chosen),
           (SELECT pg_catalog.count(*) FILTER (WHERE w.inserted) FROM written AS w),
           (SELECT pg_catalog.count(*) FILTER (WHERE NOT w.inserted) FROM written AS w),
           (SELECT pg_catalog.count(*) FROM stale);
END
$fn$;

COMMENT ON FUNCTION memory._link_pair(uuid, uuid, uuid, real) IS 'Internal: find, score and write the links between the entities of two simulations (memory.link_runs)';
GRANT EXECUTE ON FUNCTION memory._link_pair(uuid, uuid, uuid, real) TO memory_writer;
