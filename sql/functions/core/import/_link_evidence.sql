-- Make memory.edge_evidence hold exactly the evidence of a simulation's edges as its rows
-- stand now, writing only what differs (an unchanged replay writes nothing). Called by every
-- promote (memory.commit_import, after the merges) and by memory.link_evidence.
--   source (found_by {id}): each id of the edge's `episodes` list (MiroFish's field, kept in
--            attributes), once, at its first place in the list. MiroFish lists the graph
--            builder's ingest episodes there, which no action log holds: the two ways below
--            are what links a real run's facts to its actions.
--   mention, found by names: an action that names both of the edge's entities in its text or
--            as its agent (an agent's post about the plan names the agent), by a node's name
--            or an alias (memory._entity_names): the action's words (memory.word_postings)
--            hold every word of the name (English stemmed, CJK as character pairs), and its
--            text holds the name itself in lower case; so "Dan" does not name "Daniel", and
--            Chinese needs no word boundaries (a name of one CJK character names nothing).
--            Or an action with text of its own (memory._action_said) that names one entity
--            and holds two words of the fact beyond that entity's names (all of them if it
--            has fewer), words that a tenth of the simulation's actions or fewer hold: a
--            word that common says nothing of one fact. `matched` lists the names, then those words.
--   mention, found by meaning: an action with text of its own among the fact's nearest
--            (c_meaning_top) whose vector (same model as the fact's) stands c_meaning_z
--            standard deviations or more above the fact's mean cosine over the simulation's
--            actions with text: a bar relative to each fact, since the cosines of unrelated
--            texts differ by model and language (a multilingual model puts them all high,
--            an English model reading Chinese too). A simulation with fewer than
--            c_meaning_min such actions of the fact's model has no meaning links (too few
--            to tell a fact's near actions from the rest), nor one where facts x actions
--            exceed c_meaning_pairs: every pair is compared twice, in the import's commit,
--            which holds the simulation's lock while it runs, so the bound keeps that
--            commit to about a second (a run of a few hundred facts and a few thousand
--            actions); larger runs are linked by ids and names alone.
--   Each mention falls within the fact's validity window: occurred_at in [valid_at,
--   invalid_at), an open bound open; an action without a time is not excluded (nothing says
--   it fell outside). An action found both ways is one row, found_by {names, meaning}.
--   score: the cosine of the fact's and the action's vectors when both are of one model.
--   Cost of the names: one lookup in the words index for each word some name or fact holds,
--   then for each name only the actions holding its rarest word are searched for the name
--   as a substring; the agents' names are matched once each.
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
-- lookups (a name in the words index, a fact's nearest actions) stay nested loops (they can
-- be nothing else)
SET enable_nestloop = off
AS $fn$
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
$fn$;

COMMENT ON FUNCTION memory._link_evidence(uuid, uuid) IS 'Internal: bring a simulation''s edge evidence (source episodes; actions supporting a fact by names or meaning in its validity window) up to date, writing only what differs (SECURITY DEFINER: tenant roles do not write memory.edge_evidence)';
GRANT EXECUTE ON FUNCTION memory._link_evidence(uuid, uuid) TO memory_writer;
