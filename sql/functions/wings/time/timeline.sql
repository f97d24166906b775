-- What happened to an entity, in time order, one row per event: the facts touching it that
-- began (valid_at) or ended (invalid_at), with the entity at the fact's other end, and the
-- agent actions that name it in their text or as their agent (its name or an alias,
-- memory._entity_names, matched as memory._link_evidence matches: the name's words in the
-- action's words (memory.word_postings), then the name itself in its text).
-- Events without a time (a fact
-- with an unknown start, an action without occurred_at) are not on a timeline. At the same
-- instant a fact that ended comes before one that began, and facts before actions.
-- p_limit: the first events (NULL means 100, at most 1000; below 1 is 22023). An unknown
-- node is P0002, the same for another tenant's.
-- p_round: the timeline as it stood when that round of the simulation ended (the events up
-- to its moment, memory._read_clock: a negative round 22023, a round before any timed
-- episode P0002). It takes no snapshot: the actions that name the entity are found through
-- memory.word_postings, which hold the words of the rows as they are now.
CREATE OR REPLACE FUNCTION memory.timeline(p_tenant_id uuid, p_simulation_id uuid, p_node_id text,
                                           p_limit integer DEFAULT 100, p_round integer DEFAULT NULL)
RETURNS TABLE (at timestamptz, event text, edge_id text, episode_id text, content text,
               other_node_id text, other_name text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_key     uuid := pg_catalog.md5(p_node_id)::uuid;
    v_needles text[];
    v_until   timestamptz;
BEGIN
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    IF p_limit < 1 THEN
        RAISE EXCEPTION 'p_limit % is below 1', p_limit
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a limit from 1 to 1000, or NULL for 100';
    END IF;
    IF p_round IS NOT NULL THEN
        SELECT c.as_of INTO v_until
          FROM memory._read_clock(p_tenant_id, p_simulation_id, NULL, NULL, p_round, NULL) AS c;
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
     WHERE v_until IS NULL OR t.at <= v_until
     ORDER BY t.at, t.ord, COALESCE(t.edge_id, t.episode_id)
     LIMIT memory._page_rows(p_limit, 100);
END
$fn$;

COMMENT ON FUNCTION memory.timeline(uuid, uuid, text, integer, integer) IS 'What happened to an entity in time order: facts touching it that began or ended, and actions naming it, optionally up to a round''s end';
GRANT EXECUTE ON FUNCTION memory.timeline(uuid, uuid, text, integer, integer) TO memory_reader;
