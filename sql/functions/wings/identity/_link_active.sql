-- Whether a link counts when a read follows identities: confirmed or made by hand, or found
-- by the latest linking of its two runs; never a refused one. The one home of that rule.
CREATE OR REPLACE FUNCTION memory._link_active(p_decision text, p_current boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT p_decision IN ('confirmed', 'manual') OR (p_decision = 'auto' AND p_current)
$fn$;

COMMENT ON FUNCTION memory._link_active(text, boolean) IS 'Internal: whether a link counts (confirmed, made by hand, or found by the latest linking)';
GRANT EXECUTE ON FUNCTION memory._link_active(text, boolean) TO memory_reader;
