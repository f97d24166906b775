-- Run last on every deploy: every object of schema memory belongs to memory_owner, a role
-- no application logs in as. Tables keep FORCE ROW LEVEL SECURITY, so even the owner is
-- subject to the policies. Idempotent.
--
-- The block runs with the deploy's session, whose search_path may name schemas that other
-- roles can write: pinned here for the rest of the deploy's transaction (this file runs last),
-- so that its operators and casts can only be pg_catalog's.
SET LOCAL search_path = pg_catalog, pg_temp;
DO $own$
DECLARE
    v_obj record;
BEGIN
    FOR v_obj IN
        SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                              WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'c' THEN 'TYPE'
                              ELSE 'TABLE' END AS kind,
               c.oid::regclass::text AS ident
          FROM pg_catalog.pg_class AS c
         WHERE c.relnamespace = 'memory'::regnamespace
           AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'c')
           AND c.relowner <> 'memory_owner'::regrole
        UNION ALL
        SELECT 'FUNCTION', p.oid::regprocedure::text
          FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = 'memory'::regnamespace AND p.proowner <> 'memory_owner'::regrole
        UNION ALL
        SELECT 'STATISTICS', pg_catalog.format('memory.%I', s.stxname)
          FROM pg_catalog.pg_statistic_ext AS s
         WHERE s.stxnamespace = 'memory'::regnamespace AND s.stxowner <> 'memory_owner'::regrole
    LOOP
        EXECUTE pg_catalog.format('ALTER %s %s OWNER TO memory_owner', v_obj.kind, v_obj.ident);
    END LOOP;
    IF (SELECT s.nspowner FROM pg_catalog.pg_namespace AS s WHERE s.nspname = 'memory')
       <> 'memory_owner'::regrole THEN
        ALTER SCHEMA memory OWNER TO memory_owner;
    END IF;
END
$own$;
