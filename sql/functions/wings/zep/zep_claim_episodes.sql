-- The extraction queue: claim up to p_limit episodes of the caller's tenant to extract, the
-- oldest accepted first: queued ones, failed ones whose retry is due (attempts left), and
-- processing ones whose claim ran out (an extractor killed mid-way; nothing of its work
-- committed, since an extraction commits whole). A claim lasts p_lease_seconds (300 by
-- default, 10..3600); concurrent extractors skip each other's claims (SKIP LOCKED). A claim
-- that ran out after the last attempt fails the episode instead. Returns each episode with
-- its graph's ontology and model and the attempt number that memory.zep_apply_extraction and
-- memory.zep_fail_extraction take back (so a claim that was taken over cannot commit).
CREATE OR REPLACE FUNCTION memory.zep_claim_episodes(p_tenant_id uuid, p_limit integer DEFAULT 1,
                                                     p_lease_seconds integer DEFAULT 300)
RETURNS TABLE (graph_id text, simulation_id uuid, episode_uuid uuid, sequence_index bigint, content text,
               source text, source_description text, created_at timestamptz, attempt integer, model text,
               entity_types jsonb, edge_types jsonb)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_lease interval := pg_catalog.make_interval(secs => LEAST(GREATEST(COALESCE(p_lease_seconds, 300), 10), 3600));
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    UPDATE memory.zep_episodes AS z
       SET status = 'failed', claimed_until = NULL, next_attempt_at = NULL,
           last_error = pg_catalog.format('extraction did not finish in %s attempts (the last claim ran out)', z.attempts)
     WHERE z.tenant_id = p_tenant_id AND z.status = 'processing' AND z.claimed_until < pg_catalog.now()
       AND z.attempts >= memory._zep_attempts_max();
    RETURN QUERY
    WITH next AS (
        SELECT z.simulation_id, z.episode_uuid
          FROM memory.zep_episodes AS z
         WHERE z.tenant_id = p_tenant_id AND z.status <> 'succeeded'
           AND (z.status = 'queued'
                OR (z.status = 'processing' AND z.claimed_until < pg_catalog.now())
                OR (z.status = 'failed' AND z.attempts < memory._zep_attempts_max()
                    AND z.next_attempt_at <= pg_catalog.now()))
         ORDER BY z.sequence_index
         LIMIT LEAST(GREATEST(COALESCE(p_limit, 1), 1), 100)
           FOR UPDATE SKIP LOCKED
    ), claimed AS (
        UPDATE memory.zep_episodes AS z
           SET status = 'processing', attempts = z.attempts + 1,
               claimed_until = pg_catalog.now() + v_lease, next_attempt_at = NULL
          FROM next AS n
         WHERE z.tenant_id = p_tenant_id AND z.simulation_id = n.simulation_id AND z.episode_uuid = n.episode_uuid
        RETURNING z.*
    )
    SELECT (memory._zep_graph_json(s.simulation_id, s.name, s.metadata, s.created_at)) ->> 'graph_id',
           c.simulation_id, c.episode_uuid, c.sequence_index, c.content, c.source, c.source_description,
           c.created_at, c.attempts, m.model,
           COALESCE(o.entity_types, '[]'::jsonb), COALESCE(o.edge_types, '[]'::jsonb)
      FROM claimed AS c
      JOIN memory.simulations AS s ON s.tenant_id = p_tenant_id AND s.simulation_id = c.simulation_id
      LEFT JOIN memory.zep_ontologies AS o ON o.tenant_id = p_tenant_id AND o.simulation_id = c.simulation_id
     CROSS JOIN LATERAL memory._simulation_model(p_tenant_id, c.simulation_id) AS m
     ORDER BY c.sequence_index;
END
$fn$;

COMMENT ON FUNCTION memory.zep_claim_episodes(uuid, integer, integer) IS 'The extraction queue: claim the oldest episodes due for extraction, with their graph''s ontology and model';
GRANT EXECUTE ON FUNCTION memory.zep_claim_episodes(uuid, integer, integer) TO memory_writer;
