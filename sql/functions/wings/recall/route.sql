-- Where a question should go: 'graph' when only graph phrases of memory.route_rules occur in
-- it (who, related to, caused by, and their Chinese kin ...), 'vector' when only phrases of meaning occur
-- (similar to, about, what was said ...), 'hybrid' when both or none do; and the
-- phrases that decided it, each with its target, in the order they occur. A phrase of ASCII
-- letters matches whole words in any case; any other phrase (Chinese has no spaces) matches
-- where it occurs. It reads no tenant's data (the rules are the installation's), so it
-- takes no tenant; NULL text 22004, empty text or nothing but white space (of any kind, as
-- the words arm reads it) 22023.
CREATE OR REPLACE FUNCTION memory.route(p_query_text text)
RETURNS TABLE (target text, signals jsonb)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_text text := pg_catalog.lower(COALESCE(p_query_text, ''));
BEGIN
    PERFORM memory._not_null(p_query_text, 'p_query_text', 'pass the question as text');
    IF v_text OPERATOR(pg_catalog.!~) '[^[:space:]]' THEN
        RAISE EXCEPTION 'p_query_text is empty'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the question as text';
    END IF;
    PERFORM memory._check_limit('question_bytes', 'p_query_text', pg_catalog.octet_length(p_query_text));
    RETURN QUERY
    SELECT CASE WHEN pg_catalog.bool_or(m.target = 'graph') AND NOT pg_catalog.bool_or(m.target = 'vector') THEN 'graph'
                WHEN pg_catalog.bool_or(m.target = 'vector') AND NOT pg_catalog.bool_or(m.target = 'graph') THEN 'vector'
                ELSE 'hybrid' END,
           COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('phrase', m.phrase, 'target', m.target)
                                         ORDER BY m.at, m.phrase) FILTER (WHERE m.phrase IS NOT NULL), '[]'::jsonb)
      FROM (SELECT r.phrase, r.target,
                   CASE WHEN r.phrase OPERATOR(pg_catalog.~) '^[a-z0-9 ''-]+$'
                        THEN pg_catalog.strpos(v_text, r.phrase) * (v_text OPERATOR(pg_catalog.~)
                             ('\m' || r.phrase || '\M'))::integer
                        ELSE pg_catalog.strpos(v_text, r.phrase) END AS at
              FROM memory.route_rules AS r) AS m
     WHERE m.at > 0;
END
$fn$;

COMMENT ON FUNCTION memory.route(text) IS 'Route a question to the graph, to meaning or to both, with the phrases of memory.route_rules that decided it';
GRANT EXECUTE ON FUNCTION memory.route(text) TO memory_reader;
