-- V0024 (issue 15): a grant on a Citus cluster. memory.tenant_grants is a reference table
-- there (a copy on every node, read by every call's grant check where the call runs), but a
-- role's OID differs from node to node (Citus creates a role on each worker by name), so
-- role_oid, the OID on the node where memory.grant_tenant ran, names another role or none on
-- a worker. node_role_oids maps each node's Citus group id (pg_dist_local_group.groupid, 0
-- the coordinator) to the same role's OID on that node, resolved when the grant is made
-- (memory.grant_tenant asks every node) and by `swarm-memory distribute` for grants made
-- before the database was distributed or nodes added after. A node missing from the map
-- gives the grant no role there: it fails closed. NULL on a single node, where role_oid is
-- the role; `swarm-memory distribute` fills every grant's map and then holds it NOT NULL
-- (a CHECK of its own), so that no grant falls back to role_oid on a cluster. A map names a
-- role by OID on each node, resolved once: a role dropped and created again under the same
-- name has new OIDs everywhere and gains nothing, as on one node.
ALTER TABLE memory.tenant_grants ADD COLUMN node_role_oids jsonb;

COMMENT ON COLUMN memory.tenant_grants.node_role_oids IS
    'On a Citus cluster: the granted role''s OID on each node, by Citus group id ({"0": coordinator OID, "1": ...}); NULL on a single node';
