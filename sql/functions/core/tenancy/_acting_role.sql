-- The role a call acts as: the one whose grants decide what it may do. Outside memory_owner's
-- definer functions it is the current role. Inside them CURRENT_USER is
-- memory_owner, and the role the session acts as is the one SET ROLE chose (the setting
-- `role`, which a definer's own switch of identity does not change), else the session user:
-- a session narrowed with SET ROLE is narrowed for every function, internal ones too.
-- Reads no session state but `role` and the session user, which only SET ROLE and the login
-- decide (SET ROLE admits only roles the session user may become).
CREATE OR REPLACE FUNCTION memory._acting_role() RETURNS name
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE WHEN CURRENT_USER OPERATOR(pg_catalog.<>) 'memory_owner' THEN CURRENT_USER
                WHEN pg_catalog.current_setting('role') OPERATOR(pg_catalog.<>) 'none'
                    THEN pg_catalog.current_setting('role')::name
                ELSE SESSION_USER END
$fn$;

COMMENT ON FUNCTION memory._acting_role() IS 'Internal: the role a call acts as (the current role; inside memory_owner''s definers the SET ROLE role, else the session user)';
GRANT EXECUTE ON FUNCTION memory._acting_role() TO memory_reader, memory_writer, memory_admin;
