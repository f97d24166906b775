-- The state of a fact at a world time: 'future' before it began, 'ended' once it stopped
-- holding (invalid_at), 'expired' once the upstream graph learned that it no longer holds
-- (expired_at) though no end is known, else 'current'. A NULL bound is open.
CREATE OR REPLACE FUNCTION memory._fact_state(p_valid_at timestamptz, p_invalid_at timestamptz,
                                              p_expired_at timestamptz, p_as_of timestamptz)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE WHEN p_valid_at > p_as_of THEN 'future'
                WHEN p_invalid_at <= p_as_of THEN 'ended'
                WHEN p_expired_at <= p_as_of THEN 'expired'
                ELSE 'current' END
$fn$;

COMMENT ON FUNCTION memory._fact_state(timestamptz, timestamptz, timestamptz, timestamptz) IS 'Internal: current, ended, expired or future: the state of a fact at a world time';
GRANT EXECUTE ON FUNCTION memory._fact_state(timestamptz, timestamptz, timestamptz, timestamptz) TO memory_reader;
