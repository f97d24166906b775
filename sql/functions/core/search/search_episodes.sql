-- Episodes of a simulation most similar to a query embedding, best first (the work is
-- memory._search_episodes'); similarity is 1 - cosine distance. p_top_k is clamped to
-- 1..100 (NULL means 10); p_agent_id narrows to one agent; p_round_from / p_round_to to a
-- round range (inclusive) and p_from / p_to to a time window [p_from, p_to) (each NULL:
-- open; an episode without round or time is outside any range on it). A range that ends
-- before it starts is 22023. It returns min(top_k, rows with an embedding in the range),
-- never fewer: the true top k within the range. p_model, the model of the query vector:
-- refused (22023) when it is not the simulation's (memory._check_query_model); NULL names
-- the default model, so a vector without its model is refused on a simulation of another.
-- The check is here and not in memory._search_episodes: memory.recall checks its option
-- model itself before it calls that.
--
-- Strategy: a simulation with its own partial HNSW index (built by `swarm-memory index` for
-- simulations above a size, after they load) is searched through it: the index holds that
-- simulation alone, so no filter after the scan can starve the result, and the candidates
-- are re-ranked by the exact distance. Every other simulation is searched exactly: at the
-- sizes that stay unindexed an exact scan is cheap. A range holding at most
-- 10,000 episodes (counted through episodes_round_idx / episodes_time_idx, stopping at
-- 10,001) is searched exactly in any simulation: an approximate scan filtered that narrowly
-- gives up early or ranks loosely, where the exact scan of so few rows is cheap and right.
-- If the approximate search ever returns fewer rows than it should, the exact search answers.
-- While `swarm-memory index` builds a simulation's first HNSW index (concurrently, which
-- takes minutes for a large simulation), the simulation is searched through its bridge, an
-- IVFFlat index built much faster before it (memory._search_episodes_ivf, at close to the
-- HNSW index's recall; memory._ann_statements), instead of exactly.
-- A ranged exact search runs as a statement planned for its values (EXECUTE of a fixed text):
-- a cached generic plan cannot pick the range's index.
--
-- Clumps: social runs repeat themselves (reposts, echoes of a viral post), and
-- an index of every episode is weakest there (bench/README.md, "Search on clumpy swarm
-- data"). `swarm-memory index` finds a simulation's clumps (memory._clump_build); while that
-- build is fresh (memory._clump_state: no change of the simulation's episodes since) and
-- found clumps or copies, a call without agent or range is answered by
-- memory._clump_search: an index over the simulation's representatives (each distinct
-- vector outside its clumps, once) and the clumps near the result read whole and ranked
-- exactly. A stale build, a filtered call or a simulation without a build is searched as
-- above, until the next `swarm-memory index`.
--
-- p_collapse: near-identical hits become one row. Social runs repeat themselves, and a
-- plain search can return the same post ten times. With p_collapse the search takes a pool
-- of the nearest episodes (5 x top_k, at least 50) and groups it (memory._clump_collapse:
-- best first, each hit joins the first kept row within cosine 0.99 of it, else is kept;
-- with a fresh clump build a clump is one row with all its copies and agents); while that
-- leaves fewer than top_k rows and the simulation has more, the pool grows fourfold, up to
-- 200. It returns up to top_k kept rows, best first, each the best-ranked hit of its group,
-- with copies = the episodes behind it (without a build: the pool's hits in the group, so a
-- clump larger than the pool counts as its share of it) and agents = the distinct agents
-- among them. Without it every row is one copy (copies 1, agents 1, or 0 for a row
-- without an agent).
--
-- p_snapshot, a name from memory.create_snapshot: the episodes as the memory held them at
-- its record time (memory._read_clock; memory._search_episodes_known): episodes written
-- since are not seen, and those changed or removed since are seen as they were, so a report
-- re-run against it gets the same answers whatever was imported after. A snapshot taken at
-- a round reads the episodes of rounds up to it unless p_round_to names another. Such a
-- search is an exact scan (no index holds the versions a later import replaced), and it
-- does not collapse (copies are found through the live rows and their clumps): p_collapse
-- with p_snapshot is 22023. An unknown or dropped snapshot is P0002.
CREATE OR REPLACE FUNCTION memory.search_episodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_agent_id integer DEFAULT NULL,
    p_round_from integer DEFAULT NULL,
    p_round_to integer DEFAULT NULL,
    p_from timestamptz DEFAULT NULL,
    p_to timestamptz DEFAULT NULL,
    p_collapse boolean DEFAULT false,
    p_model text DEFAULT NULL,
    p_snapshot text DEFAULT NULL)
RETURNS TABLE (episode_id text, agent_id integer, agent_name text, platform text, round integer,
               action_type text, content text, occurred_at timestamptz, similarity double precision,
               copies integer, agents integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_known    timestamptz;
    v_round_to integer := p_round_to;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    IF p_snapshot IS NOT NULL THEN
        IF p_collapse THEN
            RAISE EXCEPTION 'p_collapse is not read at a snapshot'
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'search the snapshot without p_collapse: its copies are known only as the memory holds them now';
        END IF;
        SELECT c.known_at, COALESCE(p_round_to, c.round) INTO v_known, v_round_to
          FROM memory._read_clock(p_tenant_id, p_simulation_id, NULL, NULL, NULL, p_snapshot) AS c;
        -- a snapshot taken in this transaction: the memory it reads is the memory now
        v_known := CASE WHEN v_known < pg_catalog.now() THEN v_known END;
    END IF;
    IF v_known IS NOT NULL THEN
        -- the caller's ranges checked as memory._search_episodes checks them; a snapshot's
        -- round before p_round_from leaves nothing to find
        IF p_round_from > p_round_to OR p_from > p_to THEN
            RAISE EXCEPTION 'range ends before it starts (rounds % to %, times % to %)', p_round_from, p_round_to, p_from, p_to
                USING ERRCODE = 'invalid_parameter_value', HINT = 'pass p_round_from <= p_round_to and p_from <= p_to';
        END IF;
        RETURN QUERY SELECT * FROM memory._search_episodes_known(
            p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_query => p_query,
            p_top_k => p_top_k, p_agent_id => p_agent_id, p_round_from => p_round_from,
            p_round_to => v_round_to, p_from => p_from, p_to => p_to, p_known_at => v_known);
        RETURN;
    END IF;
    RETURN QUERY SELECT * FROM memory._search_episodes(
        p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_query => p_query,
        p_top_k => p_top_k, p_agent_id => p_agent_id, p_round_from => p_round_from,
        p_round_to => v_round_to, p_from => p_from, p_to => p_to, p_collapse => p_collapse,
        p_model => p_model, p_pool => NULL);
END
$fn$;

COMMENT ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text, text) IS 'Semantic search over a simulation''s episodes (cosine), best first, optionally within a round range and a time window, near-identical hits optionally collapsed into one row with their copies and agents, or as held at a snapshot; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text, text) TO memory_reader;
