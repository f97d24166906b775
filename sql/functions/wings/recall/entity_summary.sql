-- The report agent's entity summary in one call, from what the entity said and did: the
-- entity itself; what it said ('said': its own actions with text, memory._action_said, as
-- the agent of that name or alias: its posts, comments and quotes first, then its reposts
-- shown as the text reposted, each in time order); what else it did, counted only
-- ('activity', one row: likes, follows, mutes, rounds of doing nothing, by action type);
-- then its current facts, its neighbours (depth 1, along current facts) and others'
-- actions with text that name it, best first (memory.search_words on its name). Each row:
-- section, id, text and detail (the row's other fields as JSON). p_limit rows per section,
-- clamped to 1..100 (NULL: 10). Unknown entity: P0002.
-- p_round: the entity as it stood when that round of the simulation ended: its actions of
-- that round and earlier, its facts and neighbours at the round's end (memory.facts',
-- memory.neighbors' p_round; a negative round 22023, a round before any timed episode
-- P0002). It takes no snapshot: the entity and the episodes naming it (memory.search_words,
-- over word postings) are read as the memory holds them now.
CREATE OR REPLACE FUNCTION memory.entity_summary(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_node_id text,
    p_limit integer DEFAULT 10,
    p_round integer DEFAULT NULL)
RETURNS TABLE (section text, id text, text text, detail jsonb)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_limit integer := memory._top_k(p_limit);
    v_node  memory.nodes;
    v_names text[];
BEGIN
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    IF p_round IS NOT NULL THEN  -- the round must be readable: 22023 or P0002 otherwise
        PERFORM memory._read_clock(p_tenant_id, p_simulation_id, NULL, NULL, p_round, NULL);
    END IF;
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
                AND (p_round IS NULL OR x.round <= p_round)
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
                AND (p_round IS NULL OR x.round <= p_round)
                AND memory._action_said(x.content, x.metadata) IS NULL
              GROUP BY 1) AS a
     HAVING pg_catalog.count(*) > 0)
    UNION ALL
    (SELECT 'fact', f.edge_id, f.fact,
            pg_catalog.jsonb_build_object('type', f.type, 'source', f.source_name, 'target', f.target_name,
                                          'valid_at', f.valid_at, 'state', f.state)
       FROM memory.facts(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                         p_node_id => p_node_id, p_state => 'current', p_as_of => NULL,
                         p_limit => v_limit, p_round => p_round) AS f)
    UNION ALL
    (SELECT 'neighbour', w.node_id, w.name,
            pg_catalog.jsonb_build_object('type', w.type, 'via', w.edge_type, 'fact', w.fact)
       FROM memory.neighbors(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                             p_node_id => p_node_id, p_depth => 1, p_round => p_round) AS w
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
        AND (p_round IS NULL OR x.round <= p_round)
        AND memory._action_said(x.content, x.metadata) IS NOT NULL
        AND NOT pg_catalog.lower(pg_catalog.btrim(COALESCE(x.agent_name, ''))) OPERATOR(pg_catalog.=) ANY (v_names)
      ORDER BY e.score DESC, e.id
      LIMIT v_limit);
END
$fn$;

COMMENT ON FUNCTION memory.entity_summary(uuid, uuid, text, integer, integer) IS 'An entity with its current facts, its neighbours and the episodes that name it, in one call, now or at a round''s end';
GRANT EXECUTE ON FUNCTION memory.entity_summary(uuid, uuid, text, integer, integer) TO memory_reader;
