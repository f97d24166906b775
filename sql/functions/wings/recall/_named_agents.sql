-- The agents a question names: agents of the simulation whose name occurs in p_text (any
-- case; a name of Latin letters as whole words, so "Ann" is not found in "annual"; a name
-- with CJK characters wherever it occurs, since Chinese has no spaces), at most p_limit,
-- longest names first (a full name before a shorter name it contains). A question about
-- "what Caroline said" is about Caroline's actions: memory.recall ranks those by meaning as
-- an arm of its own. Agents are read from the episodes' agent index by a skip scan (one
-- probe an agent, not a pass over the episodes), up to memory._limit('word_candidates')
-- agents, beyond which a simulation's agents are not looked for by name. The caller has
-- entered the tenant.
CREATE OR REPLACE FUNCTION memory._named_agents(p_tenant_id uuid, p_simulation_id uuid, p_text text, p_limit integer)
RETURNS TABLE (agent_id integer, agent_name text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
WITH RECURSIVE ids (id, n) AS (
    SELECT (SELECT pg_catalog.min(e.agent_id) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id), 1
    UNION ALL
    SELECT (SELECT pg_catalog.min(e.agent_id) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.agent_id OPERATOR(pg_catalog.>) i.id), i.n OPERATOR(pg_catalog.+) 1
      FROM ids AS i
     WHERE i.id IS NOT NULL AND i.n OPERATOR(pg_catalog.<) memory._limit('word_candidates')
)
SELECT i.id, a.name
  FROM ids AS i
 CROSS JOIN LATERAL (SELECT e.agent_name AS name FROM memory.episodes AS e
                      WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                        AND e.agent_id = i.id AND e.agent_name IS NOT NULL
                      LIMIT 1) AS a
 WHERE i.id IS NOT NULL
   AND pg_catalog.char_length(pg_catalog.btrim(a.name)) OPERATOR(pg_catalog.>=) 2
   -- a name that is not a substring of the question cannot be a word of it: the cheap test
   -- first, so that a pattern is compiled only for a name the question may hold (PostgreSQL
   -- keeps few compiled patterns, and a simulation's every name missed that cache)
   AND pg_catalog.strpos(pg_catalog.lower(p_text), pg_catalog.lower(pg_catalog.btrim(a.name))) OPERATOR(pg_catalog.>) 0
   AND CASE WHEN a.name OPERATOR(pg_catalog.~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
            THEN pg_catalog.strpos(pg_catalog.lower(p_text), pg_catalog.lower(pg_catalog.btrim(a.name))) OPERATOR(pg_catalog.>) 0
            ELSE p_text OPERATOR(pg_catalog.~*)
                 ('(^|[^[:alnum:]])'
                  OPERATOR(pg_catalog.||) pg_catalog.regexp_replace(pg_catalog.btrim(a.name), '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g')
                  OPERATOR(pg_catalog.||) '($|[^[:alnum:]])') END
 ORDER BY pg_catalog.char_length(a.name) DESC, i.id
 LIMIT p_limit
$fn$;

COMMENT ON FUNCTION memory._named_agents(uuid, uuid, text, integer) IS 'Internal: the agents of a simulation a question names (whole words; CJK names wherever they occur)';
GRANT EXECUTE ON FUNCTION memory._named_agents(uuid, uuid, text, integer) TO memory_reader;
