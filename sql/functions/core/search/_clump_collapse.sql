-- Collapse a pool of search hits (best first) into rows of near-identical hits, for
-- memory.search_episodes(..., p_collapse => true): one row per group, in group order, with
-- the index (into p_hits) of its first hit, its copies and its agents.
--
-- Best first, a hit joins the first kept hit within cosine c_collapse_cosine of it (the
-- pairs compared are those whose similarities to the query differ by at most
-- sqrt(2 (1 - c_collapse_cosine)), the most two vectors that close can differ by), else it is
-- kept and starts a group. A hit that belongs to a clump of a fresh clump build (p_clumps,
-- from memory._clump_search; p_build_no that build) joins its clump's group once the clump
-- has one: the clump is one row whatever share of it the pool holds, and its row counts
-- every member (memory.search_clumps.members) and every agent (agent_ids) besides the
-- pool's other hits in the group. Without a build (p_build_no NULL) a group counts the
-- pool's hits in it: a clump larger than the pool counts as its share of it. Agents: the
-- distinct agents (an episode without one counts none).
-- The pool's vectors are read by the simulation's keys (leakproof uuid equality, the
-- primary key).
CREATE OR REPLACE FUNCTION memory._clump_collapse(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_build_no bigint,
    p_hits memory.episode_hit[],
    p_clumps integer[])
RETURNS TABLE (first_hit integer, copies integer, agents integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
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
$fn$;

COMMENT ON FUNCTION memory._clump_collapse(uuid, uuid, bigint, memory.episode_hit[], integer[]) IS 'Internal: group a pool of search hits into near-identical rows (a fresh build''s clump one row with all its copies and agents) for search_episodes'' p_collapse';
GRANT EXECUTE ON FUNCTION memory._clump_collapse(uuid, uuid, bigint, memory.episode_hit[], integer[]) TO memory_reader;
