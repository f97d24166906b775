-- V0007: a tenant grant belongs to a role's identity (its OID), not to its name.
--
-- Keyed by name, a grant outlived its role: after DROP ROLE the row stayed, and the next role
-- created under that name acted for the tenant; a renamed role lost its access. Keyed by OID,
-- a grant authorises only the role it was given to (the functions join pg_roles by OID, so a
-- grant whose role was dropped authorises nobody), survives a rename, and never passes to a
-- new role of the same name. role_name stays as a display column: the role's name when it was
-- granted, read from the catalog by memory.grant_tenant(); nothing authorises by it.
--
-- The conversion rewrites rows under FORCE ROW LEVEL SECURITY: the migrating role holds the
-- owner's privileges (it alters the table), so lifting FORCE for this transaction lets it see
-- every row; FORCE is restored below, before the transaction commits.
ALTER TABLE memory.tenant_grants NO FORCE ROW LEVEL SECURITY;

ALTER TABLE memory.tenant_grants ADD COLUMN role_oid oid;
UPDATE memory.tenant_grants AS g
   SET role_oid = r.oid, role_name = r.rolname
  FROM pg_catalog.pg_roles AS r
 WHERE r.rolname = g.role_name;
-- Grants whose role no longer exists are dropped: under the old key they would have passed to
-- the next role created with that name, and no role holds them now.
DELETE FROM memory.tenant_grants AS g WHERE g.role_oid IS NULL;

ALTER TABLE memory.tenant_grants
    ALTER COLUMN role_oid SET NOT NULL,
    DROP CONSTRAINT tenant_grants_pkey,
    ADD CONSTRAINT tenant_grants_pkey PRIMARY KEY (tenant_id, role_oid);
DROP INDEX memory.tenant_grants_role_idx;
-- Grants of one role (the policy that shows a role its own grants, revoking, clean-up of
-- dropped roles).
CREATE INDEX tenant_grants_role_oid_idx ON memory.tenant_grants (role_oid);

ALTER TABLE memory.tenant_grants FORCE ROW LEVEL SECURITY;

COMMENT ON TABLE memory.tenant_grants IS
    'Which database roles may act for which tenant, by role OID (a grant counts for the roles that have the granted role''s privileges)';
COMMENT ON COLUMN memory.tenant_grants.role_oid IS
    'The granted role (pg_roles.oid); a grant whose role was dropped authorises nobody';
COMMENT ON COLUMN memory.tenant_grants.role_name IS
    'Display only: the role''s name when it was granted; never used to authorise';
