-- A grant's map of node OIDs (V0024) is NULL (one node), empty (an ended grant, V0028) or
-- an object of node group ids to OIDs written as digits, which is all memory._node_role_oids
-- writes. Every tenant role's read of memory.tenant_grants casts its node's entry to oid
-- (memory._holds_grant, the policy roles_see_their_own_grants): one malformed value would
-- fail that cast for every tenant. Administrators, who may write grants (INSERT, and since
-- V0028 UPDATE of this column), can no longer store one.
ALTER TABLE memory.tenant_grants ADD CONSTRAINT tenant_grants_node_role_oids_shape CHECK (
    node_role_oids IS NULL
    OR (pg_catalog.jsonb_typeof(node_role_oids) = 'object'
        AND NOT pg_catalog.jsonb_path_exists(
                node_role_oids, '$.* ? (@.type() != "string" || !(@ like_regex "^[0-9]{1,10}$"))')));
