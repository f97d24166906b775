-- An extraction that did not commit: the episode is failed with p_error (at most 2000
-- characters kept), visible on it (episode.get's "error"), and retried after a pause of half a
-- minute that doubles with each attempt (memory.zep_claim_episodes takes it then) until
-- memory._zep_attempts_max() attempts were made. p_attempt is the claim's (a claim taken over
-- by another extractor changes nothing: false). Returns whether it was recorded.
CREATE OR REPLACE FUNCTION memory.zep_fail_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer,
                                                      p_error text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    UPDATE memory.zep_episodes AS z
       SET status = 'failed', claimed_until = NULL,
           last_error = pg_catalog.left(COALESCE(p_error, 'extraction failed'), 2000),
           next_attempt_at = pg_catalog.now() + pg_catalog.make_interval(secs => 30 * 2 ^ LEAST(z.attempts - 1, 10))
     WHERE z.tenant_id = p_tenant_id AND z.episode_uuid = p_episode_uuid
       AND z.status = 'processing' AND z.attempts = p_attempt;
    RETURN FOUND;
END
$fn$;

COMMENT ON FUNCTION memory.zep_fail_extraction(uuid, uuid, integer, text) IS 'An extraction that did not commit: the episode failed with its error, retried later';
GRANT EXECUTE ON FUNCTION memory.zep_fail_extraction(uuid, uuid, integer, text) TO memory_writer;
