-- A time as Zep's API writes it: ISO 8601 in UTC with microseconds and a Z, whatever the
-- session's TimeZone (a jsonb timestamptz would carry the session's offset). NULL stays NULL.
CREATE OR REPLACE FUNCTION memory._zep_time(p_at timestamptz) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
$fn$;

COMMENT ON FUNCTION memory._zep_time(timestamptz) IS 'Internal: a time as Zep writes it (ISO 8601, UTC, Z)';
GRANT EXECUTE ON FUNCTION memory._zep_time(timestamptz) TO memory_reader;
