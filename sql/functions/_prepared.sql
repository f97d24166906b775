-- The name of a session prepared statement of p_sql (parameters of the types p_types, as
-- PREPARE writes them), prepared first when the session does not hold it: the index searches
-- (memory._search_episodes_ann, _search_facts_ann, _search_nodes_ann) carry their
-- simulation's number as a constant, which a partial index needs and which keeps them from
-- plpgsql's plan cache, so each call planned them again: about 0.55 ms a search, 1.7 ms of
-- a recall at 200,000 episodes. Prepared once a session, their plan is generic (the
-- searches run with plan_cache_mode = force_generic_plan) and made once.
-- The name is memory_ and the md5 of the types and the statement, so a changed statement (a
-- new version of a function) is prepared under a new name. A statement of that name the
-- session holds with another text (prepared by hand, in a session a pool shares) is
-- deallocated and prepared again: the caller runs the statement it wrote, never another. At
-- most c_kept of these statements stay prepared (each holds its plan, about 70 kB): the
-- oldest are deallocated first. Prepared statements outlive a rolled back transaction and
-- go with DEALLOCATE ALL or DISCARD ALL, after which the next call prepares again.
-- A caller passes its arguments as literals (EXECUTE name(%L, ...)): a statement run by
-- EXECUTE cannot take plpgsql's parameters. VOLATILE: PREPARE and EXECUTE are refused in a
-- STABLE function.
CREATE OR REPLACE FUNCTION memory._prepared(p_types text, p_sql text) RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_name    text := 'memory_' || pg_catalog.md5(p_types || ' ' || p_sql);
    v_prepare text := pg_catalog.format('PREPARE %I(%s) AS %s', v_name, p_types, p_sql);
    v_held    text;
    v_old     text;
    c_kept    constant integer := 64;
BEGIN
    SELECT s.statement INTO v_held FROM pg_catalog.pg_prepared_statements AS s WHERE s.name = v_name;
    IF FOUND AND v_held = v_prepare THEN
        RETURN v_name;
    END IF;
    IF FOUND THEN
        EXECUTE pg_catalog.format('DEALLOCATE %I', v_name);
    END IF;
    FOR v_old IN
        SELECT s.name FROM pg_catalog.pg_prepared_statements AS s
         WHERE s.name OPERATOR(pg_catalog.~) '^memory_[0-9a-f]{32}$'
         ORDER BY s.prepare_time DESC, s.name
        OFFSET c_kept - 1
    LOOP
        EXECUTE pg_catalog.format('DEALLOCATE %I', v_old);
    END LOOP;
    EXECUTE v_prepare;
    RETURN v_name;
END
$fn$;

COMMENT ON FUNCTION memory._prepared(text, text) IS 'Internal: the name of the session''s prepared statement of a query (prepared first when missing or held with another text; at most 64 kept)';
GRANT EXECUTE ON FUNCTION memory._prepared(text, text) TO memory_reader;
