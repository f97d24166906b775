-- 035_zep: the service's keys and its reads in Zep's shape (wing zep). Keys: only
-- administrators make, list and revoke them; a key names its tenant and role; a role sees
-- its own keys and no other's; a revoked key authenticates nothing and its grant ends. Reads:
-- a graph_id resolves by name, MiroFish graph_id or UUID within the caller's tenant only
-- (another tenant's graph is P0002 exactly as a missing one); pages after a uuid cursor end
-- with an empty page; nodes and edges carry the fields MiroFish reads. The service over
-- these functions, driven by the real SDK: tests/test_zep_serve.py.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(27);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), 'sim-a', '{"graph_id": "mirofish_a"}');
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "n1", "name": "Maya Okafor", "type": "Person", "labels": ["Entity", "Person"],
       "attributes": {"role": "reporter", "created_at": "2025-05-06T09:02:15.164151Z"}},
      {"id": "n2", "name": "River Road Plan", "type": "Policy"},
      {"id": "n3", "name": "Harbourton Courier", "type": "Organization"}]');
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "type": "REPORTS_ON", "source_id": "n1", "target_id": "n2", "fact": "Maya reports on the plan",
       "valid_at": "2025-05-01T00:00:00Z", "attributes": {"episodes": ["ep1"], "fact_type": "REPORTS_ON"}},
      {"id": "e2", "type": "WORKS_FOR", "source_id": "n1", "target_id": "n3", "fact": "Maya works for the Courier",
       "valid_at": "2024-01-01T00:00:00Z", "invalid_at": "2025-01-01T00:00:00Z"},
      {"id": "e3", "type": "COVERS", "source_id": "n3", "target_id": "n2", "fact": "The Courier covers the plan"}]');
RESET SESSION AUTHORIZATION;

-- Keys (11)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT isnt(memory.create_api_key(fx.tenant_a(), 'app_a', pg_catalog.sha256('key-of-a'), 'smk_keya'), NULL,
            'an administrator records a key of tenant A bound to app_a');
SELECT results_eq($$SELECT tenant_id, role_name FROM memory.api_key_role(pg_catalog.sha256('key-of-a'))$$,
                  $$VALUES (fx.tenant_a(), 'app_a'::name)$$, 'the key''s hash names its tenant and role');
SELECT is_empty($$SELECT * FROM memory.api_key_role(pg_catalog.sha256('no-such-key'))$$, 'an unknown key names nothing');
SELECT throws_ok($$SELECT memory.create_api_key(fx.tenant_a(), 'app_b', pg_catalog.sha256('k2'), 'smk_k2')$$,
                 '22023', NULL, 'a role without its own grant for the tenant gets no key of it');
SELECT throws_ok($$SELECT memory.create_api_key(fx.unknown(), 'app_a', pg_catalog.sha256('k3'), 'smk_k3')$$,
                 'P0002', NULL, 'an unknown tenant gets no key');
SELECT is((SELECT pg_catalog.count(*) FROM memory.api_keys(fx.tenant_a())), 1::bigint, 'memory.api_keys lists the key');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.create_api_key(fx.tenant_a(), 'app_a', pg_catalog.sha256('k4'), 'smk_k4')$$,
                 '42501', NULL, 'a tenant role makes no key');
SELECT throws_ok($$SELECT * FROM memory.api_key_role(pg_catalog.sha256('key-of-a'))$$,
                 '42501', NULL, 'a tenant role looks up no key');
SELECT is((SELECT pg_catalog.count(*) FROM memory.api_keys), 1::bigint, 'app_a sees the row of its own key');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT pg_catalog.count(*) FROM memory.api_keys), 0::bigint, 'app_b sees no key of another role');
SELECT throws_ok($$UPDATE memory.api_keys SET revoked_at = NULL$$, '42501', NULL, 'a tenant role changes no key');
RESET SESSION AUTHORIZATION;

-- Graphs (6)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT is((SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'sim-a')), fx.sim_a(), 'a graph_id is a simulation''s name');
SELECT is((SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'mirofish_a')), fx.sim_a(),
          'or the MiroFish graph_id its import recorded');
SELECT is((SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), fx.sim_a()::text)), fx.sim_a(), 'or its UUID');
SELECT is((SELECT graph ->> 'graph_id' FROM memory.zep_graphs(fx.tenant_a())), 'mirofish_a',
          'graph.list_all gives the MiroFish graph_id');
SELECT throws_ok($$SELECT * FROM memory.zep_graph(fx.tenant_a(), 'no-such-graph')$$, 'P0002', NULL, 'an unknown graph is P0002');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.zep_graph(fx.tenant_b(), 'mirofish_a')$$, 'P0002', NULL,
                 'tenant B asking for A''s graph gets P0002, as for one that does not exist');
RESET SESSION AUTHORIZATION;

-- Pages, nodes and edges (9)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT n ->> 'uuid' FROM memory.zep_nodes(fx.tenant_a(), 'sim-a', 2) AS n$$,
                  $$VALUES ('n1'), ('n2')$$, 'a first page of two nodes, by uuid');
SELECT results_eq($$SELECT n ->> 'uuid' FROM memory.zep_nodes(fx.tenant_a(), 'sim-a', 2, 'n2') AS n$$,
                  $$VALUES ('n3')$$, 'the page after the cursor');
SELECT is_empty($$SELECT * FROM memory.zep_nodes(fx.tenant_a(), 'sim-a', 2, 'n3')$$,
                'a cursor at the last node answers an empty page');
SELECT is(memory.zep_node(fx.tenant_a(), 'n1'),
          '{"uuid": "n1", "name": "Maya Okafor", "labels": ["Entity", "Person"], "summary": "",
            "attributes": {"role": "reporter"}, "created_at": "2025-05-06T09:02:15.164151Z"}'::jsonb,
          'node.get: the fields MiroFish reads, created_at the export''s');
SELECT is(memory.zep_node(fx.tenant_a(), 'n2') -> 'labels', '["Entity", "Policy"]'::jsonb,
          'a node stored without labels is labelled Entity and its type');
SELECT results_eq($$SELECT e ->> 'uuid' FROM memory.zep_node_edges(fx.tenant_a(), 'n1') AS e$$,
                  $$VALUES ('e1'), ('e2')$$, 'node.get_entity_edges: the edges at either end, ended ones too');
SELECT is(memory.zep_edge(fx.tenant_a(), 'e1') - 'created_at',
          '{"uuid": "e1", "name": "REPORTS_ON", "fact": "Maya reports on the plan", "fact_type": "REPORTS_ON",
            "source_node_uuid": "n1", "target_node_uuid": "n2", "valid_at": "2025-05-01T00:00:00.000000Z",
            "invalid_at": null, "expired_at": null, "episodes": ["ep1"], "attributes": {}}'::jsonb,
          'edge.get: the fields MiroFish reads, times in UTC with a Z');
SELECT is((SELECT pg_catalog.count(*) FROM memory.zep_edges(fx.tenant_a(), 'mirofish_a')), 3::bigint,
          'edge.get_by_graph_id: every edge of the graph');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT memory.zep_node(fx.tenant_b(), 'n1')$$, 'P0002', NULL,
                 'tenant B asking for A''s node by uuid gets P0002');
RESET SESSION AUTHORIZATION;

-- Revocation (1)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT memory.revoke_api_key(fx.tenant_a(), (SELECT key_id FROM memory.api_keys(fx.tenant_a())));
SELECT is_empty($$SELECT * FROM memory.api_key_role(pg_catalog.sha256('key-of-a'))$$,
                'a revoked key names nothing');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
