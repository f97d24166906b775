-- V0038: per-tenant quotas, held as data an administrator sets (memory.set_quota).
-- memory.tenant_quotas holds at most one cap a tenant and kind: 'simulations' (the tenant's
-- simulations) or a record kind of memory._record_kinds() (its rows of that kind over all of
-- its simulations). No row is no cap: an installation upgraded to this version limits
-- nothing until an administrator sets one. A write that adds rows and would leave the
-- tenant above a cap is refused whole with 53400 (configuration_limit_exceeded,
-- memory._check_quota over memory._enforce_quota). Like memory.retention_rules, the table
-- is written only by memory_owner's SECURITY DEFINER functions: tenant roles read their own
-- tenant's caps and hold no write privilege, so none can raise its own cap or lock the
-- table against another tenant; memory._enforce_quota locks the one row of the caller's
-- tenant and kind it checks.
CREATE TABLE memory.tenant_quotas (
    tenant_id  uuid        NOT NULL,
    kind       text        NOT NULL,
    max_rows   bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_by name        NOT NULL DEFAULT SESSION_USER,
    CONSTRAINT tenant_quotas_pkey PRIMARY KEY (tenant_id, kind),
    CONSTRAINT tenant_quotas_tenant_fkey FOREIGN KEY (tenant_id)
        REFERENCES memory.tenants (tenant_id) ON DELETE CASCADE,
    CONSTRAINT tenant_quotas_max_rows_check CHECK (max_rows >= 0),
    CONSTRAINT tenant_quotas_kind_check CHECK (kind ~ '^[a-z_]{1,40}$')
);
COMMENT ON TABLE memory.tenant_quotas IS
    'Per-tenant caps on simulations and on rows of each record kind (no row: no cap); set by memory.set_quota, enforced by memory._check_quota';
ALTER TABLE memory.tenant_quotas ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.tenant_quotas FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.tenant_quotas FROM PUBLIC;
GRANT SELECT ON memory.tenant_quotas TO memory_reader;
