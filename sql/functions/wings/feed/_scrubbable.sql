-- Whether a forgotten text is long enough to be scrubbed from a simulation's reports by
-- exact match: a short or common text ("ok", "agreed!") also occurs in sentences nobody
-- forgot, and replacing every occurrence would rewrite what others wrote. The rule: a
-- minimum length once trimmed, lower where the text holds CJK or Hangul, whose characters
-- carry a word each (docs/forgetting.md gives the figures). One home of the rule:
-- memory._forget_reports keeps only the texts that pass, and the edge pieces
-- memory._scrub_text trims pass it too.
CREATE OR REPLACE FUNCTION memory._scrubbable(p_text text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT p_text IS NOT NULL
       AND pg_catalog.char_length(pg_catalog.btrim(p_text)) >=
           CASE WHEN p_text OPERATOR(pg_catalog.~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
                THEN 8 ELSE 24 END
$fn$;

COMMENT ON FUNCTION memory._scrubbable(text) IS 'Internal: whether a forgotten text is long enough to scrub from reports by exact match (the minimum''s one home)';
GRANT EXECUTE ON FUNCTION memory._scrubbable(text) TO memory_writer;
