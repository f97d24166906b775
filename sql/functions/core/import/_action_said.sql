-- What an action put out in words: its own text (MiroFish's action_args content, or a
-- quote's quote_content), else for a repost the text it reposted (original_content); NULL
-- for an action without text (a like, a follow, a mute, doing nothing), whose stored content
-- is only a sentence built from its type and arguments. An episode without action_args (one
-- written outside imports, memory.remember) says its content. One rule for the actions that
-- can support a fact (memory._link_evidence) and for what an entity said (entity_summary).
CREATE OR REPLACE FUNCTION memory._action_said(p_content text, p_metadata jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE
        WHEN pg_catalog.jsonb_typeof(p_metadata -> 'action_args') IS DISTINCT FROM 'object' THEN p_content
        ELSE COALESCE(NULLIF(p_metadata -> 'action_args' ->> 'content', ''),
                      NULLIF(p_metadata -> 'action_args' ->> 'quote_content', ''),
                      NULLIF(p_metadata -> 'action_args' ->> 'original_content', '')) END
$fn$;

COMMENT ON FUNCTION memory._action_said(text, jsonb) IS 'Internal: an action''s own text, a repost''s reposted text, NULL for an action without text';
GRANT EXECUTE ON FUNCTION memory._action_said(text, jsonb) TO memory_reader;
