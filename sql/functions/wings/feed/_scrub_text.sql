-- A text with every exact occurrence of the given texts (longest first, as
-- memory._forget_reports orders them) replaced by the marker '[forgotten]', the marker's one
-- home. p_pieces, for a report chunk: a chunk is a piece of its section, so a quote the
-- chunker cut holds only part of a text; a chunk lying wholly inside a text becomes the
-- marker, and a text's head ending the chunk or its tail starting it is replaced too, when
-- that part passes memory._scrubbable (a short overlap is a coincidence, not a quote).
CREATE OR REPLACE FUNCTION memory._scrub_text(p_text text, p_texts text[], p_pieces boolean DEFAULT false)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    c_marker CONSTANT text := '[forgotten]';
    v_text   text := p_text;
    v_needle text;
    v_len    integer;
    v_k      integer;
BEGIN
    IF v_text IS NULL OR p_texts IS NULL THEN
        RETURN v_text;
    END IF;
    FOREACH v_needle IN ARRAY p_texts LOOP
        v_text := pg_catalog.replace(v_text, v_needle, c_marker);
    END LOOP;
    IF NOT p_pieces THEN
        RETURN v_text;
    END IF;
    FOREACH v_needle IN ARRAY p_texts LOOP
        IF memory._scrubbable(v_text) AND pg_catalog.strpos(v_needle, pg_catalog.btrim(v_text)) > 0 THEN
            RETURN c_marker;
        END IF;
        v_len := LEAST(pg_catalog.char_length(v_text), pg_catalog.char_length(v_needle)) - 1;
        FOR v_k IN REVERSE v_len .. 1 LOOP
            IF pg_catalog.right(v_text, v_k) = pg_catalog.left(v_needle, v_k) THEN
                IF memory._scrubbable(pg_catalog.right(v_text, v_k)) THEN
                    v_text := pg_catalog.left(v_text, pg_catalog.char_length(v_text) - v_k) || c_marker;
                END IF;
                EXIT;
            END IF;
        END LOOP;
        v_len := LEAST(pg_catalog.char_length(v_text), pg_catalog.char_length(v_needle)) - 1;
        FOR v_k IN REVERSE v_len .. 1 LOOP
            IF pg_catalog.left(v_text, v_k) = pg_catalog.right(v_needle, v_k) THEN
                IF memory._scrubbable(pg_catalog.left(v_text, v_k)) THEN
                    v_text := c_marker || pg_catalog.substr(v_text, v_k + 1);
                END IF;
                EXIT;
            END IF;
        END LOOP;
    END LOOP;
    RETURN v_text;
END
$fn$;

COMMENT ON FUNCTION memory._scrub_text(text, text[], boolean) IS 'Internal: a text with the given texts replaced by the forgotten marker (a chunk''s cut pieces of them too)';
GRANT EXECUTE ON FUNCTION memory._scrub_text(text, text[], boolean) TO memory_writer;
