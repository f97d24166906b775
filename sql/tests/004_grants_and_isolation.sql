-- 004_grants_and_isolation: a role acts for a tenant only through a grant, every API function
-- checks it (42501) before anything else, and row-level security keeps direct table access to
-- the granted tenant of the current call: a forged memory.tenant_id gives nothing.
BEGIN;
SELECT plan(135);
\ir _fixtures.psql

-- Every call template of fx.calls succeeds for a granted tenant (checked at the end), so each
-- 42501 below comes from the grant check and from nothing else.

-- Data of both tenants, written through the API by their own writers. Both tenants use the
-- same profile key and node id 'shared': keys are per tenant.
SET LOCAL ROLE app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
        '[{"id": "a1", "name": "alpha one", "type": "Person"},
          {"id": "a2", "name": "alpha two", "type": "Org"},
          {"id": "shared", "name": "shared of A", "type": "Person"}]');
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
        '[{"id": "ea1", "type": "WORKS_AT", "source_id": "a1", "target_id": "a2", "fact": "a1 works at a2"}]');
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
        jsonb_build_array(jsonb_build_object('id', 'epa1', 'agent_id', 1, 'action_type', 'CREATE_POST',
                                             'content', 'hello from A', 'embedding', fx.emb(1))));
    PERFORM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(),
        '[{"agent_id": 1, "platform": "twitter", "name": "agent of A"}]');
END
$$;
RESET ROLE;
SET LOCAL ROLE app_b;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_b(), fx.sim_b(),
        jsonb_build_array(
            jsonb_build_object('id', 'b1', 'name', 'beta one', 'type', 'Person', 'embedding', fx.emb(1)),
            jsonb_build_object('id', 'b2', 'name', 'beta two', 'type', 'Org'),
            jsonb_build_object('id', 'shared', 'name', 'shared of B', 'type', 'Person')));
    PERFORM memory.upsert_edges(fx.tenant_b(), fx.sim_b(),
        '[{"id": "eb1", "type": "WORKS_AT", "source_id": "b1", "target_id": "b2", "fact": "b1 works at b2"}]');
    PERFORM memory.upsert_episodes(fx.tenant_b(), fx.sim_b(),
        jsonb_build_array(jsonb_build_object('id', 'epb1', 'agent_id', 1, 'action_type', 'CREATE_POST',
                                             'content', 'secret of B', 'embedding', fx.emb(1))));
    PERFORM memory.upsert_profiles(fx.tenant_b(), fx.sim_b(),
        '[{"agent_id": 1, "platform": "twitter", "name": "agent of B"}]');
END
$$;
RESET ROLE;

-- Rows of B in the import tables, written directly by the superuser (the import API is
-- not under test here): an attempt and one staged row of each kind.
INSERT INTO memory.import_attempts (tenant_id, simulation_id, attempt_id, lock_key)
VALUES (fx.tenant_b(), fx.sim_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 1);
INSERT INTO memory.staged_nodes (tenant_id, attempt_id, node_id, position, name, type)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'sb1', 1, 'staged of B', 'Person');
INSERT INTO memory.staged_edges (tenant_id, attempt_id, edge_id, position, type, source_id, target_id)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'seb1', 1, 'T', 'sb1', 'sb1');
INSERT INTO memory.staged_episodes (tenant_id, attempt_id, episode_id, position, action_type)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'sepb1', 1, 'CREATE_POST');
INSERT INTO memory.staged_profiles (tenant_id, attempt_id, platform, agent_id, position)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'twitter', 1, 1);

-- Every table, and for the tenant-owned data tables a forged INSERT of a row of B and an
-- UPDATE of B's rows, as app_a would try them.
CREATE TABLE fx.tables (ord integer PRIMARY KEY, table_name text NOT NULL, forged_insert text, forged_set text);
GRANT SELECT ON fx.tables TO PUBLIC;
INSERT INTO fx.tables VALUES
    (1,  'tenants',         NULL, NULL),
    (2,  'tenant_grants',   NULL, NULL),
    (3,  'simulations',     $q$INSERT INTO memory.simulations (tenant_id, simulation_id) VALUES (fx.tenant_b(), fx.unknown())$q$, $q$name = 'pwned'$q$),
    (4,  'nodes',           $q$INSERT INTO memory.nodes (tenant_id, simulation_id, node_id, name, type) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'forged', 'Person')$q$, $q$name = 'pwned'$q$),
    (5,  'edges',           $q$INSERT INTO memory.edges (tenant_id, simulation_id, edge_id, type, source_id, target_id) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'T', 'b1', 'b2')$q$, $q$fact = 'pwned'$q$),
    (6,  'episodes',        $q$INSERT INTO memory.episodes (tenant_id, simulation_id, episode_id, action_type) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'CREATE_POST')$q$, $q$content = 'pwned'$q$),
    (7,  'profiles',        $q$INSERT INTO memory.profiles (tenant_id, simulation_id, platform, agent_id) VALUES (fx.tenant_b(), fx.sim_b(), 'twitter', 99)$q$, $q$name = 'pwned'$q$),
    (8,  'import_attempts', $q$INSERT INTO memory.import_attempts (tenant_id, simulation_id, attempt_id, lock_key) VALUES (fx.tenant_b(), fx.sim_b(), fx.unknown(), 2)$q$, $q$error = 'pwned'$q$),
    (9,  'staged_nodes',    $q$INSERT INTO memory.staged_nodes (tenant_id, attempt_id, node_id, position, name, type) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'forged', 2, 'forged', 'Person')$q$, $q$name = 'pwned'$q$),
    (10, 'staged_edges',    $q$INSERT INTO memory.staged_edges (tenant_id, attempt_id, edge_id, position, type, source_id, target_id) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'forged', 2, 'T', 'sb1', 'sb1')$q$, $q$fact = 'pwned'$q$),
    (11, 'staged_episodes', $q$INSERT INTO memory.staged_episodes (tenant_id, attempt_id, episode_id, position, action_type) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'forged', 2, 'CREATE_POST')$q$, $q$content = 'pwned'$q$),
    (12, 'staged_profiles', $q$INSERT INTO memory.staged_profiles (tenant_id, attempt_id, platform, agent_id, position) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'twitter', 2, 2)$q$, $q$name = 'pwned'$q$);

-- Rows of B in a table, counted as the current role (RLS applies).
CREATE FUNCTION fx.visible_rows_of_b(p_table text) RETURNS bigint LANGUAGE plpgsql STABLE SECURITY INVOKER AS $$
DECLARE
    v_rows bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM memory.%I WHERE tenant_id = $1', p_table) INTO v_rows USING fx.tenant_b();
    RETURN v_rows;
END
$$;
-- B's rows, count and digest per table, as they are before any attack (superuser: no RLS).
CREATE FUNCTION fx.rows_of_b() RETURNS TABLE (tbl text, n bigint, digest text) LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_table text;
BEGIN
    FOR v_table IN SELECT t.table_name FROM fx.tables AS t ORDER BY t.ord LOOP
        RETURN QUERY EXECUTE format(
            'SELECT %L::text, count(*), md5(string_agg(to_jsonb(t)::text, ''|'' ORDER BY to_jsonb(t)::text))
               FROM memory.%I AS t WHERE t.tenant_id = $1', v_table, v_table) USING fx.tenant_b();
    END LOOP;
END
$$;
CREATE TABLE fx.b_before AS SELECT * FROM fx.rows_of_b();

-- Positive controls (2): fx.tables lists every table of the schema, and B has rows in each,
-- so "0 rows of B" below means something.
SELECT set_eq($$SELECT table_name FROM fx.tables$$,
              $$SELECT c.relname::text FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
                 WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p')$$,
              'fixture: the table list covers every table of schema memory');
SELECT is_empty($$SELECT tbl FROM fx.b_before WHERE n = 0$$, 'fixture: tenant B has rows in every table');

-- app_a calling every API function for tenant B (12), and for an unknown tenant (12)
SET LOCAL ROLE app_a;
SELECT throws_ok(fx.sql(c.call, fx.tenant_b(), fx.sim_b()),
                 '42501', NULL, 'app_a calling ' || c.fn || ' for tenant B is refused')
  FROM fx.calls AS c ORDER BY c.ord;
SELECT throws_ok(fx.sql(c.call, fx.unknown(), fx.sim_a()),
                 '42501', NULL, 'app_a calling ' || c.fn || ' for an unknown tenant is refused like an ungranted one')
  FROM fx.calls AS c ORDER BY c.ord;
RESET ROLE;

-- nobody (a writer granted no tenant) calling every API function for tenant A (12)
SET LOCAL ROLE nobody;
SELECT throws_ok(fx.sql(c.call, fx.tenant_a(), fx.sim_a()),
                 '42501', NULL, 'nobody calling ' || c.fn || ' for tenant A is refused')
  FROM fx.calls AS c ORDER BY c.ord;
RESET ROLE;

-- reader_a: the write functions for its own tenant (6), the read functions for B (6), and
-- reading its own tenant (1)
SET LOCAL ROLE reader_a;
SELECT throws_ok(fx.sql(c.call, fx.tenant_a(), fx.sim_a()),
                 '42501', NULL, 'reader_a may not call ' || c.fn || ', even for its own tenant')
  FROM fx.calls AS c WHERE c.kind = 'write' ORDER BY c.ord;
SELECT throws_ok(fx.sql(c.call, fx.tenant_b(), fx.sim_b()),
                 '42501', NULL, 'reader_a calling ' || c.fn || ' for tenant B is refused')
  FROM fx.calls AS c WHERE c.kind = 'read' ORDER BY c.ord;
SELECT set_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$,
              ARRAY['a1', 'a2', 'shared'], 'reader_a reads the nodes of its own tenant');
RESET ROLE;

-- app_a and the admin functions (5)
SET LOCAL ROLE app_a;
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-intruder')$$, '42501', NULL,
                 'app_a may not call create_tenant');
SELECT throws_ok($$SELECT memory.grant_tenant('app_a', fx.tenant_b())$$, '42501', NULL,
                 'app_a may not grant itself tenant B');
SELECT throws_ok($$SELECT memory.revoke_tenant('app_b', fx.tenant_b())$$, '42501', NULL,
                 'app_a may not call revoke_tenant');
SELECT throws_ok($$SELECT * FROM memory.rls_audit()$$, '42501', NULL, 'app_a may not call rls_audit');
SELECT throws_ok($$INSERT INTO memory.tenant_grants (tenant_id, role_name) VALUES (fx.tenant_b(), 'app_a')$$,
                 '42501', NULL, 'app_a may not write a grant into memory.tenant_grants directly');
RESET ROLE;

-- A legitimate call leaves the call's tenant set; another role gains nothing from it (2)
SET LOCAL ROLE app_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'app_a reads the nodes of its own tenant through the API');
RESET ROLE;
SET LOCAL ROLE app_b;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes), 0::bigint,
          'app_b sees no row of A while the transaction''s call tenant is A');
RESET ROLE;

-- Direct SELECT as app_a with memory.tenant_id forged to B sees nothing of B (12)
SET LOCAL ROLE app_a;
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_b()::text, true); END $$;
SELECT is(fx.visible_rows_of_b(t.table_name), 0::bigint, 'forged tenant B: app_a sees no row of B in memory.' || t.table_name)
  FROM fx.tables AS t ORDER BY t.ord;

-- Direct INSERT of a row of B as app_a, tenant still forged to B (12): tenants and grants
-- are not writable at all, the data tables refuse it by RLS WITH CHECK.
SELECT throws_ok($$INSERT INTO memory.tenants (tenant_id, name) VALUES (fx.unknown(), 'pgtap-forged')$$,
                 '42501', NULL, 'app_a may not insert into memory.tenants');
SELECT throws_ok($$INSERT INTO memory.tenant_grants (tenant_id, role_name) VALUES (fx.tenant_b(), 'app_a')$$,
                 '42501', NULL, 'app_a may not insert a grant for B into memory.tenant_grants');
SELECT throws_ok(t.forged_insert, '42501', NULL, 'app_a may not insert a row of B into memory.' || t.table_name || ' (RLS WITH CHECK)')
  FROM fx.tables AS t WHERE t.forged_insert IS NOT NULL ORDER BY t.ord;

-- Direct UPDATE and DELETE of B's rows as app_a, tenant forged to B (24)
SELECT throws_ok($$UPDATE memory.tenants SET name = 'pwned' WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not update memory.tenants');
SELECT throws_ok($$DELETE FROM memory.tenants WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not delete from memory.tenants');
SELECT throws_ok($$UPDATE memory.tenant_grants SET role_name = 'app_a' WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not update memory.tenant_grants');
SELECT throws_ok($$DELETE FROM memory.tenant_grants WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not delete from memory.tenant_grants');
SELECT is(fx.affected(format('UPDATE memory.%I SET %s WHERE tenant_id = fx.tenant_b()', t.table_name, t.forged_set)), 0::bigint,
          'app_a updating B''s rows of memory.' || t.table_name || ' touches 0 rows')
  FROM fx.tables AS t WHERE t.forged_set IS NOT NULL ORDER BY t.ord;
SELECT is(fx.affected(format('DELETE FROM memory.%I WHERE tenant_id = fx.tenant_b()', t.table_name)), 0::bigint,
          'app_a deleting B''s rows of memory.' || t.table_name || ' touches 0 rows')
  FROM fx.tables AS t WHERE t.forged_set IS NOT NULL ORDER BY t.ord;

-- Forged to its own tenant A, app_a reaches A's rows but cannot move one into B (2)
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_a()::text, true); END $$;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes), 3::bigint,
          'with its own granted tenant as call tenant, app_a sees exactly A''s nodes');
SELECT throws_ok($$UPDATE memory.nodes SET tenant_id = fx.tenant_b(), simulation_id = fx.sim_b()
                   WHERE tenant_id = fx.tenant_a() AND node_id = 'a1'$$,
                 '42501', NULL, 'app_a may not move a node of A into tenant B (RLS WITH CHECK on UPDATE)');
RESET ROLE;

-- B is untouched (1)
SELECT results_eq($$SELECT * FROM fx.rows_of_b() ORDER BY tbl$$, $$SELECT * FROM fx.b_before ORDER BY tbl$$,
                  'every row of tenant B is unchanged after app_a''s attempts');

-- An edge from A's node to B's node id (3)
SET LOCAL ROLE app_a;
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
                     '[{"id": "xab", "type": "KNOWS", "source_id": "a1", "target_id": "b1"}]')$$,
                 '23503', NULL, 'an edge from A''s node to B''s node id fails as a dangling edge (23503)');
SELECT results_eq($$SELECT inserted, updated, unchanged, skipped FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
                     '[{"id": "xab", "type": "KNOWS", "source_id": "a1", "target_id": "b1"}]', true)$$,
                  $$VALUES (0::bigint, 0::bigint, 0::bigint, 1::bigint)$$,
                  'with p_skip_dangling the edge to B''s node is skipped, not written');
RESET ROLE;
SELECT is((SELECT pg_catalog.count(*) FROM memory.edges WHERE edge_id = 'xab'), 0::bigint,
          'no edge between tenants exists');

-- revoke_tenant removes access, grant_tenant restores it (6)
SET LOCAL ROLE admin;
DO $$ BEGIN PERFORM memory.revoke_tenant('app_a', fx.tenant_a()); END $$;
RESET ROLE;
SET LOCAL ROLE app_a;
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$, '42501', NULL,
                 'after revoke_tenant app_a may not read tenant A');
SELECT throws_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "x", "name": "x"}]')$$,
                 '42501', NULL, 'after revoke_tenant app_a may not write tenant A');
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_a()::text, true); END $$;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes), 0::bigint,
          'after revoke_tenant app_a sees no row of A directly, even with A as call tenant');
RESET ROLE;
SET LOCAL ROLE reader_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'revoking app_a leaves reader_a''s grant for A in place');
RESET ROLE;
SET LOCAL ROLE admin;
DO $$ BEGIN PERFORM memory.grant_tenant('app_a', fx.tenant_a()); END $$;
RESET ROLE;
SET LOCAL ROLE app_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'grant_tenant gives app_a tenant A back');
RESET ROLE;
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenant_grants WHERE role_name = 'app_a'), 1::bigint,
          'grant_tenant after revoke leaves one grant');

-- A grant to a group role covers its members (5)
CREATE ROLE pgtap_team NOLOGIN IN ROLE memory_reader;
CREATE ROLE pgtap_member LOGIN IN ROLE pgtap_team;
CREATE ROLE pgtap_outsider LOGIN IN ROLE memory_reader;
DO $$ BEGIN PERFORM memory.grant_tenant('pgtap_team', fx.tenant_a()); END $$;
SET LOCAL ROLE pgtap_member;
SELECT set_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$,
              ARRAY['a1', 'a2', 'shared'], 'a member of a granted group role reads the group''s tenant');
SELECT results_eq($$SELECT name FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'shared')$$,
                  ARRAY['shared of A'], 'the member reads the group tenant''s row, not B''s of the same id');
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_b(), fx.sim_b(), NULL)$$, '42501', NULL,
                 'the member may not read a tenant the group was not granted');
RESET ROLE;
SET LOCAL ROLE pgtap_outsider;
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$, '42501', NULL,
                 'a reader outside the group may not read the group''s tenant');
RESET ROLE;
DO $$ BEGIN PERFORM memory.revoke_tenant('pgtap_team', fx.tenant_a()); END $$;
SET LOCAL ROLE pgtap_member;
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$, '42501', NULL,
                 'revoking the group''s grant removes its members'' access');
RESET ROLE;

-- Positive control (12): each call template runs for app_a's own tenant A (delete_simulation
-- on a simulation of its own, last).
SET LOCAL ROLE app_a;
DO $$ BEGIN PERFORM memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-000000000002', 'doomed'); END $$;
SELECT lives_ok(fx.sql(c.call, fx.tenant_a(), CASE WHEN c.fn = 'delete_simulation'
                                                   THEN 'aaaaaaaa-5151-4000-8000-000000000002'::uuid
                                                   ELSE fx.sim_a() END),
                'control: app_a calling ' || c.fn || ' for its own tenant A works')
  FROM fx.calls AS c ORDER BY c.fn = 'delete_simulation', c.ord;
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
