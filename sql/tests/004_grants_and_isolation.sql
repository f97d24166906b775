-- 004_grants_and_isolation: a role acts for a tenant only through a grant, every API function
-- checks it (42501) before anything else, even before its arguments, and row-level security
-- keeps direct table access to the granted tenant of the current call: a forged
-- memory.tenant_id gives nothing. Both tenants hold the same ids: reads, deletes and edges
-- never cross; a role granted two tenants acts for one per call.
BEGIN;
SELECT plan(365);  -- V0046: identity_links (4); V0047: snapshots (4); V0048: forgotten (4); V0045: zep_batches, zep_batch_items (8); V0044: zep_ontologies, zep_episodes (8); V0043: api_keys (4); V0028, V0029: a mapped grant revoked and renewed, a malformed map refused (6); V0026: 4 tables (16); 231 + 11 report and prediction tables x 4 + row_history (V0015) 4 + edge_evidence (V0016) 4 + tenant_models (V0022) 4 + word_postings (V0020) 4 + changes, change_heads, retention_rules, episode_clumps (V0021) 16
\ir _fixtures.psql

-- Every call template of fx.calls succeeds for a granted tenant (checked at the end), so each
-- 42501 below comes from the grant check and from nothing else.

-- Data of both tenants, written through the API by their own writers. Both tenants use the
-- same profile key and node id 'shared': keys are per tenant.
SET LOCAL SESSION AUTHORIZATION app_a;
DO $$
BEGIN
    PERFORM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
        jsonb_build_array(
            jsonb_build_object('id', 'a1', 'name', 'alpha one', 'type', 'Person', 'embedding', fx.emb(1)),
            jsonb_build_object('id', 'a2', 'name', 'alpha two', 'type', 'Org'),
            jsonb_build_object('id', 'shared', 'name', 'shared of A', 'type', 'Person')));
    PERFORM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
        '[{"id": "ea1", "type": "WORKS_AT", "source_id": "a1", "target_id": "a2", "fact": "a1 works at a2"}]');
    PERFORM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
        jsonb_build_array(jsonb_build_object('id', 'epa1', 'agent_id', 1, 'action_type', 'CREATE_POST',
                                             'content', 'hello from A', 'embedding', fx.emb(1))));
    PERFORM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(),
        '[{"agent_id": 1, "platform": "twitter", "name": "agent of A"}]');
END
$$;
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
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
RESET SESSION AUTHORIZATION;

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
INSERT INTO memory.vector_cache (tenant_id, embedding_model, content_hash, embedding)
VALUES (fx.tenant_b(), 'm', '\x01', fx.vec(1));
-- V0015: a version of B's that a change ended (written as the superuser: no tenant role writes it)
INSERT INTO memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from, recorded_to, change, data)
    VALUES (fx.tenant_b(), fx.sim_b(), 'edges', 'eb1', now() - interval '1 day', now(), 'updated', '{}');
-- V0021: B's retention rule and a clump of its episodes (written as the superuser)
INSERT INTO memory.retention_rules (tenant_id, keep_days) VALUES (fx.tenant_b(), 30);
INSERT INTO memory.episode_clumps (tenant_id, simulation_id, representative_key, representative_id, members, member_ids, dropped, similarity)
    VALUES (fx.tenant_b(), fx.sim_b(), md5('epb1')::uuid, 'epb1', 2, '{epb2}', false, 0.995);
-- V0026: a clump build of B's simulation, a representative, a clump and its chunk (written
-- as the superuser: only memory._clump_build writes them)
INSERT INTO memory.search_builds (tenant_id, simulation_id, sim_no, change_id, episodes, points, clumps, clumped, indexed, m, ef_construction)
    SELECT fx.tenant_b(), fx.sim_b(), s.sim_no, NULL, 2, 1, 1, 1, true, 32, 128 FROM memory.simulations AS s
     WHERE s.tenant_id = fx.tenant_b() AND s.simulation_id = fx.sim_b();
INSERT INTO memory.search_points (tenant_id, simulation_id, build_no, point_no, embedding, keys)
    SELECT fx.tenant_b(), fx.sim_b(), b.build_no, 1, fx.vec(1)::halfvec(384), ARRAY[md5('epb1')::uuid] FROM memory.search_builds AS b WHERE b.tenant_id = fx.tenant_b();
INSERT INTO memory.search_clumps (tenant_id, simulation_id, build_no, clump_no, leader, members, vectors, agent_ids)
    SELECT fx.tenant_b(), fx.sim_b(), b.build_no, 1, fx.vec(1)::halfvec(384), 1, 1, '{1}' FROM memory.search_builds AS b WHERE b.tenant_id = fx.tenant_b();
INSERT INTO memory.search_clump_chunks (tenant_id, simulation_id, build_no, clump_no, chunk_no, embeddings, keys, key_ends)
    SELECT fx.tenant_b(), fx.sim_b(), b.build_no, 1, 0, ARRAY[fx.vec(1)::halfvec(384)], ARRAY[md5('epb1')::uuid], '{1}' FROM memory.search_builds AS b WHERE b.tenant_id = fx.tenant_b();
-- V0022: B's model for its new simulations
INSERT INTO memory.tenant_models (tenant_id, embedding_model) VALUES (fx.tenant_b(), 'sentence-transformers/all-MiniLM-L6-v2');
-- V0016: a link of B's edge to an episode (written as the superuser: no tenant role writes it)
INSERT INTO memory.edge_evidence (tenant_id, simulation_id, edge_key, kind, episode_id, matched, found_by)
    VALUES (fx.tenant_b(), fx.sim_b(), md5('eb1')::uuid, 'mention', 'epb1', '{beta one,beta two}', '{names}');
-- Reports and predictions of B (V0014), and one staged row of each of their kinds.
INSERT INTO memory.reports (tenant_id, simulation_id, report_id, status, source)
VALUES (fx.tenant_b(), fx.sim_b(), 'rb1', 'completed', 'import');
INSERT INTO memory.report_sections (tenant_id, simulation_id, report_id, section_index, title, markdown)
VALUES (fx.tenant_b(), fx.sim_b(), 'rb1', 1, 'secret section of B', '## secret section of B');
INSERT INTO memory.report_chunks (tenant_id, simulation_id, chunk_id, report_id, section_index, chunk_index, content, embedding, embedding_model)
VALUES (fx.tenant_b(), fx.sim_b(), 'rb1/1/0', 'rb1', 1, 0, 'secret chunk of B', fx.vec(1), 'm');
INSERT INTO memory.report_log (tenant_id, simulation_id, report_id, line_no, action, entry)
VALUES (fx.tenant_b(), fx.sim_b(), 'rb1', 1, 'report_start', '{"action": "report_start"}');
INSERT INTO memory.predictions (tenant_id, simulation_id, prediction_id, claim, confidence)
VALUES (fx.tenant_b(), fx.sim_b(), 'pb1', 'a secret claim of B', 0.5);
INSERT INTO memory.prediction_outcomes (tenant_id, simulation_id, prediction_id, outcome)
VALUES (fx.tenant_b(), fx.sim_b(), 'pb1', 'confirmed');
INSERT INTO memory.staged_reports (tenant_id, attempt_id, report_id, position, status)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'srb1', 1, 'completed');
INSERT INTO memory.staged_report_sections (tenant_id, attempt_id, report_id, section_index, position, title, markdown)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'srb1', 1, 1, 't', 'm');
INSERT INTO memory.staged_report_chunks (tenant_id, attempt_id, chunk_id, position, report_id, section_index, chunk_index, content)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'srb1/1/0', 1, 'srb1', 1, 0, 'c');
INSERT INTO memory.staged_report_log (tenant_id, attempt_id, report_id, line_no, position, entry)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'srb1', 1, 1, '{}');
INSERT INTO memory.staged_predictions (tenant_id, attempt_id, prediction_id, position, claim)
VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'spb1', 1, 'c');

-- V0038: a cap of B's
INSERT INTO memory.tenant_quotas (tenant_id, kind, max_rows) VALUES (fx.tenant_b(), 'nodes', 1000);
-- V0043: an API key of B's, bound to app_b
INSERT INTO memory.api_keys (tenant_id, key_hash, key_prefix, role_oid, role_name)
VALUES (fx.tenant_b(), pg_catalog.sha256('pgtap-key-of-b'), 'pgtapkb', 'app_b'::regrole, 'app_b');
-- V0044: a graph of B's written through swarm-memory serve: its ontology and an episode
INSERT INTO memory.zep_ontologies (tenant_id, simulation_id, entity_types) VALUES (fx.tenant_b(), fx.sim_b(), '[{"name": "Person"}]');
INSERT INTO memory.zep_episodes (tenant_id, simulation_id, episode_uuid, content, created_at)
VALUES (fx.tenant_b(), fx.sim_b(), 'bbbbbbbb-e915-4000-8000-000000000001', 'said by B', now());
-- V0045: a batch of B's, draft, with an item
INSERT INTO memory.zep_batches (tenant_id, batch_id, metadata, item_count)
VALUES (fx.tenant_b(), 'bbbbbbbb-ba7c-4000-8000-000000000001', '{"operation_id": "op-b"}', 1);
INSERT INTO memory.zep_batch_items (tenant_id, batch_id, item_no, simulation_id, graph_id, episode)
VALUES (fx.tenant_b(), 'bbbbbbbb-ba7c-4000-8000-000000000001', 1, fx.sim_b(), 'sim-b', '{"data": "batched by B"}');
-- V0048: a tombstone of B's
INSERT INTO memory.forgotten (tenant_id, simulation_id, kind, row_key) VALUES (fx.tenant_b(), fx.sim_b(), 'episodes', md5('forgotten-by-b')::uuid);
-- V0047: a snapshot of B's simulation
INSERT INTO memory.snapshots (tenant_id, simulation_id, name, known_at) VALUES (fx.tenant_b(), fx.sim_b(), 'frozen-b', now());
-- V0046: a link of B's, between its simulation and a second one
INSERT INTO memory.simulations (tenant_id, simulation_id, name)
VALUES (fx.tenant_b(), 'ffffffff-0000-4000-8000-0000000000b2', 'sim-b2');
INSERT INTO memory.identity_links (tenant_id, simulation_a, node_a, simulation_b, node_b, score)
VALUES (fx.tenant_b(), LEAST(fx.sim_b(), 'ffffffff-0000-4000-8000-0000000000b2'::uuid), 'shared',
        GREATEST(fx.sim_b(), 'ffffffff-0000-4000-8000-0000000000b2'::uuid), 'shared', 0.9);

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
    (12, 'staged_profiles', $q$INSERT INTO memory.staged_profiles (tenant_id, attempt_id, platform, agent_id, position) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'twitter', 2, 2)$q$, $q$name = 'pwned'$q$),
    (13, 'vector_cache',    $q$INSERT INTO memory.vector_cache (tenant_id, embedding_model, content_hash, embedding) VALUES (fx.tenant_b(), 'm', '\x02', fx.vec(2))$q$, $q$embedding = fx.vec(3)$q$),
    (14, 'row_history',     $q$INSERT INTO memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from, recorded_to, change, data) VALUES (fx.tenant_b(), fx.sim_b(), 'edges', 'forged', now(), now(), 'updated', '{}')$q$, $q$data = '{}'$q$),
    -- V0016: the evidence behind a fact
    (15, 'edge_evidence',   $q$INSERT INTO memory.edge_evidence (tenant_id, simulation_id, edge_key, kind, episode_id, position) VALUES (fx.tenant_b(), fx.sim_b(), md5('eb1')::uuid, 'source', 'forged', 1)$q$, $q$matched = '{pwned}'$q$),
    -- V0022: the model of a tenant's new simulations
    (17, 'tenant_models',   $q$INSERT INTO memory.tenant_models (tenant_id, embedding_model) VALUES (fx.tenant_b(), 'forged')$q$, $q$embedding_model = 'pwned'$q$),
    -- V0020: the words index
    -- V0021: the change feed, retention and compaction (B's feed rows come from its upserts)
    (18, 'changes',         $q$INSERT INTO memory.changes (tenant_id, seq, simulation_id, kind, op) VALUES (fx.tenant_b(), 1, fx.sim_b(), 'episodes', 'upsert')$q$, $q$kind = 'pwned'$q$),
    (19, 'change_heads',    $q$INSERT INTO memory.change_heads (tenant_id) VALUES (fx.tenant_b())$q$, $q$changes = 0$q$),
    (20, 'retention_rules', $q$INSERT INTO memory.retention_rules (tenant_id, keep_days) VALUES (fx.tenant_b(), 1)$q$, $q$keep_days = 1$q$),
    (21, 'episode_clumps',  $q$INSERT INTO memory.episode_clumps (tenant_id, simulation_id, representative_key, representative_id, members, member_ids, dropped, similarity) VALUES (fx.tenant_b(), fx.sim_b(), md5('forged')::uuid, 'forged', 2, '{x}', false, 0.995)$q$, $q$members = 3, member_ids = '{x,y}'$q$),
    -- V0026: the clump builds of indexed simulations
    (22, 'search_builds',   $q$INSERT INTO memory.search_builds (tenant_id, simulation_id, sim_no, episodes, points, clumps, clumped, indexed, m, ef_construction) SELECT fx.tenant_b(), fx.sim_b(), s.sim_no, 0, 0, 0, 0, false, 32, 128 FROM memory.simulations AS s WHERE s.simulation_id = fx.sim_b()$q$, $q$indexed = false$q$),
    (23, 'search_points',   $q$INSERT INTO memory.search_points (tenant_id, simulation_id, build_no, point_no, embedding, keys) SELECT fx.tenant_b(), fx.sim_b(), b.build_no, 2, fx.vec(2)::halfvec(384), '{}' FROM memory.search_builds AS b$q$, $q$keys = '{}'$q$),
    (24, 'search_clumps',   $q$INSERT INTO memory.search_clumps (tenant_id, simulation_id, build_no, clump_no, leader, members, vectors, agent_ids) SELECT fx.tenant_b(), fx.sim_b(), b.build_no, 2, fx.vec(2)::halfvec(384), 1, 1, '{}' FROM memory.search_builds AS b$q$, $q$members = 9$q$),
    (25, 'search_clump_chunks', $q$INSERT INTO memory.search_clump_chunks (tenant_id, simulation_id, build_no, clump_no, chunk_no, embeddings, keys, key_ends) SELECT fx.tenant_b(), fx.sim_b(), b.build_no, 1, 1, ARRAY[fx.vec(2)::halfvec(384)], ARRAY[md5('x')::uuid], '{1}' FROM memory.search_builds AS b$q$, $q$keys = '{}'$q$),
    -- V0038: a tenant's quotas, written only by memory.set_quota
    (26, 'tenant_quotas',   $q$INSERT INTO memory.tenant_quotas (tenant_id, kind, max_rows) VALUES (fx.tenant_b(), 'edges', 1)$q$, $q$max_rows = 1000000$q$),
    -- V0043: the API keys of swarm-memory serve, written only by administrators
    (27, 'api_keys',        $q$INSERT INTO memory.api_keys (tenant_id, key_hash, key_prefix, role_oid, role_name) VALUES (fx.tenant_b(), pg_catalog.sha256('forged'), 'forged', 'app_a'::regrole, 'app_a')$q$, $q$revoked_at = now()$q$),
    -- V0044: the graphs of swarm-memory serve
    (28, 'zep_ontologies',  $q$INSERT INTO memory.zep_ontologies (tenant_id, simulation_id) VALUES (fx.tenant_b(), fx.unknown())$q$, $q$edge_types = '[]'$q$),
    (29, 'zep_episodes',    $q$INSERT INTO memory.zep_episodes (tenant_id, simulation_id, episode_uuid, content, created_at) VALUES (fx.tenant_b(), fx.sim_b(), fx.unknown(), 'forged', now())$q$, $q$content = 'pwned'$q$),
    -- V0045: Zep's batches
    (30, 'zep_batches',     $q$INSERT INTO memory.zep_batches (tenant_id, batch_id) VALUES (fx.tenant_b(), fx.unknown())$q$, $q$status = 'submitted', processed_at = now()$q$),
    (31, 'zep_batch_items', $q$INSERT INTO memory.zep_batch_items (tenant_id, batch_id, item_no, simulation_id, graph_id, episode) VALUES (fx.tenant_b(), 'bbbbbbbb-ba7c-4000-8000-000000000001', 2, fx.sim_b(), 'sim-b', '{"data": "forged"}')$q$, $q$episode = '{"data": "pwned"}'$q$),
    -- V0048: tombstones, written only by memory._forget
    (32, 'forgotten',       $q$INSERT INTO memory.forgotten (tenant_id, simulation_id, kind, row_key) VALUES (fx.tenant_b(), fx.sim_b(), 'edges', md5('forged')::uuid)$q$, $q$kind = 'edges'$q$),
    -- V0047: named snapshots
    (33, 'snapshots',       $q$INSERT INTO memory.snapshots (tenant_id, simulation_id, name, known_at) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', now())$q$, $q$dropped_at = now()$q$),
    -- V0046: one identity across runs
    (34, 'identity_links',  $q$INSERT INTO memory.identity_links (tenant_id, simulation_a, node_a, simulation_b, node_b, score) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', fx.sim_b(), 'forged', 1)$q$, $q$decision = 'refused', decided_at = now()$q$),
    (16, 'word_postings',   $q$INSERT INTO memory.word_postings (tenant_id, simulation_id, word, kind, row_key, tf, weight, doc_len) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'e', md5('forged')::uuid, 1, 'A', 1)$q$, $q$tf = 2$q$),
    -- V0014: reports and predictions
    (101, 'reports',         $q$INSERT INTO memory.reports (tenant_id, simulation_id, report_id, status) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'completed')$q$, $q$title = 'pwned'$q$),
    (102, 'report_sections', $q$INSERT INTO memory.report_sections (tenant_id, simulation_id, report_id, section_index, title, markdown) VALUES (fx.tenant_b(), fx.sim_b(), 'rb1', 2, 'forged', 'forged')$q$, $q$markdown = 'pwned'$q$),
    (103, 'report_chunks',   $q$INSERT INTO memory.report_chunks (tenant_id, simulation_id, chunk_id, report_id, section_index, chunk_index, content) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'rb1', 1, 1, 'forged')$q$, $q$content = 'pwned'$q$),
    (104, 'report_log',      $q$INSERT INTO memory.report_log (tenant_id, simulation_id, report_id, line_no, entry) VALUES (fx.tenant_b(), fx.sim_b(), 'rb1', 2, '{}')$q$, $q$action = 'pwned'$q$),
    (105, 'predictions',     $q$INSERT INTO memory.predictions (tenant_id, simulation_id, prediction_id, claim) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'forged')$q$, $q$claim = 'pwned'$q$),
    (106, 'prediction_outcomes', $q$INSERT INTO memory.prediction_outcomes (tenant_id, simulation_id, prediction_id, outcome) VALUES (fx.tenant_b(), fx.sim_b(), 'forged', 'void')$q$, $q$outcome = 'refuted'$q$),
    (107, 'staged_reports',  $q$INSERT INTO memory.staged_reports (tenant_id, attempt_id, report_id, position, status) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'forged', 2, 'completed')$q$, $q$title = 'pwned'$q$),
    (108, 'staged_report_sections', $q$INSERT INTO memory.staged_report_sections (tenant_id, attempt_id, report_id, section_index, position, title, markdown) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'forged', 1, 2, 't', 'm')$q$, $q$markdown = 'pwned'$q$),
    (109, 'staged_report_chunks', $q$INSERT INTO memory.staged_report_chunks (tenant_id, attempt_id, chunk_id, position, report_id, section_index, chunk_index, content) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'forged', 2, 'srb1', 1, 1, 'c')$q$, $q$content = 'pwned'$q$),
    (110, 'staged_report_log', $q$INSERT INTO memory.staged_report_log (tenant_id, attempt_id, report_id, line_no, position, entry) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'srb1', 2, 2, '{}')$q$, $q$action = 'pwned'$q$),
    (111, 'staged_predictions', $q$INSERT INTO memory.staged_predictions (tenant_id, attempt_id, prediction_id, position, claim) VALUES (fx.tenant_b(), 'bbbbbbbb-a77e-4000-8000-000000000001', 'forged', 2, 'c')$q$, $q$claim = 'pwned'$q$);

-- Rows of B in a table, counted as the current role (RLS applies).
CREATE FUNCTION fx.visible_rows_of_b(p_table text) RETURNS bigint LANGUAGE plpgsql STABLE SECURITY INVOKER AS $$
DECLARE
    v_rows bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM memory.%I WHERE tenant_id = $1', p_table) INTO v_rows USING fx.tenant_b();
    RETURN v_rows;
END
$$;
-- A tenant's rows, count and digest per table (superuser: no RLS), to compare before and after.
CREATE FUNCTION fx.rows_of(p_tenant_id uuid) RETURNS TABLE (tbl text, n bigint, digest text) LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_table text;
BEGIN
    FOR v_table IN SELECT t.table_name FROM fx.tables AS t ORDER BY t.ord LOOP
        RETURN QUERY EXECUTE format(
            'SELECT %L::text, count(*), md5(string_agg(to_jsonb(t)::text, ''|'' ORDER BY to_jsonb(t)::text))
               FROM memory.%I AS t WHERE t.tenant_id = $1', v_table, v_table) USING p_tenant_id;
    END LOOP;
END
$$;
CREATE TABLE fx.b_before AS SELECT * FROM fx.rows_of(fx.tenant_b());
-- What a statement run as the current role did: 'N rows', or the SQLSTATE it raised.
CREATE FUNCTION fx.outcome(p_sql text) RETURNS text LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
DECLARE
    v_rows bigint;
BEGIN
    EXECUTE p_sql;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    RETURN v_rows || ' rows';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END
$$;

-- Positive controls (2): fx.tables lists every table of the schema, and B has rows in each,
-- so "0 rows of B" below means something.
SELECT set_eq($$SELECT table_name FROM fx.tables$$,
              $$SELECT c.relname::text FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
                 WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p')
                   -- the installation's routing phrases (V0018) are no tenant's: 001 and 013 hold them
                   -- nor the installation's embedding models (V0022)
                   AND c.relname NOT IN ('route_rules', 'embedding_models')$$,
              'fixture: the table list covers every table of schema memory');
SELECT is_empty($$SELECT tbl FROM fx.b_before WHERE n = 0$$, 'fixture: tenant B has rows in every table');

-- app_a calling every API function for tenant B (12), and for an unknown tenant (12)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok(fx.sql(c.call, fx.tenant_b(), fx.sim_b()),
                 '42501', NULL, 'app_a calling ' || c.fn || ' for tenant B is refused')
  FROM fx.calls AS c ORDER BY c.ord;
SELECT throws_ok(fx.sql(c.call, fx.unknown(), fx.sim_a()),
                 '42501', NULL, 'app_a calling ' || c.fn || ' for an unknown tenant is refused like an ungranted one')
  FROM fx.calls AS c ORDER BY c.ord;
-- ... and each refusal names the tenant and carries a hint (12)
SELECT ok(COALESCE((SELECT strpos(e.message, fx.tenant_b()::text) > 0 AND e.hint <> ''
                      FROM fx.error(fx.sql(c.call, fx.tenant_b(), fx.sim_b())) AS e), false),
          'app_a calling ' || c.fn || ' for tenant B: the refusal names the tenant and carries a hint')
  FROM fx.calls AS c ORDER BY c.ord;
RESET SESSION AUTHORIZATION;

-- The grant is checked before any argument (16 x 3): without a grant, calls with bad
-- arguments fail with 42501 and reveal nothing of them; with the grant they fail with the
-- argument's own error.
CREATE TABLE fx.bad_calls (ord integer PRIMARY KEY, call text NOT NULL);
GRANT SELECT ON fx.bad_calls TO PUBLIC;
INSERT INTO fx.bad_calls VALUES
    (1,  $q$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), NULL, NULL)$q$),
    (2,  $q$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '{"not": "an array"}')$q$),
    (3,  $q$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.unknown(), '[]')$q$),
    (4,  $q$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[{"id": "x", "type": "T", "source_id": "ghost", "target_id": "g"}]')$q$),
    (5,  $q$SELECT * FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), '[{}]')$q$),
    (6,  $q$SELECT * FROM memory.upsert_profiles(fx.tenant_a(), fx.sim_a(), '[1]')$q$),
    (7,  $q$SELECT memory.upsert_simulation(fx.tenant_a(), NULL)$q$),
    (8,  $q$SELECT memory.upsert_simulation(fx.tenant_a(), fx.sim_a(), NULL, '[1]')$q$),
    (9,  $q$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'no-such-node')$q$),
    (10, $q$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'a1', 1, NULL, 'sideways')$q$),
    (11, $q$SELECT * FROM memory.get_node(fx.tenant_a(), fx.sim_a(), NULL)$q$),
    (12, $q$SELECT * FROM memory.get_node(fx.tenant_a(), fx.unknown(), 'a1')$q$),
    (13, $q$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), '[0,0,0]')$q$),
    (14, $q$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), NULL)$q$),
    (15, $q$SELECT * FROM memory.delete_simulation(fx.tenant_a(), fx.unknown())$q$),
    (16, $q$SELECT * FROM memory.simulation_stats(fx.tenant_a(), NULL)$q$);
SET LOCAL SESSION AUTHORIZATION nobody;
SELECT throws_ok(b.call, '42501', NULL, 'nobody, bad call ' || b.ord || ': 42501 before the argument is looked at')
  FROM fx.bad_calls AS b ORDER BY b.ord;
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok(b.call, '42501', NULL, 'app_b, bad call ' || b.ord || ': 42501 before the argument is looked at')
  FROM fx.bad_calls AS b ORDER BY b.ord;
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT ok(COALESCE((SELECT e.code <> '42501' FROM fx.error(b.call) AS e), false),
          'app_a (granted), bad call ' || b.ord || ': fails with the argument''s own error')
  FROM fx.bad_calls AS b ORDER BY b.ord;
RESET SESSION AUTHORIZATION;

-- nobody (a writer granted no tenant) calling every API function for tenant A (12)
SET LOCAL SESSION AUTHORIZATION nobody;
SELECT throws_ok(fx.sql(c.call, fx.tenant_a(), fx.sim_a()),
                 '42501', NULL, 'nobody calling ' || c.fn || ' for tenant A is refused')
  FROM fx.calls AS c ORDER BY c.ord;
RESET SESSION AUTHORIZATION;

-- reader_a: the write functions for its own tenant (6), the read functions for B (6), and
-- reading its own tenant (1)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok(fx.sql(c.call, fx.tenant_a(), fx.sim_a()),
                 '42501', NULL, 'reader_a may not call ' || c.fn || ', even for its own tenant')
  FROM fx.calls AS c WHERE c.kind = 'write' ORDER BY c.ord;
SELECT throws_ok(fx.sql(c.call, fx.tenant_b(), fx.sim_b()),
                 '42501', NULL, 'reader_a calling ' || c.fn || ' for tenant B is refused')
  FROM fx.calls AS c WHERE c.kind = 'read' ORDER BY c.ord;
SELECT set_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$,
              ARRAY['a1', 'a2', 'shared'], 'reader_a reads the nodes of its own tenant');
RESET SESSION AUTHORIZATION;

-- app_a and the admin functions (5)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-intruder')$$, '42501', NULL,
                 'app_a may not call create_tenant');
SELECT throws_ok($$SELECT memory.grant_tenant('app_a', fx.tenant_b())$$, '42501', NULL,
                 'app_a may not grant itself tenant B');
SELECT throws_ok($$SELECT memory.revoke_tenant('app_b', fx.tenant_b())$$, '42501', NULL,
                 'app_a may not call revoke_tenant');
SELECT throws_ok($$SELECT * FROM memory.rls_audit()$$, '42501', NULL, 'app_a may not call rls_audit');
SELECT throws_ok($$INSERT INTO memory.tenant_grants (tenant_id, role_oid, role_name) VALUES (fx.tenant_b(), 'app_a'::regrole, 'app_a')$$,
                 '42501', NULL, 'app_a may not write a grant into memory.tenant_grants directly');
RESET SESSION AUTHORIZATION;
-- reader_a and nobody and the admin functions (6)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-intruder')$$, '42501', NULL, 'reader_a may not call create_tenant');
SELECT throws_ok($$SELECT memory.grant_tenant('reader_a', fx.tenant_b())$$, '42501', NULL, 'reader_a may not grant itself tenant B');
SELECT throws_ok($$SELECT memory.revoke_tenant('app_a', fx.tenant_a())$$, '42501', NULL, 'reader_a may not call revoke_tenant');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION nobody;
SELECT throws_ok($$SELECT memory.create_tenant('pgtap-intruder')$$, '42501', NULL, 'nobody may not call create_tenant');
SELECT throws_ok($$SELECT memory.grant_tenant('nobody', fx.tenant_a())$$, '42501', NULL, 'nobody may not grant itself tenant A');
SELECT throws_ok($$SELECT memory.revoke_tenant('app_a', fx.tenant_a())$$, '42501', NULL, 'nobody may not call revoke_tenant');
RESET SESSION AUTHORIZATION;

-- A legitimate call leaves the call's tenant set; another role gains nothing from it (2)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'app_a reads the nodes of its own tenant through the API');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes), 0::bigint,
          'app_b sees no row of A while the transaction''s call tenant is A');
RESET SESSION AUTHORIZATION;

-- After its own legitimate call a role sees its rows directly, and forging the setting to
-- another tenant then gives nothing; the function that sets the call tenant is closed (3)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_b(), fx.sim_b(), NULL))
          + (SELECT pg_catalog.count(*) FROM memory.nodes WHERE tenant_id = fx.tenant_b()), 6::bigint,
          'after a call for B, app_b sees B''s 3 nodes through the API and directly');
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_a()::text, true); END $$;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes), 0::bigint,
          'then forging the call tenant to A: app_b sees no node at all');
SELECT throws_ok($$SELECT memory._enter_tenant(fx.tenant_a())$$, '42501', NULL,
                 'app_b may not enter tenant A through memory._enter_tenant');
RESET SESSION AUTHORIZATION;

-- Direct SELECT as app_a with memory.tenant_id forged to B sees nothing of B (13)
SET LOCAL SESSION AUTHORIZATION app_a;
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_b()::text, true); END $$;
SELECT is(fx.visible_rows_of_b(t.table_name), 0::bigint, 'forged tenant B: app_a sees no row of B in memory.' || t.table_name)
  FROM fx.tables AS t ORDER BY t.ord;
-- ... the forged setting is not a call tenant, and SET or a session-wide setting do no better (3)
SELECT is(memory._current_tenant_id(), NULL::uuid, 'forged tenant B: memory._current_tenant_id() stays NULL');
SET LOCAL memory.tenant_id = 'bbbbbbbb-0000-4000-8000-000000000000';
SELECT is(fx.visible_rows_of_b('nodes'), 0::bigint, 'memory.tenant_id SET to B: app_a sees no node of B');
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_b()::text, false); END $$;
SELECT is(fx.visible_rows_of_b('nodes') + fx.visible_rows_of_b('episodes'), 0::bigint,
          'memory.tenant_id set to B for the session: app_a sees no node or episode of B');

-- Direct INSERT of a row of B as app_a, tenant still forged to B (13): tenants and grants
-- are not writable at all, the data tables refuse it by RLS WITH CHECK.
SELECT throws_ok($$INSERT INTO memory.tenants (tenant_id, name) VALUES (fx.unknown(), 'pgtap-forged')$$,
                 '42501', NULL, 'app_a may not insert into memory.tenants');
SELECT throws_ok($$INSERT INTO memory.tenant_grants (tenant_id, role_oid, role_name) VALUES (fx.tenant_b(), 'app_a'::regrole, 'app_a')$$,
                 '42501', NULL, 'app_a may not insert a grant for B into memory.tenant_grants');
SELECT throws_ok(t.forged_insert, '42501', NULL, 'app_a may not insert a row of B into memory.' || t.table_name || ' (RLS WITH CHECK)')
  FROM fx.tables AS t WHERE t.forged_insert IS NOT NULL ORDER BY t.ord;

-- Direct UPDATE and DELETE of B's rows as app_a, tenant forged to B (26)
SELECT throws_ok($$UPDATE memory.tenants SET name = 'pwned' WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not update memory.tenants');
SELECT throws_ok($$DELETE FROM memory.tenants WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not delete from memory.tenants');
SELECT throws_ok($$UPDATE memory.tenant_grants SET role_oid = 'app_a'::regrole WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not update memory.tenant_grants');
SELECT throws_ok($$DELETE FROM memory.tenant_grants WHERE tenant_id = fx.tenant_b()$$,
                 '42501', NULL, 'app_a may not delete from memory.tenant_grants');
-- (Writers hold UPDATE on some columns only and no DELETE, V0006: the statement either
-- touches no row of B or is refused outright.)
SELECT ok(fx.outcome(format('UPDATE memory.%I SET %s WHERE tenant_id = fx.tenant_b()', t.table_name, t.forged_set)) IN ('0 rows', '42501'),
          'app_a updating B''s rows of memory.' || t.table_name || ' touches 0 rows or is refused')
  FROM fx.tables AS t WHERE t.forged_set IS NOT NULL ORDER BY t.ord;
SELECT ok(fx.outcome(format('DELETE FROM memory.%I WHERE tenant_id = fx.tenant_b()', t.table_name)) IN ('0 rows', '42501'),
          'app_a deleting B''s rows of memory.' || t.table_name || ' touches 0 rows or is refused')
  FROM fx.tables AS t WHERE t.forged_set IS NOT NULL ORDER BY t.ord;

-- Forged to its own tenant A, app_a reaches A's rows but cannot move any into B (2 + 5)
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_a()::text, true); END $$;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes), 3::bigint,
          'with its own granted tenant as call tenant, app_a sees exactly A''s nodes');
SELECT throws_ok($$UPDATE memory.nodes SET tenant_id = fx.tenant_b(), simulation_id = fx.sim_b()
                   WHERE tenant_id = fx.tenant_a() AND node_id = 'a1'$$,
                 '42501', NULL, 'app_a may not move a node of A into tenant B (RLS WITH CHECK on UPDATE)');
SELECT throws_ok(pg_catalog.format('UPDATE memory.%I SET tenant_id = fx.tenant_b() WHERE tenant_id = fx.tenant_a()', t),
                 '42501', NULL, 'app_a may not move its rows of memory.' || t || ' into tenant B')
  FROM unnest(ARRAY['simulations', 'nodes', 'edges', 'episodes', 'profiles']) AS t;
RESET SESSION AUTHORIZATION;

-- B is untouched (1)
SELECT results_eq($$SELECT * FROM fx.rows_of(fx.tenant_b()) ORDER BY tbl$$, $$SELECT * FROM fx.b_before ORDER BY tbl$$,
                  'every row of tenant B is unchanged after app_a''s attempts');

-- Reads return only the caller's rows where both tenants hold the same ids and vectors (3)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT episode_id, content FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 100)$$,
                  $$VALUES ('epa1', 'hello from A')$$, 'search_episodes returns only A''s episode, not B''s of the same vector');
SELECT results_eq($$SELECT node_id, name FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 100)$$,
                  $$VALUES ('a1', 'alpha one')$$, 'search_nodes returns only A''s node, not B''s of the same vector');
SELECT results_eq($$SELECT nodes::int, edges::int, episodes::int, profiles::int FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES (3, 1, 1, 1)$$, 'simulation_stats counts only A''s rows (B holds as many again)');
RESET SESSION AUTHORIZATION;

-- The same simulation id in two tenants is two simulations (4): B writes and deletes its own
-- simulation under A's simulation id; A's rows stay as they were.
CREATE TABLE fx.a_before AS SELECT * FROM fx.rows_of(fx.tenant_a());
SET LOCAL SESSION AUTHORIZATION app_b;
DO $$
BEGIN
    PERFORM memory.upsert_simulation(fx.tenant_b(), fx.sim_a(), 'B copy', '{"b": true}');
    PERFORM memory.upsert_nodes(fx.tenant_b(), fx.sim_a(),
        '[{"id": "a1", "name": "B''s a1"}, {"id": "shared", "name": "B''s shared"}, {"id": "b9", "name": "B''s own"}]');
    PERFORM memory.upsert_edges(fx.tenant_b(), fx.sim_a(), '[{"id": "ea1", "type": "T", "source_id": "a1", "target_id": "shared"}]');
    PERFORM memory.upsert_episodes(fx.tenant_b(), fx.sim_a(), '[{"id": "epa1", "action_type": "CREATE_POST", "content": "B"}]');
    PERFORM memory.upsert_profiles(fx.tenant_b(), fx.sim_a(), '[{"agent_id": 1, "platform": "twitter", "name": "B"}]');
END
$$;
SELECT results_eq($$SELECT name, nodes::int FROM memory.simulation_stats(fx.tenant_b(), fx.sim_a())$$,
                  $$VALUES ('B copy', 3)$$, 'B''s simulation under A''s simulation id holds B''s rows');
SELECT results_eq($$SELECT nodes::int, edges::int, episodes::int, profiles::int FROM memory.delete_simulation(fx.tenant_b(), fx.sim_a())$$,
                  $$VALUES (3, 1, 1, 1)$$, 'B deletes its simulation of that id: only its own rows');
RESET SESSION AUTHORIZATION;
SELECT results_eq($$SELECT * FROM fx.rows_of(fx.tenant_a()) ORDER BY tbl$$, $$SELECT * FROM fx.a_before ORDER BY tbl$$,
                  'every row of tenant A is unchanged after B wrote and deleted a simulation of the same id');
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT name, nodes::int FROM memory.simulation_stats(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('sim-a', 3)$$, 'A''s simulation of that id reads as before');
RESET SESSION AUTHORIZATION;

-- A direct INSERT of an edge cannot reference another tenant's rows (4)
SET LOCAL SESSION AUTHORIZATION app_b;
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_b()::text, true); END $$;
SELECT lives_ok($$INSERT INTO memory.edges (tenant_id, simulation_id, sim_no, edge_id, type, source_id, target_id)
                  VALUES (fx.tenant_b(), fx.sim_b(),
                          (SELECT s.sim_no FROM memory.simulations AS s
                            WHERE s.tenant_id = fx.tenant_b() AND s.simulation_id = fx.sim_b()),
                          'direct', 'T', 'b1', 'b2')$$,
                'control: app_b inserts an edge of its own directly');
SELECT throws_ok($$INSERT INTO memory.edges (tenant_id, simulation_id, sim_no, edge_id, type, source_id, target_id)
                   VALUES (fx.tenant_b(), fx.sim_b(),
                           (SELECT s.sim_no FROM memory.simulations AS s
                             WHERE s.tenant_id = fx.tenant_b() AND s.simulation_id = fx.sim_b()),
                           'direct2', 'T', 'b1', 'a1')$$,
                 '23503', NULL, 'a direct edge of B to A''s node a1: 23503');
SELECT throws_ok($$INSERT INTO memory.edges (tenant_id, simulation_id, sim_no, edge_id, type, source_id, target_id)
                   VALUES (fx.tenant_b(), fx.sim_a(),
                           (SELECT s.sim_no FROM memory.simulations AS s
                             WHERE s.tenant_id = fx.tenant_b() AND s.simulation_id = fx.sim_b()),
                           'direct3', 'T', 'shared', 'shared')$$,
                 '23503', NULL, 'a direct edge of B in A''s simulation: 23503');
SELECT throws_ok($$INSERT INTO memory.edges (tenant_id, simulation_id, edge_id, type, source_id, target_id)
                   VALUES (fx.tenant_a(), fx.sim_a(), 'direct4', 'T', 'shared', 'a1')$$,
                 '42501', NULL, 'a direct edge with tenant A: 42501');
RESET SESSION AUTHORIZATION;

-- An edge from A's node to B's node id (3)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
                     '[{"id": "xab", "type": "KNOWS", "source_id": "a1", "target_id": "b1"}]')$$,
                 '23503', NULL, 'an edge from A''s node to B''s node id fails as a dangling edge (23503)');
SELECT results_eq($$SELECT inserted, updated, unchanged, skipped FROM memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
                     '[{"id": "xab", "type": "KNOWS", "source_id": "a1", "target_id": "b1"}]', true)$$,
                  $$VALUES (0::bigint, 0::bigint, 0::bigint, 1::bigint)$$,
                  'with p_skip_dangling the edge to B''s node is skipped, not written');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT pg_catalog.count(*) FROM memory.edges WHERE edge_id = 'xab'), 0::bigint,
          'no edge between tenants exists');

-- revoke_tenant removes access, grant_tenant restores it (6)
SET LOCAL SESSION AUTHORIZATION admin;
DO $$ BEGIN PERFORM memory.revoke_tenant('app_a', fx.tenant_a()); END $$;
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$, '42501', NULL,
                 'after revoke_tenant app_a may not read tenant A');
SELECT throws_ok($$SELECT * FROM memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), '[{"id": "x", "name": "x"}]')$$,
                 '42501', NULL, 'after revoke_tenant app_a may not write tenant A');
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_a()::text, true); END $$;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes), 0::bigint,
          'after revoke_tenant app_a sees no row of A directly, even with A as call tenant');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'revoking app_a leaves reader_a''s grant for A in place');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
DO $$ BEGIN PERFORM memory.grant_tenant('app_a', fx.tenant_a()); END $$;
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'grant_tenant gives app_a tenant A back');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenant_grants WHERE role_oid = 'app_a'::regrole), 1::bigint,
          'grant_tenant after revoke leaves one grant');

-- A grant with a map of node OIDs, as every grant has on a Citus cluster (V0024): revoke
-- empties the map instead of deleting (V0028), grant_tenant renews it (5)
UPDATE memory.tenant_grants SET node_role_oids = pg_catalog.jsonb_build_object(memory._node_group()::text, 'app_a'::regrole::oid)
 WHERE tenant_id = fx.tenant_a() AND role_oid = 'app_a'::regrole;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'a grant with a map of node OIDs authorises its role');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
DO $$ BEGIN PERFORM memory.revoke_tenant('app_a', fx.tenant_a()); END $$;
RESET SESSION AUTHORIZATION;
SELECT is((SELECT node_role_oids FROM memory.tenant_grants WHERE tenant_id = fx.tenant_a() AND role_oid = 'app_a'::regrole),
          '{}'::jsonb, 'revoke_tenant empties a mapped grant''s map (a delete would reach every node of a cluster as memory_owner)');
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$, '42501', NULL,
                 'a grant whose map was emptied authorises nobody');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
SELECT throws_ok($$UPDATE memory.tenant_grants SET node_role_oids = '{"0": "x"}' WHERE tenant_id = fx.tenant_a()$$,
                 '23514', NULL, 'an administrator cannot store a map whose OIDs are not numbers (V0029: every tenant''s read casts them)');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION admin;
DO $$ BEGIN PERFORM memory.grant_tenant('app_a', fx.tenant_a()); END $$;
RESET SESSION AUTHORIZATION;
SELECT is((SELECT pg_catalog.count(*) FROM memory.tenant_grants
            WHERE tenant_id = fx.tenant_a() AND role_oid = 'app_a'::regrole AND node_role_oids IS NULL), 1::bigint,
          'grant_tenant renews the ended grant with this node''s map (none on one node)');
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)), 3::bigint,
          'the renewed grant gives app_a tenant A back');
RESET SESSION AUTHORIZATION;

-- A grant to a group role covers its members (5)
CREATE ROLE pgtap_team NOLOGIN IN ROLE memory_reader;
CREATE ROLE pgtap_member LOGIN IN ROLE pgtap_team;
CREATE ROLE pgtap_outsider LOGIN IN ROLE memory_reader;
DO $$ BEGIN PERFORM memory.grant_tenant('pgtap_team', fx.tenant_a()); END $$;
SET LOCAL SESSION AUTHORIZATION pgtap_member;
SELECT set_eq($$SELECT node_id FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$,
              ARRAY['a1', 'a2', 'shared'], 'a member of a granted group role reads the group''s tenant');
SELECT results_eq($$SELECT name FROM memory.get_node(fx.tenant_a(), fx.sim_a(), 'shared')$$,
                  ARRAY['shared of A'], 'the member reads the group tenant''s row, not B''s of the same id');
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_b(), fx.sim_b(), NULL)$$, '42501', NULL,
                 'the member may not read a tenant the group was not granted');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION pgtap_outsider;
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$, '42501', NULL,
                 'a reader outside the group may not read the group''s tenant');
RESET SESSION AUTHORIZATION;
DO $$ BEGIN PERFORM memory.revoke_tenant('pgtap_team', fx.tenant_a()); END $$;
SET LOCAL SESSION AUTHORIZATION pgtap_member;
SELECT throws_ok($$SELECT * FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$, '42501', NULL,
                 'revoking the group''s grant removes its members'' access');
RESET SESSION AUTHORIZATION;

-- A role granted two tenants acts for one per call (4)
DO $$ BEGIN PERFORM memory.grant_tenant('app_a', fx.tenant_b()); END $$;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT set_eq($$SELECT name FROM memory.nodes_by_type(fx.tenant_a(), fx.sim_a(), NULL)$$,
              ARRAY['alpha one', 'alpha two', 'shared of A'], 'app_a granted A and B reads A''s nodes for A');
SELECT set_eq($$SELECT name FROM memory.nodes_by_type(fx.tenant_b(), fx.sim_b(), NULL)$$,
              ARRAY['beta one', 'beta two', 'shared of B'], '... and B''s nodes for B');
SELECT results_eq($$SELECT DISTINCT tenant_id FROM memory.nodes$$, ARRAY[fx.tenant_b()],
                  'the later call''s tenant is the one in force for direct reads');
SELECT throws_ok($$SELECT * FROM memory.get_node(fx.tenant_b(), fx.sim_a(), 'shared')$$, 'P0002', NULL,
                 'A''s simulation is unknown under tenant B');
RESET SESSION AUTHORIZATION;
DO $$ BEGIN PERFORM memory.revoke_tenant('app_a', fx.tenant_b()); END $$;

-- Positive control (12): each call template runs for app_a's own tenant A (delete_simulation
-- on a simulation of its own, last).
SET LOCAL SESSION AUTHORIZATION app_a;
DO $$ BEGIN PERFORM memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-5151-4000-8000-000000000002', 'doomed'); END $$;
SELECT lives_ok(fx.sql(c.call, fx.tenant_a(), CASE WHEN c.fn = 'delete_simulation'
                                                   THEN 'aaaaaaaa-5151-4000-8000-000000000002'::uuid
                                                   ELSE fx.sim_a() END),
                'control: app_a calling ' || c.fn || ' for its own tenant A works')
  FROM fx.calls AS c ORDER BY c.fn = 'delete_simulation', c.ord;
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
