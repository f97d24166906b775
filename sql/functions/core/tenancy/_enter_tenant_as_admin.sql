-- The administrators' SECURITY DEFINER functions (memory.delete_tenant, memory._delete_grant,
-- memory._ann_counts) call this first: it refuses a caller without memory_admin's
-- privileges (42501, memory._require_admin) and a NULL tenant (22004), then makes p_tenant_id
-- the tenant of the transaction, so that memory_owner's policies admit that tenant's rows and
-- no other's.
-- Administrators hold no tenant grant, so memory._enter_tenant would refuse them.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
CREATE OR REPLACE FUNCTION memory._enter_tenant_as_admin(p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant to act on');
    PERFORM memory._set_tenant(p_tenant_id);
END
$fn$;

COMMENT ON FUNCTION memory._enter_tenant_as_admin(uuid) IS 'Internal: check the caller (memory._acting_role()) is an administrator (42501) and make a tenant the tenant of the transaction';
GRANT EXECUTE ON FUNCTION memory._enter_tenant_as_admin(uuid) TO memory_admin;
