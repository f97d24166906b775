-- What changed from one run to another (two simulations of the tenant), by identity
-- (memory._identity_map: run memory.link_runs first). One row a change, with its evidence
-- in each run (NULL on the side where it is absent):
--   entity appeared, vanished (no link to the other run), renamed (linked, another name);
--   fact appeared, ended (as the run left it, memory._fact_state at the end of time: current
--   in one run, ended or absent in the other) or turned (between the same two identities,
--   one type current in run a and another in run b, such as SUPPORTS to OPPOSES), facts
--   keyed by their two identities and type;
--   agent appeared, vanished, moved (agents by name; what they posted about compared by
--   meaning: the mean vector of their episodes in each run, moved when the cosine
--   similarity of the two falls below p_agent_similarity), with up to p_posts of their
--   posts in each run as evidence (those least like the other run's mean).
-- score: the link's score (renamed), the similarity of the means (moved), else NULL.
CREATE OR REPLACE FUNCTION memory.diff(p_tenant_id uuid, p_run_a uuid, p_run_b uuid,
                                       p_agent_similarity real DEFAULT 0.95, p_posts integer DEFAULT 3)
RETURNS TABLE (kind text, change text, subject text, a jsonb, b jsonb, score real)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_posts integer := memory._top_k(p_posts);
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_run_a);
    PERFORM memory._require_simulation(p_tenant_id, p_run_b);
    IF p_run_a = p_run_b THEN
        RAISE EXCEPTION 'a diff compares two simulations, not % with itself', p_run_a
            USING ERRCODE = 'invalid_parameter_value', HINT = 'name two runs of the tenant';
    END IF;
    IF p_agent_similarity IS NULL OR NOT (p_agent_similarity >= -1 AND p_agent_similarity <= 1) THEN
        RAISE EXCEPTION 'p_agent_similarity % is outside -1 to 1', p_agent_similarity
            USING ERRCODE = 'invalid_parameter_value', HINT = 'a cosine similarity below which an agent has moved';
    END IF;
    RETURN QUERY
    WITH map AS MATERIALIZED (
        SELECT * FROM memory._identity_map(p_tenant_id, p_run_a, p_run_b)
    ), na AS (
        SELECT n.node_id, n.name, n.type, n.summary FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_run_a
    ), nb AS (
        SELECT n.node_id, n.name, n.type, n.summary FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_run_b
    ), ident AS (  -- every entity's identity: run a's id, or run b's own when it has no link
        SELECT na.node_id AS node_id, 'a'::text AS side, na.node_id AS ident, na.name FROM na
        UNION ALL
        SELECT nb.node_id, 'b', COALESCE(m.node_a, 'b:' || nb.node_id), COALESCE(a.name, nb.name)
          FROM nb LEFT JOIN map AS m ON m.node_b = nb.node_id LEFT JOIN na AS a ON a.node_id = m.node_a
    ), facts AS (
        SELECT CASE WHEN e.simulation_id = p_run_a THEN 'a' ELSE 'b' END AS side,
               s.ident AS src, t.ident AS tgt, s.name AS src_name, t.name AS tgt_name, e.type,
               memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, 'infinity') = 'current' AS holds,
               pg_catalog.jsonb_build_object('edge_id', e.edge_id, 'type', e.type, 'fact', e.fact,
                   'valid_at', e.valid_at, 'invalid_at', e.invalid_at, 'expired_at', e.expired_at,
                   'state', memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, 'infinity')) AS evidence
          FROM memory.edges AS e
          JOIN ident AS s ON s.node_id = e.source_id AND s.side = CASE WHEN e.simulation_id = p_run_a THEN 'a' ELSE 'b' END
          JOIN ident AS t ON t.node_id = e.target_id AND t.side = s.side
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id IN (p_run_a, p_run_b)
    ), fkeys AS (
        SELECT f.src, f.tgt, f.type, pg_catalog.max(f.src_name) AS src_name, pg_catalog.max(f.tgt_name) AS tgt_name,
               COALESCE(pg_catalog.bool_or(f.holds) FILTER (WHERE f.side = 'a'), false) AS in_a,
               COALESCE(pg_catalog.bool_or(f.holds) FILTER (WHERE f.side = 'b'), false) AS in_b,
               pg_catalog.jsonb_agg(f.evidence ORDER BY f.evidence ->> 'edge_id') FILTER (WHERE f.side = 'a') AS ev_a,
               pg_catalog.jsonb_agg(f.evidence ORDER BY f.evidence ->> 'edge_id') FILTER (WHERE f.side = 'b') AS ev_b
          FROM facts AS f GROUP BY f.src, f.tgt, f.type
    ), turned AS (
        SELECT x.src, x.tgt, x.type AS type_a, y.type AS type_b, x.src_name, x.tgt_name, x.ev_a, y.ev_b
          FROM fkeys AS x JOIN fkeys AS y ON y.src = x.src AND y.tgt = x.tgt AND y.type <> x.type
         WHERE x.in_a AND NOT x.in_b AND y.in_b AND NOT y.in_a
    ), agents AS (
        SELECT CASE WHEN e.simulation_id = p_run_a THEN 'a' ELSE 'b' END AS side,
               pg_catalog.lower(COALESCE(e.agent_name, e.agent_id::text)) AS agent,
               pg_catalog.max(e.agent_name) AS agent_name, pg_catalog.max(e.agent_id) AS agent_id,
               pg_catalog.count(*) AS episodes, public.avg(e.embedding) AS mean
          FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id IN (p_run_a, p_run_b)
           AND e.embedding IS NOT NULL AND COALESCE(e.agent_name, e.agent_id::text) IS NOT NULL
         GROUP BY 1, 2
    ), pairs AS (
        SELECT COALESCE(x.agent, y.agent) AS agent, COALESCE(y.agent_name, x.agent_name) AS agent_name,
               x.agent_id AS id_a, y.agent_id AS id_b, x.episodes AS n_a, y.episodes AS n_b, x.mean AS mean_a, y.mean AS mean_b,
               (1 - (x.mean OPERATOR(public.<=>) y.mean))::real AS similarity
          FROM (SELECT * FROM agents WHERE side = 'a') AS x
          FULL JOIN (SELECT * FROM agents WHERE side = 'b') AS y ON y.agent = x.agent
    ), agent_rows AS (
        SELECT p.*, CASE WHEN p.mean_a IS NULL THEN 'appeared' WHEN p.mean_b IS NULL THEN 'vanished' ELSE 'moved' END AS change
          FROM pairs AS p
         WHERE p.mean_a IS NULL OR p.mean_b IS NULL OR p.similarity < p_agent_similarity
    )
    SELECT 'entity', 'vanished', a.name, pg_catalog.jsonb_build_object('node_id', a.node_id, 'name', a.name, 'type', a.type, 'summary', a.summary), NULL::jsonb, NULL::real
      FROM na AS a WHERE NOT EXISTS (SELECT 1 FROM map AS m WHERE m.node_a = a.node_id)
    UNION ALL
    SELECT 'entity', 'appeared', b.name, NULL, pg_catalog.jsonb_build_object('node_id', b.node_id, 'name', b.name, 'type', b.type, 'summary', b.summary), NULL
      FROM nb AS b WHERE NOT EXISTS (SELECT 1 FROM map AS m WHERE m.node_b = b.node_id)
    UNION ALL
    SELECT 'entity', 'renamed', a.name || ' -> ' || b.name,
           pg_catalog.jsonb_build_object('node_id', a.node_id, 'name', a.name, 'type', a.type, 'summary', a.summary),
           pg_catalog.jsonb_build_object('node_id', b.node_id, 'name', b.name, 'type', b.type, 'summary', b.summary), m.score
      FROM map AS m JOIN na AS a ON a.node_id = m.node_a JOIN nb AS b ON b.node_id = m.node_b
     WHERE a.name <> b.name
    UNION ALL
    SELECT 'fact', 'turned', t.src_name || ' ' || t.type_a || ' -> ' || t.type_b || ' ' || t.tgt_name,
           pg_catalog.jsonb_build_object('facts', t.ev_a), pg_catalog.jsonb_build_object('facts', t.ev_b), NULL
      FROM turned AS t
    UNION ALL
    SELECT 'fact', CASE WHEN k.in_b THEN 'appeared' ELSE 'ended' END, k.src_name || ' ' || k.type || ' ' || k.tgt_name,
           CASE WHEN k.ev_a IS NOT NULL THEN pg_catalog.jsonb_build_object('facts', k.ev_a) END,
           CASE WHEN k.ev_b IS NOT NULL THEN pg_catalog.jsonb_build_object('facts', k.ev_b) END, NULL
      FROM fkeys AS k
     WHERE k.in_a <> k.in_b
       AND NOT EXISTS (SELECT 1 FROM turned AS t
                        WHERE t.src = k.src AND t.tgt = k.tgt AND k.type IN (t.type_a, t.type_b))
    UNION ALL
    SELECT 'agent', r.change, r.agent_name,
           CASE WHEN r.mean_a IS NOT NULL THEN pg_catalog.jsonb_build_object('agent_id', r.id_a, 'episodes', r.n_a, 'posts',
               (SELECT pg_catalog.jsonb_agg(q.content ORDER BY q.d DESC, q.episode_id)
                  FROM (SELECT e.content, e.episode_id, e.embedding OPERATOR(public.<=>) COALESCE(r.mean_b, r.mean_a) AS d
                          FROM memory.episodes AS e
                         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_run_a AND e.embedding IS NOT NULL
                           AND e.content IS NOT NULL
                           AND pg_catalog.lower(COALESCE(e.agent_name, e.agent_id::text)) = r.agent
                         ORDER BY d DESC, e.episode_id LIMIT v_posts) AS q)) END,
           CASE WHEN r.mean_b IS NOT NULL THEN pg_catalog.jsonb_build_object('agent_id', r.id_b, 'episodes', r.n_b, 'posts',
               (SELECT pg_catalog.jsonb_agg(q.content ORDER BY q.d DESC, q.episode_id)
                  FROM (SELECT e.content, e.episode_id, e.embedding OPERATOR(public.<=>) COALESCE(r.mean_a, r.mean_b) AS d
                          FROM memory.episodes AS e
                         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_run_b AND e.embedding IS NOT NULL
                           AND e.content IS NOT NULL
                           AND pg_catalog.lower(COALESCE(e.agent_name, e.agent_id::text)) = r.agent
                         ORDER BY d DESC, e.episode_id LIMIT v_posts) AS q)) END,
           r.similarity
      FROM agent_rows AS r
     ORDER BY 1, 2, 3;
END
$fn$;

COMMENT ON FUNCTION memory.diff(uuid, uuid, uuid, real, integer) IS 'What changed between two runs by identity: entities, facts (appeared, ended, turned), agents (by meaning), with evidence in both';
GRANT EXECUTE ON FUNCTION memory.diff(uuid, uuid, uuid, real, integer) TO memory_reader;
