-- Run last on every deploy: every object of schema memory belongs to memory_owner, a role
-- no application logs in as. Tables keep FORCE ROW LEVEL SECURITY, so even the owner is
-- subject to the policies. Idempotent.
--
-- The block runs with the deploy's session, whose search_path may name schemas that other
-- roles can write: pinned here for the rest of the deploy's transaction (this file runs last),
-- so that its operators and casts can only be pg_catalog's.
--
-- Managed PostgreSQL: the deploying role need not be a superuser. A role with CREATEROLE
-- that created memory_owner holds it with ADMIN OPTION only (PostgreSQL 16+,
-- createrole_self_grant), and giving an object to memory_owner needs SET on it: the deploy
-- grants memory_owner to itself WITH INHERIT TRUE, SET TRUE for its own transaction
-- (swarm_memory.migrate does the same before the versioned files of an existing database,
-- whose objects only the owner's privileges may alter) and revokes that grant at the end of
-- this block, so no login role stays a member with the owner's privileges. The schema goes
-- to memory_owner when memory_owner may hold it (CREATE on the database; a superuser's
-- deploy); otherwise it stays with the deploying role and memory_owner gets CREATE on it,
-- which the transfer of its tables needs.
SET LOCAL search_path = pg_catalog, pg_temp;
DO $own$
DECLARE
    v_obj     record;
    v_super   boolean := (SELECT r.rolsuper FROM pg_catalog.pg_roles AS r WHERE r.rolname = CURRENT_USER);
BEGIN
    IF NOT v_super AND NOT pg_catalog.pg_has_role(CURRENT_USER, 'memory_owner', 'SET') THEN
        EXECUTE pg_catalog.format('GRANT memory_owner TO %I WITH INHERIT TRUE, SET TRUE', CURRENT_USER);
    END IF;
    IF (SELECT s.nspowner FROM pg_catalog.pg_namespace AS s WHERE s.nspname = 'memory')
       <> 'memory_owner'::regrole THEN
        IF v_super OR pg_catalog.has_database_privilege('memory_owner', pg_catalog.current_database(), 'CREATE') THEN
            ALTER SCHEMA memory OWNER TO memory_owner;
        ELSE
            GRANT USAGE, CREATE ON SCHEMA memory TO memory_owner;
        END IF;
    END IF;
    FOR v_obj IN
        SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                              WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'c' THEN 'TYPE'
                              ELSE 'TABLE' END AS kind,
               c.oid::regclass::text AS ident
          FROM pg_catalog.pg_class AS c
         WHERE c.relnamespace = 'memory'::regnamespace
           AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'c')
           AND c.relowner <> 'memory_owner'::regrole
           -- a sequence of an identity or serial column goes with its table
           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend AS d
                            WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = c.oid
                              AND d.refclassid = 'pg_catalog.pg_class'::regclass
                              AND c.relkind = 'S' AND d.deptype IN ('a', 'i'))
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
    -- No routine of the schema is PUBLIC's: one statement on every deploy instead of a
    -- REVOKE in each function's file, so that no new file can forget it (a new function is
    -- created with EXECUTE for PUBLIC; the deploy's transaction ends here, so no other
    -- session ever sees it so). Each file grants its one role; 001_schema checks the result.
    REVOKE ALL ON ALL ROUTINES IN SCHEMA memory FROM PUBLIC;
    IF NOT v_super AND EXISTS (
        SELECT 1 FROM pg_catalog.pg_auth_members AS m
         WHERE m.roleid = 'memory_owner'::regrole
           AND m.member = (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = CURRENT_USER)
           AND m.grantor = m.member) THEN
        EXECUTE pg_catalog.format('REVOKE memory_owner FROM %I', CURRENT_USER);
    END IF;
END
$own$;
