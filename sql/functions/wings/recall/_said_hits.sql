-- An arm's hits of the words or the graph kept to the episodes that said something (their
-- own text, or a repost's: memory._action_said) and, at a round, to the episodes of that
-- round or an earlier one; the other kinds pass; the ranks renumbered in the arm's order.
-- A follow, a mute, a like or doing nothing is stored as a sentence naming agents, which
-- those arms would find by the names alone. The episodes are looked up at once, by their
-- keys, in a statement of their own: one statement a hit was a query a row, each planned
-- apart by Citus on a cluster, and the arm's own statement stays free of the tables.
CREATE OR REPLACE FUNCTION memory._said_hits(p_tenant_id uuid, p_simulation_id uuid,
                                            p_hits memory.recall_hit[], p_round integer)
RETURNS memory.recall_hit[]
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_said text[];
BEGIN
    v_said := ARRAY(
        SELECT e.episode_id FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = ANY (ARRAY(SELECT pg_catalog.md5(x.id)::uuid FROM pg_catalog.unnest(p_hits) AS x
                                           WHERE x.kind = 'episode'))
           AND memory._action_said(e.content, e.metadata) IS NOT NULL
           AND (p_round IS NULL OR e.round <= p_round));
    RETURN ARRAY(
        SELECT ROW(x.arm, x.kind, x.id, x.body, x.raw,
                   pg_catalog.row_number() OVER (ORDER BY x.rank), x.matched, x.trust)::memory.recall_hit
          FROM pg_catalog.unnest(p_hits) AS x
         WHERE x.kind <> 'episode' OR x.id = ANY (v_said));
END
$fn$;

COMMENT ON FUNCTION memory._said_hits(uuid, uuid, memory.recall_hit[], integer) IS 'Internal: an arm''s hits kept to the episodes that said something (and, at a round, of it or before), ranks renumbered';
GRANT EXECUTE ON FUNCTION memory._said_hits(uuid, uuid, memory.recall_hit[], integer) TO memory_reader;
