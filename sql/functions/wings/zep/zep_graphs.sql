-- Zep's graph.list_all: the caller's tenant's committed simulations as Zep graphs, by name,
-- a page at a time (p_page_number from 1; p_page_size clamped to 1..1000, NULL means 1000),
-- each row with the count of all. A graph's graph_id is the MiroFish graph_id its import
-- recorded, else its name, else its UUID: each is one memory._zep_simulation resolves.
CREATE OR REPLACE FUNCTION memory.zep_graphs(p_tenant_id uuid, p_page_number integer DEFAULT 1,
                                             p_page_size integer DEFAULT 1000)
RETURNS TABLE (graph jsonb, total_count bigint)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_size integer := memory._page_rows(p_page_size, 1000);
    v_page integer := COALESCE(p_page_number, 1);
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF v_page < 1 THEN
        RAISE EXCEPTION 'page number % is below 1', v_page
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pages are numbered from 1';
    END IF;
    RETURN QUERY
    SELECT memory._zep_graph_json(s.simulation_id, s.name, s.metadata, s.created_at),
           pg_catalog.count(*) OVER ()
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.published
     ORDER BY s.name NULLS LAST, s.created_at, s.simulation_id
    OFFSET (v_page::bigint - 1) * v_size LIMIT v_size;
END
$fn$;

COMMENT ON FUNCTION memory.zep_graphs(uuid, integer, integer) IS 'Zep graph.list_all: the tenant''s committed simulations as Zep graphs, a page at a time, with the count of all';
GRANT EXECUTE ON FUNCTION memory.zep_graphs(uuid, integer, integer) TO memory_reader;
