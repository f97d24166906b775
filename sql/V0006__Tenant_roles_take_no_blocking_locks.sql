-- V0006: tenant and admin roles hold no privilege that takes a lock blocking another tenant.
--
-- LOCK TABLE in a mode stronger than ROW EXCLUSIVE, and TRUNCATE, need table-level UPDATE,
-- DELETE, TRUNCATE or MAINTAIN on the table (column privileges do not count), and REFERENCES
-- lets a role hang a foreign key on a table (SHARE ROW EXCLUSIVE). Such a lock on a shared
-- table stops every tenant's calls, so the group roles keep only:
--   memory_reader  SELECT (ACCESS SHARE: blocks only DDL)
--   memory_writer  INSERT (ROW EXCLUSIVE: blocks only DDL and SHARE locks) and UPDATE on
--                  exactly the columns the API updates (column privileges take no table
--                  lock mode beyond ROW EXCLUSIVE; they allow INSERT ... ON CONFLICT DO
--                  UPDATE, UPDATE and SELECT ... FOR UPDATE on the caller's own rows)
--   memory_admin   SELECT, INSERT on memory.tenants and memory.tenant_grants
-- Deletes run in SECURITY DEFINER functions owned by memory_owner (RLS stays forced on it):
-- memory._prune, memory._discard_staged, memory._skip_dangling, memory.delete_simulation,
-- memory.delete_tenant and memory._delete_grant.
--
-- REVOKE ALL on a table also revokes its column privileges, so this file states the whole
-- set. A column a later migration adds to a record kind's committed table needs its UPDATE
-- grant there too (memory._merge sets every committed column).
REVOKE ALL ON ALL TABLES IN SCHEMA memory FROM memory_reader, memory_writer, memory_admin;

GRANT SELECT ON memory.tenants, memory.tenant_grants, memory.simulations, memory.nodes,
    memory.edges, memory.episodes, memory.profiles, memory.import_attempts,
    memory.staged_nodes, memory.staged_edges, memory.staged_episodes, memory.staged_profiles
    TO memory_reader;

GRANT INSERT ON memory.simulations, memory.nodes, memory.edges, memory.episodes,
    memory.profiles, memory.import_attempts, memory.staged_nodes, memory.staged_edges,
    memory.staged_episodes, memory.staged_profiles
    TO memory_writer;

-- memory.upsert_simulation and memory.commit_import; FOR UPDATE in commit_import.
GRANT UPDATE (name, metadata, published, updated_at) ON memory.simulations TO memory_writer;
-- memory._merge: every committed column of the kind, and updated_at.
GRANT UPDATE (node_id, name, type, labels, summary, attributes, embedding, embedding_model,
              content_hash, updated_at)
    ON memory.nodes TO memory_writer;
GRANT UPDATE (edge_id, type, source_id, target_id, fact, attributes, valid_at, invalid_at,
              embedding, embedding_model, content_hash, updated_at)
    ON memory.edges TO memory_writer;
GRANT UPDATE (episode_id, agent_id, agent_name, platform, round, action_type, content, metadata,
              occurred_at, embedding, embedding_model, content_hash, updated_at)
    ON memory.episodes TO memory_writer;
GRANT UPDATE (platform, agent_id, name, username, bio, persona, attributes, updated_at)
    ON memory.profiles TO memory_writer;
-- memory.commit_import, memory.abort_import, memory._fail_dead_attempts.
GRANT UPDATE (state, result, error, finished_at) ON memory.import_attempts TO memory_writer;

-- create_tenant and grant_tenant insert; a tenant goes with memory.delete_tenant, a grant
-- with memory._delete_grant (both SECURITY DEFINER).
GRANT SELECT, INSERT ON memory.tenants, memory.tenant_grants TO memory_admin;
