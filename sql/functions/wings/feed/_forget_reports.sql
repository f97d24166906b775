-- The reports part of a forget (memory._forget calls it inside its transaction, as the
-- table owner, with the tenant entered): every exact occurrence of the forgotten texts in
-- the simulation's reports (title, summary, requirement, error, metadata with the report's
-- markdown), sections (title, markdown), chunks (with the pieces of a quote the chunker cut:
-- memory._scrub_text), agent log lines and predictions is replaced by the marker. Texts
-- shorter than memory._scrubbable allows are left, and counted. A changed chunk loses its
-- vector, model and content hash (its vector was computed from the old text and SQL cannot
-- embed): memory.search_reports searches only chunks with a vector, and the next import of
-- the report embeds the chunk again, since no committed hash matches it. The cached vectors
-- of the old chunk texts go from the tenant's vector cache. Returns counts: report rows
-- changed, chunks left without a vector, texts too short to scrub. Idempotent: a text
-- replaced once is not there to replace again.
CREATE OR REPLACE FUNCTION memory._forget_reports(p_tenant_id uuid, p_simulation_id uuid, p_texts text[])
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_texts   text[];
    v_json    text[];
    v_short   bigint;
    v_rows    bigint := 0;
    v_n       bigint;
    v_chunks  bigint;
    v_hashes  bytea[];
BEGIN
    SELECT COALESCE(pg_catalog.array_agg(t.t ORDER BY pg_catalog.char_length(t.t) DESC, t.t)
                        FILTER (WHERE memory._scrubbable(t.t)), '{}'),
           pg_catalog.count(*) FILTER (WHERE NOT memory._scrubbable(t.t))
      INTO v_texts, v_short
      FROM (SELECT DISTINCT u.t FROM pg_catalog.unnest(p_texts) AS u (t) WHERE u.t IS NOT NULL AND u.t <> '') AS t;
    IF pg_catalog.cardinality(v_texts) = 0 THEN
        RETURN pg_catalog.jsonb_build_object('report_rows', 0, 'chunks_unembedded', 0, 'texts_too_short', v_short);
    END IF;
    -- the texts as they stand inside JSON strings: a cheap test before a document is walked
    v_json := ARRAY(SELECT pg_catalog.substr(j.s, 2, pg_catalog.char_length(j.s) - 2)
                      FROM pg_catalog.unnest(v_texts) AS u (t)
                     CROSS JOIN LATERAL (SELECT pg_catalog.to_jsonb(u.t)::text AS s) AS j);

    -- chunks first, while their sections still hold the whole quote: a chunk of a section
    -- that quotes a text may hold only a piece of it
    WITH old AS (
        SELECT c.chunk_key, memory._scrub_text(c.content, v_texts, true) AS content,
               c.content_hash, memory._cache_hash(c.embedding_model, s.title || E'\n' || c.content) AS text_key
          FROM memory.report_chunks AS c
          JOIN memory.report_sections AS s
            ON s.tenant_id = c.tenant_id AND s.simulation_id = c.simulation_id
           AND s.report_key = c.report_key AND s.section_index = c.section_index
         WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
           AND EXISTS (SELECT 1 FROM pg_catalog.unnest(v_texts) AS u (t)
                        WHERE pg_catalog.strpos(s.markdown, u.t) > 0 OR pg_catalog.strpos(c.content, u.t) > 0)),
    changed AS (
        UPDATE memory.report_chunks AS c
           SET content = o.content, embedding = NULL, embedding_model = NULL, content_hash = NULL,
               updated_at = pg_catalog.now()
          FROM old AS o
         WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
           AND c.chunk_key = o.chunk_key AND c.content IS DISTINCT FROM o.content
        RETURNING o.content_hash, o.text_key)
    SELECT pg_catalog.count(*),
           COALESCE(pg_catalog.array_agg(h.h) FILTER (WHERE h.h IS NOT NULL), '{}')
      INTO v_chunks, v_hashes
      FROM changed AS ch CROSS JOIN LATERAL (VALUES (ch.content_hash), (ch.text_key)) AS h (h);
    v_chunks := v_chunks / 2;
    DELETE FROM memory.vector_cache AS c
     WHERE c.tenant_id = p_tenant_id AND c.content_hash = ANY (v_hashes);

    UPDATE memory.report_sections AS s
       SET title = memory._scrub_text(s.title, v_texts), markdown = memory._scrub_text(s.markdown, v_texts),
           updated_at = pg_catalog.now()
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
       AND EXISTS (SELECT 1 FROM pg_catalog.unnest(v_texts) AS u (t)
                    WHERE pg_catalog.strpos(s.title, u.t) > 0 OR pg_catalog.strpos(s.markdown, u.t) > 0);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    v_rows := v_rows + v_n + v_chunks;

    UPDATE memory.reports AS r
       SET title = memory._scrub_text(r.title, v_texts), summary = memory._scrub_text(r.summary, v_texts),
           simulation_requirement = memory._scrub_text(r.simulation_requirement, v_texts),
           error = memory._scrub_text(r.error, v_texts), metadata = memory._scrub_json(r.metadata, v_texts),
           updated_at = pg_catalog.now()
     WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
       AND EXISTS (SELECT 1 FROM ROWS FROM (pg_catalog.unnest(v_texts), pg_catalog.unnest(v_json)) AS u (t, j)
                    WHERE pg_catalog.strpos(r.metadata::text, u.j) > 0
                       OR pg_catalog.strpos(pg_catalog.concat_ws(E'\n', r.title, r.summary, r.simulation_requirement, r.error), u.t) > 0);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    v_rows := v_rows + v_n;

    UPDATE memory.report_log AS l
       SET entry = memory._scrub_json(l.entry, v_texts), updated_at = pg_catalog.now()
     WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
       AND EXISTS (SELECT 1 FROM pg_catalog.unnest(v_json) AS u (j) WHERE pg_catalog.strpos(l.entry::text, u.j) > 0);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    v_rows := v_rows + v_n;

    UPDATE memory.predictions AS p
       SET claim = memory._scrub_text(p.claim, v_texts), metadata = memory._scrub_json(p.metadata, v_texts),
           updated_at = pg_catalog.now()
     WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
       AND EXISTS (SELECT 1 FROM ROWS FROM (pg_catalog.unnest(v_texts), pg_catalog.unnest(v_json)) AS u (t, j)
                    WHERE pg_catalog.strpos(p.claim, u.t) > 0 OR pg_catalog.strpos(p.metadata::text, u.j) > 0);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    v_rows := v_rows + v_n;

    RETURN pg_catalog.jsonb_build_object('report_rows', v_rows, 'chunks_unembedded', v_chunks,
                                         'texts_too_short', v_short);
END
$fn$;

COMMENT ON FUNCTION memory._forget_reports(uuid, uuid, text[]) IS 'Internal: replace forgotten texts in a simulation''s reports, sections, chunks (their vectors dropped), log and predictions by the marker';
GRANT EXECUTE ON FUNCTION memory._forget_reports(uuid, uuid, text[]) TO memory_writer;
