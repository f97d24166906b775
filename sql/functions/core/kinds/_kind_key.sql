-- The condition that pairs rows of two tables of a record kind by their key within a
-- simulation: the columns of the committed table's primary key after tenant and
-- simulation (a generated surrogate such as node_key, or platform and agent_id), which the
-- staged table and the session's staging table have too. p_left and p_right are the
-- aliases the caller's statement gives the two tables.
CREATE OR REPLACE FUNCTION memory._kind_key(p_kind text, p_left text, p_right text) RETURNS text
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.string_agg(pg_catalog.format('%I.%I = %I.%I', p_left, a.attname, p_right, a.attname),
                                 ' AND ' ORDER BY c.ord)
      FROM memory._kind(p_kind) AS k
      JOIN pg_catalog.pg_index AS i ON i.indrelid = k.live AND i.indisprimary
     CROSS JOIN LATERAL pg_catalog.unnest(i.indkey) WITH ORDINALITY AS c(attnum, ord)
      JOIN pg_catalog.pg_attribute AS a ON a.attrelid = k.live AND a.attnum = c.attnum
     WHERE a.attname NOT IN ('tenant_id', 'simulation_id')
$fn$;

COMMENT ON FUNCTION memory._kind_key(text, text, text) IS 'Internal: the join condition on a record kind''s key between two aliases';
GRANT EXECUTE ON FUNCTION memory._kind_key(text, text, text) TO memory_writer;
