-- Refuse (42501) a caller without memory_admin's privileges. The SECURITY DEFINER functions
-- of administrators call it first: the caller is memory._acting_role() (inside them
-- current_user is memory_owner; the role SET ROLE chose, else the session user, acts).
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
CREATE OR REPLACE FUNCTION memory._require_admin() RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF NOT pg_catalog.pg_has_role(memory._acting_role(), 'memory_admin', 'USAGE') THEN
        RAISE EXCEPTION 'role % does not have the privileges of memory_admin', memory._acting_role()
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'log in as a role granted memory_admin (with INHERIT)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._require_admin() IS 'Internal: refuse (42501) a caller (memory._acting_role()) without the privileges of memory_admin';
GRANT EXECUTE ON FUNCTION memory._require_admin() TO memory_admin;
