-- Add or change a routing phrase of memory.route (p_target 'graph' or 'vector'), or remove
-- it (p_target NULL); returns whether anything changed. memory_admin only: SECURITY DEFINER
-- (owned by memory_owner), so that no role holds a table privilege on memory.route_rules
-- beyond reading it; the caller is checked as the session user (memory._require_admin).
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges; no tenant; its SET
-- clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory.set_route_rule(p_phrase text, p_target text) RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_phrase text := pg_catalog.lower(pg_catalog.btrim(p_phrase));
    v_rows   bigint;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._not_null(p_phrase, 'p_phrase', 'pass the words that signal a route');
    IF v_phrase = '' OR pg_catalog.char_length(v_phrase) > 200 THEN
        RAISE EXCEPTION 'p_phrase must have 1 to 200 characters, not %', pg_catalog.char_length(v_phrase)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the words that signal a route';
    END IF;
    IF p_target IS NULL THEN
        DELETE FROM memory.route_rules AS r WHERE r.phrase = v_phrase;
    ELSIF p_target NOT IN ('graph', 'vector') THEN
        RAISE EXCEPTION 'unknown route target %', pg_catalog.quote_literal(memory._quote(p_target))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''graph'', ''vector'', or NULL to remove the phrase';
    ELSE
        INSERT INTO memory.route_rules AS r (phrase, target) VALUES (v_phrase, p_target)
        ON CONFLICT (phrase) DO UPDATE SET target = excluded.target WHERE r.target <> excluded.target;
    END IF;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows > 0;
END
$fn$;

COMMENT ON FUNCTION memory.set_route_rule(text, text) IS 'Add, change or (NULL target) remove a routing phrase of memory.route (memory_admin)';
GRANT EXECUTE ON FUNCTION memory.set_route_rule(text, text) TO memory_admin;
