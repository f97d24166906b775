-- The evidence behind one fact (edge): first its source episodes ('source', found_by {id}: the
-- ids of the edge's `episodes` list, in its order; `resolved` says whether the memory holds
-- an episode of that id, whose action then fills the other columns), then the agent actions
-- that support it within its validity window ('mention', in the order they happened),
-- found by names (`matched` the names found, and the fact's words beside a single name)
-- and/or by meaning; `score` the cosine of the fact's and the action's vectors. Kept by
-- every import (memory._link_evidence says how each is found); after upserts,
-- memory.link_evidence() brings it up to date. An unknown edge is P0002, the same for
-- another tenant's.
CREATE OR REPLACE FUNCTION memory.evidence(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text)
RETURNS TABLE (kind text, episode_id text, resolved boolean, list_position integer, matched text[],
               agent_id integer, agent_name text, platform text, round integer, action_type text,
               content text, occurred_at timestamptz, found_by text[], score real)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_row('edges', p_tenant_id, p_simulation_id, p_edge_id);
    SELECT l.kind, l.episode_id, x.episode_id IS NOT NULL, l.position, l.matched,
           x.agent_id, x.agent_name, x.platform, x.round, x.action_type, x.content, x.occurred_at,
           l.found_by, l.score
      FROM memory.edge_evidence AS l
      LEFT JOIN memory.episodes AS x
        ON x.tenant_id = l.tenant_id AND x.simulation_id = l.simulation_id AND x.episode_key = l.episode_key
     WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
       AND l.edge_key = pg_catalog.md5(p_edge_id)::uuid
     ORDER BY l.kind DESC, l.position, x.occurred_at, l.episode_id;
$fn$;

COMMENT ON FUNCTION memory.evidence(uuid, uuid, text) IS 'The evidence behind a fact: its source episodes (resolved or not), then the actions supporting it within its validity window, found by names and/or meaning, with the names matched and the cosine';
GRANT EXECUTE ON FUNCTION memory.evidence(uuid, uuid, text) TO memory_reader;
