-- 013_privileges: no tenant role holds a privilege that takes a lock blocking other tenants
-- (issue 9, points 1 and 8). Table privileges of each group role exactly as designed (no
-- table-level UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER or MAINTAIN; writers update only
-- the columns the API updates); deletes only through the SECURITY DEFINER functions, owned by
-- memory_owner, granted as designed, which identify the caller as memory._acting_role();
-- delete_tenant's counts and errors. The locks themselves, held across
-- sessions, are tested in tests/test_hostile_locks.py.
--
-- Tenant roles are taken here with SET LOCAL SESSION AUTHORIZATION (the session user of this
-- file is the superuser); SET ROLE narrowing is tested in tests/test_owner_rights.py.
BEGIN;
SELECT plan(290);  -- V0046: identity_links (5); V0026: 4 tables and 2 definers (28); 111 + 11 report and prediction tables x 5 + row_history and _record_history (V0015) 9 + edge_evidence and _link_evidence (V0016) 9 + embedding_models and tenant_models (V0022) 6 + word_postings, _index_words (V0020) and V0021's 4 tables and 6 definers
\ir _fixtures.psql

CREATE TEMP TABLE fx_tables (table_name name PRIMARY KEY, data boolean NOT NULL) ON COMMIT DROP;
INSERT INTO fx_tables VALUES
    ('tenants', false), ('tenant_grants', false), ('simulations', true), ('nodes', true),
    ('edges', true), ('episodes', true), ('profiles', true), ('import_attempts', true),
    ('staged_nodes', true), ('staged_edges', true), ('staged_episodes', true), ('staged_profiles', true),
    ('vector_cache', true), ('row_history', true), ('route_rules', false),
    -- V0022: the installation's embedding models
    ('embedding_models', false), ('tenant_models', true),
    -- V0016: the evidence behind a fact
    ('edge_evidence', true),
    -- V0020: the words index
    ('word_postings', true),
    -- V0021: the change feed, retention and compaction
    ('changes', true), ('change_heads', true), ('retention_rules', true), ('episode_clumps', true),
    -- V0026: the clump builds of indexed simulations
    ('search_builds', true), ('search_points', true), ('search_clumps', true), ('search_clump_chunks', true),
    -- V0014: reports and predictions
    ('reports', true), ('report_sections', true), ('report_chunks', true), ('report_log', true),
    ('predictions', true), ('prediction_outcomes', true), ('staged_reports', true),
    ('staged_report_sections', true), ('staged_report_chunks', true), ('staged_report_log', true),
    ('staged_predictions', true),
    -- V0046: one identity across runs
    ('identity_links', true);
GRANT SELECT ON fx_tables TO PUBLIC;

-- Rows of a tenant in a table, counted as the superuser (no RLS).
CREATE FUNCTION fx.tenant_rows(p_table text, p_tenant_id uuid) RETURNS bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_rows bigint;
BEGIN
    EXECUTE pg_catalog.format('SELECT count(*) FROM memory.%I WHERE tenant_id = $1', p_table) INTO v_rows USING p_tenant_id;
    RETURN v_rows;
END
$$;

CREATE TEMP TABLE fx_definers (fn name PRIMARY KEY, args name[], grantees name[]) ON COMMIT DROP;
INSERT INTO fx_definers VALUES
    ('_prune',            '{text,uuid,uuid,uuid,text[]}', '{memory_writer}'),
    ('_discard_staged',   '{uuid,uuid[]}',         '{memory_writer}'),
    ('_skip_dangling',    '{uuid,uuid}',           '{memory_writer}'),
    ('_delete_simulation', '{uuid,uuid}',          '{memory_writer}'),
    ('delete_tenant',     '{uuid}',                '{memory_admin}'),
    ('_delete_grant',     '{uuid,oid}',            '{memory_admin}'),
    -- the trigger keeping history (no role calls it)
    ('_record_history',   '{}',                    '{}'),
    ('set_route_rule',    '{text,text}',           '{memory_admin}'),
    -- the evidence links (V0016), run by every promote
    ('_link_evidence',    '{uuid,uuid}',           '{memory_writer}'),
    -- the trigger keeping the words index (V0020; no role calls it)
    ('_index_words',      '{}',                    '{}'),
    -- the change feed, retention, compaction and health (V0021): written only by memory_owner
    ('_record_change',    '{uuid,uuid,text,text,text[],jsonb,uuid,jsonb}', '{memory_writer,memory_admin}'),
    ('_compact_episodes', '{uuid,uuid,real,boolean}', '{}'),
    ('compact_episodes',  '{uuid,uuid,real,boolean}', '{memory_writer}'),
    ('set_retention',     '{uuid,integer,real,boolean}', '{memory_admin}'),
    ('_sweep_tenant',     '{uuid,"timestamp with time zone"}', '{memory_admin}'),
    ('_health_tenant',    '{uuid,integer}',        '{memory_reader,memory_writer,memory_admin}'),
    -- the clump builds (V0026): written only by memory_owner, for swarm-memory index
    ('_clump_build',      '{uuid,bigint,text,integer,integer}', '{memory_admin}'),
    ('_clump_builds',     '{uuid}',                '{memory_admin}');

-- Table privileges of the group roles (3 x 24 = 72), MAINTAIN (1)
SELECT table_privs_are('memory', t.table_name, r.role,
                       CASE WHEN r.role = 'memory_reader' THEN ARRAY['SELECT']
                            -- memory.row_history: written only by the definer trigger
                            WHEN t.table_name = 'row_history' AND r.role = 'memory_writer' THEN ARRAY['SELECT']
                            WHEN t.table_name = 'row_history' THEN ARRAY[]::name[]
                            -- memory.route_rules: read by all, changed by memory.set_route_rule
                            WHEN t.table_name = 'route_rules' THEN ARRAY['SELECT']
                            -- memory.embedding_models (V0022): read by all, changed by migrations
                            WHEN t.table_name = 'embedding_models' THEN ARRAY['SELECT']
                            -- memory.edge_evidence (V0016): written only by memory._link_evidence
                            WHEN t.table_name = 'edge_evidence' AND r.role = 'memory_writer' THEN ARRAY['SELECT']
                            WHEN t.table_name = 'edge_evidence' THEN ARRAY[]::name[]
                            -- memory.word_postings (V0020): written only by the trigger memory._index_words
                            WHEN t.table_name = 'word_postings' AND r.role = 'memory_writer' THEN ARRAY['SELECT']
                            WHEN t.table_name = 'word_postings' THEN ARRAY[]::name[]
                            -- V0021: the feed, retention rules and clumps, written only by memory_owner
                            WHEN t.table_name IN ('changes', 'change_heads', 'retention_rules', 'episode_clumps')
                                 AND r.role = 'memory_writer' THEN ARRAY['SELECT']
                            WHEN t.table_name IN ('changes', 'change_heads', 'retention_rules', 'episode_clumps') THEN ARRAY[]::name[]
                            -- V0026: the clump builds, written only by memory._clump_build
                            WHEN t.table_name LIKE 'search\_%' AND r.role = 'memory_writer' THEN ARRAY['SELECT']
                            WHEN t.table_name LIKE 'search\_%' THEN ARRAY[]::name[]
                            WHEN r.role = 'memory_writer' AND t.data THEN ARRAY['SELECT', 'INSERT']
                            WHEN r.role = 'memory_writer' THEN ARRAY['SELECT']
                            WHEN NOT t.data THEN ARRAY['SELECT', 'INSERT']
                            ELSE ARRAY[]::name[] END,
                       pg_catalog.format('%s holds exactly its designed table privileges on memory.%s', r.role, t.table_name))
  FROM fx_tables AS t
 CROSS JOIN (VALUES ('memory_reader'::name), ('memory_writer'), ('memory_admin')) AS r(role)
 ORDER BY r.role, t.table_name;
SELECT is_empty($$
    SELECT r.role || ' ' || t.table_name
      FROM fx_tables AS t CROSS JOIN (VALUES ('memory_reader'), ('memory_writer'), ('memory_admin')) AS r(role)
     WHERE pg_catalog.has_table_privilege(r.role, pg_catalog.format('memory.%I', t.table_name), 'MAINTAIN')
$$, 'no group role holds MAINTAIN on a memory table');

-- Column privileges (2): writers update exactly the columns the API updates, nobody else any
SELECT set_eq($$
    SELECT c.relname::text, a.attname::text
      FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_class AS c ON c.oid = a.attrelid
     WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
       AND pg_catalog.has_column_privilege('memory_writer', c.oid, a.attnum, 'UPDATE')
$$, $$
    SELECT t, c FROM (VALUES
        ('simulations', ARRAY['name', 'metadata', 'published', 'updated_at', 'embedding_model']),
        ('import_attempts', ARRAY['state', 'result', 'error', 'finished_at']),
        -- memory.record_outcome records and corrects outcomes.
        ('prediction_outcomes', ARRAY['outcome', 'note', 'observed_at', 'recorded_at', 'recorded_by']),
        -- memory.set_tenant_model names the model of the tenant's new simulations (V0022).
        ('tenant_models', ARRAY['embedding_model', 'updated_at']),
        -- V0044, V0045: the zep wing's ontologies, queue and batches
        ('zep_ontologies', ARRAY['entity_types', 'edge_types', 'updated_at']),
        ('zep_episodes', ARRAY['status', 'attempts', 'claimed_until', 'next_attempt_at', 'last_error',
                               'processed_at', 'extracted', 'refused']),
        ('zep_batches', ARRAY['status', 'item_count', 'updated_at', 'processed_at', 'deleted_at']),
        ('zep_batch_items', ARRAY['episode_uuid', 'episode', 'metadata']),
        -- V0047: memory.drop_snapshot marks a snapshot dropped
        ('snapshots', ARRAY['dropped_at']),
        -- V0046: memory.link_runs and memory.decide_link
        ('identity_links', ARRAY['score', 'evidence', 'decision', 'current', 'decided_by', 'decided_at', 'updated_at'])) AS v(t, cols)
     CROSS JOIN LATERAL unnest(v.cols) AS c
    UNION ALL
    -- memory._merge sets every committed column of the kind, and updated_at.
    SELECT k.kind, c.col::text FROM memory._record_kinds() AS k, memory._kind_columns(k.kind) AS c WHERE c.committed
    UNION ALL
    SELECT k.kind, 'updated_at' FROM memory._record_kinds() AS k
$$, 'memory_writer may UPDATE exactly the columns the API updates (merge, simulations, attempts)');
SELECT set_eq($$
    SELECT r.role || ' ' || c.relname || '.' || a.attname
      FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_class AS c ON c.oid = a.attrelid
     CROSS JOIN (VALUES ('memory_reader'), ('memory_admin')) AS r(role)
     WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
       AND pg_catalog.has_column_privilege(r.role, c.oid, a.attnum, 'UPDATE')
$$, $$ VALUES ('memory_admin tenant_grants.node_role_oids'), ('memory_admin api_keys.revoked_at') $$,
   'memory_reader may UPDATE no column of a memory table, memory_admin only a grant''s map of node OIDs (V0028: a revoke on a cluster) and a key''s revocation (V0043)');

-- The deleting functions (6 + 18): SECURITY DEFINER, callable by their one group role
SELECT is_definer('memory', d.fn, d.args, pg_catalog.format('memory.%s is SECURITY DEFINER', d.fn))
  FROM fx_definers AS d ORDER BY d.fn;
SELECT function_privs_are('memory', d.fn, d.args, r.role,
                          CASE WHEN r.role = ANY (d.grantees) THEN ARRAY['EXECUTE'] ELSE ARRAY[]::name[] END,
                          pg_catalog.format('%s %s call memory.%s', r.role,
                                            CASE WHEN r.role = ANY (d.grantees) THEN 'may' ELSE 'may not' END, d.fn))
  FROM fx_definers AS d
 CROSS JOIN (VALUES ('memory_reader'::name), ('memory_writer'), ('memory_admin')) AS r(role)
 ORDER BY d.fn, r.role;

-- Lock waits bounded (1)
SELECT is_empty($$
    SELECT p.proname::text FROM pg_catalog.pg_proc AS p
     WHERE p.pronamespace = 'memory'::regnamespace
       AND p.proname IN ('abort_import', 'cache_vectors', 'cached_vectors', 'commit_import',
                         'committed_hashes', 'create_tenant',
                         'delete_simulation', 'delete_tenant', 'get_node', 'import_attempts',
                         'nodes_by_type', 'search_nodes', 'simulation_stats', 'stage_rows',
                         'upsert_edges', 'upsert_episodes', 'upsert_nodes', 'upsert_profiles',
                         'upsert_simulation', 'validate_import', '_delete_grant',
                         'reports', 'report_sections', 'report_log', 'search_reports', 'predictions',
                         'upsert_predictions', 'record_outcome')
       AND NOT EXISTS (SELECT 1 FROM unnest(p.proconfig) AS c WHERE c LIKE 'lock\_timeout=%')
$$, 'the API functions that take locks bound their waits with lock_timeout');

-- Tenant A's data: two simulations, nodes, an edge, an episode, a profile, an open attempt
SET LOCAL SESSION AUTHORIZATION app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "a1", "name": "alpha"}, {"id": "a2", "name": "beta"}]');
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "e1", "type": "KNOWS", "source_id": "a1", "target_id": "a2"}]');
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), '[{"id": "p1", "action_type": "CREATE_POST", "content": "hi"}]');
    PERFORM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), '[{"agent_id": 1, "platform": "twitter", "name": "al"}]');
    PERFORM memory.upsert_simulation(fx.tenant_a(), fx.unknown(), 'second');
    PERFORM memory.begin_import(fx.tenant_a(), fx.sim_a());
    PERFORM memory.upsert_predictions(fx.tenant_a(), fx.sim_a(), '[{"id": "pa1", "claim": "c", "confidence": 0.5}]');
    PERFORM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'pa1', 'confirmed');
    PERFORM memory.cache_vectors(fx.tenant_a(), 'm', ARRAY['\x01'::bytea],
                                 ARRAY[pg_catalog.array_fill(0.5::real, ARRAY[384])::public.vector]);
END
$$;

-- A writer deletes nothing directly and takes no blocking table lock (24 + 24)
SELECT throws_ok(pg_catalog.format('DELETE FROM memory.%I', t.table_name), '42501', NULL,
                 pg_catalog.format('a writer may not DELETE FROM memory.%s', t.table_name))
  FROM fx_tables AS t ORDER BY t.table_name;
SELECT throws_ok(pg_catalog.format('LOCK TABLE memory.%I IN SHARE MODE', t.table_name), '42501', NULL,
                 pg_catalog.format('a writer may not LOCK memory.%s IN SHARE MODE', t.table_name))
  FROM fx_tables AS t ORDER BY t.table_name;
RESET SESSION AUTHORIZATION;

-- The deleting functions act for the session user's tenants only (4)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory._delete_simulation(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'B''s writer may not delete A''s simulation');
SELECT throws_ok($$SELECT memory._prune('nodes', fx.tenant_a(), fx.sim_a(), fx.unknown(), NULL)$$, '42501', NULL,
                 'B''s writer may not prune A''s nodes');
SELECT throws_ok($$SELECT memory._discard_staged(fx.tenant_a(), ARRAY[fx.unknown()])$$, '42501', NULL,
                 'B''s writer may not discard A''s staged rows');
SELECT throws_ok($$SELECT memory._skip_dangling(fx.tenant_a(), fx.unknown())$$, '42501', NULL,
                 'B''s writer may not drop A''s staged edges');
RESET SESSION AUTHORIZATION;

-- SET ROLE narrows the definers too (2): a login role holding both A's and B's writers,
-- narrowed with SET ROLE app_b, deletes nothing of A's, through the API or directly.
CREATE ROLE fx_both LOGIN;
GRANT app_a, app_b TO fx_both;
SET LOCAL SESSION AUTHORIZATION fx_both;
SET LOCAL ROLE app_b;
SELECT throws_ok($$SELECT * FROM memory.delete_simulation(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'a session narrowed with SET ROLE app_b may not delete A''s simulation');
SELECT throws_ok($$SELECT memory._prune('nodes', fx.tenant_a(), fx.sim_a(), fx.unknown(), NULL)$$, '42501', NULL,
                 'nor prune A''s nodes through the internal definer');
RESET ROLE;
RESET SESSION AUTHORIZATION;

-- The administrator deletes nothing directly (4)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT throws_ok($$DELETE FROM memory.tenants WHERE tenant_id = fx.tenant_b()$$, '42501', NULL,
                 'memory_admin may not DELETE FROM memory.tenants (its cascade would pass RLS)');
SELECT throws_ok($$DELETE FROM memory.tenant_grants WHERE tenant_id = fx.tenant_b()$$, '42501', NULL,
                 'memory_admin may not DELETE FROM memory.tenant_grants');
SELECT throws_ok($$UPDATE memory.tenants SET name = 'x' WHERE tenant_id = fx.tenant_b()$$, '42501', NULL,
                 'memory_admin may not UPDATE memory.tenants');
SELECT throws_ok($$TRUNCATE memory.tenants CASCADE$$, '42501', NULL, 'memory_admin may not TRUNCATE memory.tenants');
RESET SESSION AUTHORIZATION;

-- delete_tenant: refusals (5)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.delete_tenant(fx.tenant_a())$$, '42501', NULL,
                 'a writer may not call delete_tenant, even for its own tenant');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT * FROM memory.delete_tenant(fx.tenant_a())$$, '42501', NULL, 'a reader may not call delete_tenant');
RESET SESSION AUTHORIZATION;
CREATE ROLE fx_half_admin LOGIN;
GRANT memory_admin TO fx_half_admin WITH INHERIT FALSE, SET TRUE;
SET LOCAL SESSION AUTHORIZATION fx_half_admin;
SELECT throws_ok($$SELECT * FROM memory.delete_tenant(fx.tenant_a())$$, '42501', NULL,
                 'a member of memory_admin without its privileges (NOINHERIT) may not delete a tenant as itself');
SET LOCAL ROLE memory_admin;
SELECT throws_ok($$SELECT * FROM memory.delete_tenant(fx.unknown())$$, 'P0002', NULL,
                 'after SET ROLE memory_admin it acts as memory_admin in the definer too (P0002: unknown tenant, not 42501)');
RESET ROLE;
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT throws_ok($$SELECT * FROM memory.delete_tenant(fx.unknown())$$, 'P0002', NULL, 'delete_tenant of an unknown tenant is P0002');
SELECT throws_ok($$SELECT * FROM memory.delete_tenant(NULL)$$, '22004', NULL, 'delete_tenant(NULL) is 22004');

-- delete_tenant: counts, everything of A gone, B untouched (3)
SELECT results_eq($$SELECT * FROM memory.delete_tenant(fx.tenant_a())$$,
                  $$VALUES (2::bigint, 2::bigint, 1::bigint, 1::bigint, 1::bigint, 2::bigint, 0::bigint, 1::bigint)$$,
                  'delete_tenant returns the simulations, nodes, edges, episodes, profiles, grants, reports and predictions it removed');
RESET SESSION AUTHORIZATION;
SELECT is_empty($$
    SELECT t.table_name FROM fx_tables AS t
     WHERE t.table_name NOT IN ('route_rules', 'embedding_models') AND fx.tenant_rows(t.table_name, fx.tenant_a()) > 0
$$, 'no table holds a row of the deleted tenant (attempts and staged rows included)');
SELECT results_eq($$SELECT (SELECT count(*) FROM memory.tenants WHERE tenant_id = fx.tenant_b()),
                           (SELECT count(*) FROM memory.tenant_grants WHERE tenant_id = fx.tenant_b()),
                           fx.stored('simulations', fx.tenant_b(), fx.sim_b())$$,
                  $$VALUES (1::bigint, 1::bigint, 1::bigint)$$, 'tenant B, its grant and its simulation are untouched');

SELECT * FROM finish();
ROLLBACK;
