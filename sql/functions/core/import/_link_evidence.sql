-- Make memory.edge_evidence hold exactly the evidence of a simulation's edges as its rows
-- stand now, writing only what differs (an unchanged replay writes nothing). Called by every
-- promote (memory.commit_import, after the merges) and by memory.link_evidence.
--   source:  each id of the edge's `episodes` list (MiroFish's field, kept in attributes),
--            once, at its first place in the list.
--   mention: each action (an episode with text) that names both of the edge's entities
--            in its text or as its agent (an agent's post about the plan names the agent),
--            by a node's name or an alias (memory._entity_names; MiroFish's Graphiti nodes
--            carry no aliases today): the action's words (memory.word_postings) hold every word of the name
--            (English stemmed, CJK as character pairs), and its text holds the name itself
--            in lower case; so "Dan" does not name "Daniel", and Chinese needs no word
--            boundaries (a name of one CJK character names nothing: no pair). The
--            action must fall within the fact's validity window, occurred_at in
--            [valid_at, invalid_at), an open bound open; an action without a time
--            supports only a fact without bounds (nothing says when it happened).
--   Cost: one lookup in the words index (memory.word_postings) for each word some name
--   holds, then for each name only the actions holding its rarest word are searched for
--   the name as a substring; a name without words (only stop words) names
--   nothing in text. The agents' names are matched once each.
-- SECURITY DEFINER: no tenant role may write memory.edge_evidence (nor take its locks);
-- memory_owner does, under forced RLS, for the tenant entered first as the session user.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call; its
-- SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._link_evidence(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (sources bigint, mentions bigint, added bigint, removed bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
-- hash joins for the set-based matching (the rows may have no statistics yet); the lateral
-- lookup of each name in the words index stays a nested loop (it can be nothing else)
SET enable_nestloop = off
AS $fn$
DECLARE
    v_want    memory.edge_evidence[];
    v_added   bigint;
    v_removed bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    v_want := ARRAY(
        WITH facts AS (
            SELECT d.edge_key, d.source_key, d.target_key, d.valid_at, d.invalid_at, d.attributes
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
        ), act_words AS MATERIALIZED (
            -- the actions holding some name's word: each word looked up in the words index
            -- (memory.word_postings, V0020) by equality, which row-level security lets the
            -- index serve
            SELECT p.row_key AS episode_key, p.word
              FROM (SELECT DISTINCT nw.word FROM name_words AS nw) AS w
             CROSS JOIN LATERAL (SELECT p.row_key, p.word FROM memory.word_postings AS p
                                  WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                                    AND p.word = w.word AND p.kind = 'e') AS p
        ), rarest AS (
            -- each name by its rarest word among the actions: the actions holding that word
            -- are the only ones that can hold the name
            SELECT DISTINCT ON (nw.node_key, nw.label) nw.node_key, nw.label, nw.needle, nw.word
              FROM name_words AS nw
              LEFT JOIN (SELECT a.word, pg_catalog.count(*) AS n FROM act_words AS a GROUP BY a.word) AS c
                ON c.word = nw.word
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
            SELECT r.node_key, r.label, x.episode_id, x.occurred_at
              FROM rarest AS r
              JOIN act_words AS a ON a.word = r.word
              JOIN memory.episodes AS x ON x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                   AND x.episode_key = a.episode_key
             WHERE pg_catalog.strpos(pg_catalog.lower(x.content), r.needle) > 0
            UNION
            SELECT g.node_key, g.label, x.episode_id, x.occurred_at
              FROM agents AS g
              JOIN memory.episodes AS x ON x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                   AND x.agent_name = g.agent_name AND x.content IS NOT NULL
        ), hits AS (
            SELECT n.node_key, n.episode_id, n.occurred_at,
                   pg_catalog.array_agg(n.label ORDER BY n.label) AS labels
              FROM named AS n
             GROUP BY n.node_key, n.episode_id, n.occurred_at
        )
        SELECT ROW(p_tenant_id, p_simulation_id, w.edge_key, w.kind, w.episode_id,
                   pg_catalog.md5(w.episode_id)::uuid, w.position, w.matched)::memory.edge_evidence
          FROM (SELECT f.edge_key, 'mention' AS kind, hs.episode_id, NULL::integer AS position,
                       CASE WHEN f.source_key = f.target_key THEN hs.labels
                            ELSE hs.labels OPERATOR(pg_catalog.||) ht.labels END AS matched
                  FROM facts AS f
                  JOIN hits AS hs ON hs.node_key = f.source_key
                  JOIN hits AS ht ON ht.node_key = f.target_key AND ht.episode_id = hs.episode_id
                 WHERE CASE WHEN hs.occurred_at IS NULL THEN f.valid_at IS NULL AND f.invalid_at IS NULL
                            ELSE hs.occurred_at >= COALESCE(f.valid_at, '-infinity')
                                 AND hs.occurred_at < COALESCE(f.invalid_at, 'infinity') END
                UNION ALL
                (SELECT DISTINCT ON (f.edge_key, s.id) f.edge_key, 'source', s.id, s.ord::integer, NULL::text[]
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
                          AND w.matched IS NOT DISTINCT FROM l.matched);
    GET DIAGNOSTICS v_removed = ROW_COUNT;
    INSERT INTO memory.edge_evidence (tenant_id, simulation_id, edge_key, kind, episode_id, position, matched)
    SELECT w.tenant_id, w.simulation_id, w.edge_key, w.kind, w.episode_id, w.position, w.matched
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
$fn$;

COMMENT ON FUNCTION memory._link_evidence(uuid, uuid) IS 'Internal: bring a simulation''s edge evidence (source episodes, actions naming both entities in the validity window) up to date, writing only what differs (SECURITY DEFINER: tenant roles do not write memory.edge_evidence)';
GRANT EXECUTE ON FUNCTION memory._link_evidence(uuid, uuid) TO memory_writer;
