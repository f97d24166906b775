-- A grant revoked on a Citus cluster (issue 15). memory.tenant_grants is a reference table
-- there: a delete is sent to every node over connections as the deleting role, and the
-- SECURITY DEFINER memory._delete_grant deletes as memory_owner, which may not log in. An
-- administrator ends a grant on a cluster instead by emptying its map of the role's OID on
-- each node (node_role_oids = '{}', V0024): the grant then authorises nobody on any node, as
-- a grant whose role was dropped; a later grant_tenant of the role fills the map again.
-- A column privilege takes no table lock beyond ROW EXCLUSIVE (V0006), and the policy
-- admins_manage_all_grants admits administrators' updates already. On one node grants have
-- no map and are still deleted (memory.revoke_tenant decides by the grant's row).
GRANT UPDATE (node_role_oids) ON memory.tenant_grants TO memory_admin;
