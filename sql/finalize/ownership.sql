-- Run last on every deploy: every object of schema memory belongs to memory_owner, a role
-- no application logs in as. Tables keep FORCE ROW LEVEL SECURITY, so even the owner is
-- subject to the policies. Idempotent.
DO $own$
DECLARE
    v_obj record;
BEGIN
    FOR v_obj IN
        SELECT c.oid::regclass AS ident, c.relkind
          FROM pg_catalog.pg_class AS c
          JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
         WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'c')
           AND c.relowner <> 'memory_owner'::regrole
    LOOP
        EXECUTE pg_catalog.format('ALTER %s %s OWNER TO memory_owner',
            CASE v_obj.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                               WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'c' THEN 'TYPE'
                               ELSE 'TABLE' END,
            v_obj.ident);
    END LOOP;
    FOR v_obj IN
        SELECT p.oid::regprocedure AS ident
          FROM pg_catalog.pg_proc AS p
          JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
         WHERE n.nspname = 'memory' AND p.proowner <> 'memory_owner'::regrole
    LOOP
        EXECUTE pg_catalog.format('ALTER FUNCTION %s OWNER TO memory_owner', v_obj.ident);
    END LOOP;
    FOR v_obj IN
        SELECT pg_catalog.format('%I.%I', n.nspname, s.stxname) AS ident
          FROM pg_catalog.pg_statistic_ext AS s
          JOIN pg_catalog.pg_namespace AS n ON n.oid = s.stxnamespace
         WHERE n.nspname = 'memory' AND s.stxowner <> 'memory_owner'::regrole
    LOOP
        EXECUTE pg_catalog.format('ALTER STATISTICS %s OWNER TO memory_owner', v_obj.ident);
    END LOOP;
    IF (SELECT s.nspowner FROM pg_catalog.pg_namespace AS s WHERE s.nspname = 'memory')
       <> 'memory_owner'::regrole THEN
        ALTER SCHEMA memory OWNER TO memory_owner;
    END IF;
END
$own$;
