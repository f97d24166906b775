-- recall's graph arm: the entities the question names (memory._name_candidates, similarity
-- at least 0.5, the best five, ties by node id: p_name_keys / p_name_sims when recall found
-- them for its words arm too, else found here), then their current facts (as of p_as_of),
-- their neighbours within p_depth, and the episodes that name them (one words search,
-- memory._search_words, for all the names, each episode credited to the names it holds),
-- in that order of rank, each hit once (its best tier), at most p_candidates. The caller
-- has entered the tenant.
-- A seed's neighbours rank among themselves as its walk orders them (depth, then node id),
-- so each walk is bounded to its first p_candidates rows (neighbors' p_limit): a row past
-- them has p_candidates distinct nodes ranked before it and cannot be among the arm's rows.
-- (Without the bound a hub's thousands of neighbours would each be named and given a path
-- to be dropped.)
-- At depth 1 the neighbours are read in the arm's statement, for all the seeds at once:
-- a call of memory.neighbors a seed paid each call's checks and plan again, for the same
-- rows.
-- Its plans are generic, made once a session (force_generic_plan, as memory._search_words'
-- and memory.neighbors'): the branch of the depth that does not apply is a one-time filter,
-- and every lookup is by key whatever the estimates (see memory._search_words for the
-- figures; on a Citus cluster memory._use_custom_plans plans each call again). The setting
-- holds for what it calls too (memory.neighbors has its own; memory._search_words likewise).
CREATE OR REPLACE FUNCTION memory._recall_graph(p_tenant_id uuid, p_simulation_id uuid, p_text text,
                                                p_candidates integer, p_depth integer, p_as_of timestamptz,
                                                p_name_keys uuid[], p_name_sims real[])
RETURNS SETOF memory.recall_hit
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
AS $fn$
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
$fn$;

COMMENT ON FUNCTION memory._recall_graph(uuid, uuid, text, integer, integer, timestamptz, uuid[], real[]) IS 'Internal: recall''s graph arm (the named entities, their facts, neighbours and the episodes naming them), ranked';
GRANT EXECUTE ON FUNCTION memory._recall_graph(uuid, uuid, text, integer, integer, timestamptz, uuid[], real[]) TO memory_reader;
