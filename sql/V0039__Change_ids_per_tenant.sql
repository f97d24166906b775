-- V0039: a tenant's change ids are its own. memory.changes.change_id was drawn from one
-- identity sequence for every tenant, so the gaps in a tenant's feed counted the other
-- tenants' writes; and on a Citus cluster each worker draws from its own range of that
-- sequence, so after a tenant's shard moved to another worker its next ids could fall below
-- a consumer's cursor, which then skipped every later change. From here on change_id is
-- taken from the tenant's row of memory.change_heads (last_change_id), which
-- memory._record_change advances under the row lock that already orders the tenant's
-- changes by commit: 1, 2, 3 ... for a new tenant, in commit order, without any other
-- tenant's number in between.
-- A tenant with changes goes on above the largest change_id it has (a consumer's saved
-- cursor, a change_id it read, is never above it), so no change committed after this
-- migration has an id at or below a cursor handed out before it.

-- Both tables are held in ACCESS EXCLUSIVE mode by the ALTERs below until this commits: no
-- change is recorded between reading the largest id and dropping the sequence.
LOCK TABLE memory.change_heads, memory.changes IN ACCESS EXCLUSIVE MODE;

ALTER TABLE memory.change_heads ADD COLUMN last_change_id bigint NOT NULL DEFAULT 0;
ALTER TABLE memory.change_heads
    ADD CONSTRAINT change_heads_last_change_id_check CHECK (last_change_id >= 0);
COMMENT ON COLUMN memory.change_heads.last_change_id IS
    'the tenant''s last change_id: the next change takes the one after it (memory._record_change)';

-- Each head starts at its tenant's largest change_id (row-level security lifted until the
-- end of this file, as V0009 did, so that a deploy by a role with the owner's privileges
-- reaches every tenant's rows). A tenant with changes and no head (none is written so) gets
-- one.
ALTER TABLE memory.change_heads NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.changes NO FORCE ROW LEVEL SECURITY;
INSERT INTO memory.change_heads AS h (tenant_id, changes, last_change_id, last_change_at)
SELECT c.tenant_id, pg_catalog.max(c.seq), pg_catalog.max(c.change_id), pg_catalog.max(c.recorded_at)
  FROM memory.changes AS c
 GROUP BY c.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE SET last_change_id = excluded.last_change_id;

-- The identity goes. Citus refuses ALTER COLUMN ... DROP IDENTITY on a distributed table
-- (a database distributed before this version): there the column is made anew, its values
-- kept, and its key and index with it.
DO $do$
DECLARE
    v_distributed boolean := false;
BEGIN
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN  -- read only where Citus is
        v_distributed := EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d
                                  WHERE d.logicalrelid = 'memory.changes'::regclass);
    END IF;
    IF v_distributed THEN
        ALTER TABLE memory.changes ADD COLUMN change_no bigint;
        UPDATE memory.changes SET change_no = change_id;
        ALTER TABLE memory.changes DROP COLUMN change_id;
        ALTER TABLE memory.changes RENAME COLUMN change_no TO change_id;
        ALTER TABLE memory.changes ALTER COLUMN change_id SET NOT NULL;
        ALTER TABLE memory.changes ADD CONSTRAINT changes_pkey PRIMARY KEY (tenant_id, change_id);
        CREATE INDEX changes_simulation_idx ON memory.changes (tenant_id, simulation_id, change_id);
    ELSE
        ALTER TABLE memory.changes ALTER COLUMN change_id DROP IDENTITY IF EXISTS;
    END IF;
END
$do$;
ALTER TABLE memory.changes FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.change_heads FORCE ROW LEVEL SECURITY;
COMMENT ON COLUMN memory.changes.change_id IS
    'cursor of memory.changes_since(): the tenant''s own number (memory.change_heads.last_change_id), in commit order within the tenant';
