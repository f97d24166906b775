-- 001_schema: the shape of schema memory as DESIGN.md fixes it. The tables and functions
-- that exist, who owns them, RLS enabled and forced on every table, every function SECURITY
-- INVOKER (but those of fx_definers) with a pinned search_path, the group roles, the
-- 384-dimensional vector columns, and tenant_id leading every primary key.
BEGIN;
SELECT plan(1179);  -- _forget_reports, _scrubbable, _scrub_text, _scrub_json (12); V0049: _search_facts_known, _search_episodes_known (6), search_facts', search_episodes', panorama's, entity_summary's and timeline's new signatures; _walk_start (3); _said_hits (3); _lock_simulation (3); V0046: identity_links (5), 12 functions (36); V0047: snapshots (5), create_snapshot, snapshots, drop_snapshot, fork_simulation, _round_moment, _read_clock (18), neighbors' and facts' new signatures; V0048: forgotten (5), _forget, forget_episodes, forget_agent, forgotten_ids, _cache_hash (15); neighbor_ids (3); _zep_batch_locked, _zep_episode_problem (6); resolve_simulation (3); V0045: zep_batches, zep_batch_items (10), 12 functions (36); V0044: zep_ontologies, zep_episodes (10), 20 functions (60); _said_something (3); V0043: api_keys (5), 18 functions (54); V0041: _named_agents (3); V0042: _action_said (3); _near_copy (3); V0038: tenant_quotas (5), set_quota, quotas, _check_quota, _enforce_quota, _quota_used (15); V0037: _prepared (3) gone, _acting_role, _function_fingerprints, _installed_functions (9); warm, _warm_indexes (6), _warm_indexes a definer; _recall_list (3); _clump_breadth (3); generic plans (1); _episodes_breadth (3); the bridge: + _ann_ivf_index_name, _search_episodes_ivf (6); V0035: + _entities_ann_index_name, ann_plan_entities, ann_index_entities, _search_nodes_ann, _search_nodes, _ann_statement_list (18), ann_index_entities a definer; V0033: + _search_facts (3), _search_facts_ann's new signature; V0032: + _facts_ann_index_name, _ann_plan, ann_plan_facts, _search_facts_ann, ann_index_facts (15), _ann_counts' and _ann_wanted's new signatures, ann_index_facts a definer; V0031: + _search_episodes (3), _search_episodes_ann's new signature; _ann_breadth (3); V0030: + _search_words (3), _recall_graph's new signature; V0028: + 8 functions (24); V0026: + 4 tables and 7 functions (41); V0015: + row_history and 5 functions; V0016: + edge_evidence and 5 functions; V0017: + 7 functions; V0018: + route_rules, recall_hit and 10 functions; V0022: + embedding_models (3), tenant_models (5) and 13 functions (39); V0024: + 2 functions (6); V0020: + word_postings and 3 functions; V0021: + 4 tables and 11 functions; V0023, V0025: new signatures; _set_tenant, _one_of, _top_k, _recall_graph, _check_items_model, _ann_wanted (18)

-- Fixtures: the expected tables and functions (signatures as regtype prints them).
CREATE TEMP TABLE fx_tables (table_name name PRIMARY KEY) ON COMMIT DROP;
INSERT INTO fx_tables VALUES
    ('tenants'), ('tenant_grants'), ('simulations'), ('nodes'), ('edges'), ('episodes'), ('profiles'),
    ('import_attempts'), ('staged_nodes'), ('staged_edges'), ('staged_episodes'), ('staged_profiles'),
    ('vector_cache'), ('row_history'), ('route_rules'),
    -- V0014: reports and predictions
    ('reports'), ('report_sections'), ('report_chunks'), ('report_log'), ('predictions'),
    ('prediction_outcomes'), ('staged_reports'), ('staged_report_sections'), ('staged_report_chunks'),
    ('staged_report_log'), ('staged_predictions');
-- V0016: the evidence behind a fact
INSERT INTO fx_tables VALUES ('edge_evidence');
-- V0022: the embedding models (the installation's, as route_rules)
INSERT INTO fx_tables VALUES ('embedding_models'), ('tenant_models');
INSERT INTO fx_tables VALUES ('word_postings');
-- V0021: the change feed, retention and compaction
INSERT INTO fx_tables VALUES ('changes'), ('change_heads'), ('retention_rules'), ('episode_clumps');
-- V0026: the clump builds of indexed simulations
INSERT INTO fx_tables VALUES ('search_builds'), ('search_points'), ('search_clumps'), ('search_clump_chunks');
-- V0038: the tenants' quotas
INSERT INTO fx_tables VALUES ('tenant_quotas');
-- V0043: the API keys of swarm-memory serve
INSERT INTO fx_tables VALUES ('api_keys');
-- V0044: the graphs written through swarm-memory serve
INSERT INTO fx_tables VALUES ('zep_ontologies'), ('zep_episodes');
-- V0045: Zep's batches
INSERT INTO fx_tables VALUES ('zep_batches'), ('zep_batch_items');
-- V0048: the tombstones of forgotten rows
INSERT INTO fx_tables VALUES ('forgotten');
-- V0047: named snapshots of simulations
INSERT INTO fx_tables VALUES ('snapshots');
-- V0046: one identity across runs
INSERT INTO fx_tables VALUES ('identity_links');

CREATE TEMP TABLE fx_functions (fn name, args name[], PRIMARY KEY (fn, args)) ON COMMIT DROP;
INSERT INTO fx_functions VALUES
    ('_edge_detail',        '{memory.edges}'),
    ('_enter_page',         '{text,uuid,uuid,text}'),
    ('_not_null',           '{anyelement,text,text}'),
    ('_page_rows',          '{integer,integer}'),
    ('_ann_wanted',         '{integer,text}'),
    ('_ann_counts',         '{uuid,integer,text}'),
    ('_facts_ann_index_name', '{bigint}'),
    ('_ann_plan',           '{text,integer,integer,integer}'),
    ('ann_plan_facts',      '{integer,integer,integer}'),
    ('ann_index_facts',     '{bigint,text,integer,integer,boolean}'),
    ('_search_facts_ann',   '{uuid,uuid,bigint,vector,integer,text,"timestamp with time zone",real,integer}'),
    ('_search_facts',       '{uuid,uuid,vector,integer,text,"timestamp with time zone",integer}'),
    -- V0035: the entities' pair of indexes
    ('_entities_ann_index_name', '{bigint}'),
    ('ann_plan_entities',   '{integer,integer,integer}'),
    ('ann_index_entities',  '{bigint,text,integer,integer,boolean}'),
    ('_search_nodes_ann',   '{uuid,uuid,bigint,vector,integer,text,text,real,integer}'),
    ('_search_nodes',       '{uuid,uuid,vector,integer,text,text,integer}'),
    ('_ann_statement_list', '{text,text,text,text,name}'),
    ('_ann_index_name',     '{bigint}'),
    ('_attempt_alive',      '{integer,integer,"timestamp with time zone"}'),
    ('_attempt_lock_held',  '{integer,integer}'),
    ('_check_items_model', '{uuid,uuid,jsonb}'),
    ('_check_batch',        '{text,jsonb,jsonb,text[]}'),
    ('_check_limit',        '{text,text,bigint}'),
    ('_check_query_vector', '{vector}'),
    ('_current_tenant_id',  '{}'),
    ('_delete_grant',       '{uuid,oid}'),
    ('_delete_simulation',  '{uuid,uuid}'),
    ('_lock_simulation',    '{uuid,uuid,boolean}'),
    ('_discard_staged',     '{uuid,uuid[]}'),
    ('_enter_simulation',   '{uuid,uuid}'),
    ('_enter_tenant',       '{uuid}'),
    ('_enter_tenant_as_admin', '{uuid}'),
    ('_set_tenant',         '{uuid}'),
    ('_one_of',             '{text,text,text[],text}'),
    ('_top_k',              '{integer}'),
    ('_ann_breadth',        '{real}'),
    ('_episodes_breadth',   '{real,integer,integer}'),
    ('_clump_breadth',      '{bigint,integer}'),
    ('_recall_graph',       '{uuid,uuid,text,integer,integer,"timestamp with time zone",uuid[],real[]}'),
    ('_enter_vector_cache', '{uuid,text,bytea[]}'),
    ('_fail_dead_attempts', '{uuid,uuid}'),
    ('_field_problem',      '{jsonb,text}'),
    ('_group_roles',        '{}'),
    ('_holds_grant',        '{uuid}'),
    ('_installed_policies', '{}'),
    ('_release_attempt_lock', '{integer}'),
    ('_require_admin',      '{}'),
    ('_require_attempt',    '{uuid,uuid,boolean}'),
    ('_require_simulation', '{uuid,uuid}'),
    ('_search_episodes_ann', '{uuid,uuid,bigint,vector,integer,integer,real,integer,integer,"timestamp with time zone","timestamp with time zone",integer}'),
    ('_search_episodes',    '{uuid,uuid,vector,integer,integer,integer,integer,"timestamp with time zone","timestamp with time zone",boolean,text,integer}'),
    ('_skip_dangling',      '{uuid,uuid}'),
    ('_attempt_lock_class', '{}'),
    ('_default_model', '{}'),
    ('_kind', '{text}'),
    ('_kind_columns', '{text}'),
    ('_kind_key', '{text,text,text}'),
    ('_kind_problems', '{text,memory.import_attempts}'),
    ('_label_max', '{}'),
    ('_limit', '{text}'),
    ('_merge', '{text,uuid,uuid,uuid,jsonb}'),
    ('_merge_sql', '{text,boolean}'),
    ('_prune', '{text,uuid,uuid,uuid,text[]}'),
    ('_quote', '{text}'),
    ('_record_kinds', '{}'),
    ('_stage_kind', '{text,uuid,uuid}'),
    ('_staging_duplicate', '{text,uuid,uuid}'),
    ('_staging_problem', '{text}'),
    ('_upsert', '{text,uuid,uuid,jsonb}'),
    ('_vector_problem', '{vector}'),
    ('abort_import',        '{uuid,uuid,text}'),
    ('ann_index',           '{bigint,text,integer,integer,boolean}'),
    ('ann_plan',            '{integer,integer,integer}'),
    ('begin_import',        '{uuid,uuid,jsonb,boolean,jsonb,text,jsonb}'),
    ('commit_import',       '{uuid,uuid}'),
    ('cache_vectors',       '{uuid,text,bytea[],vector[]}'),
    ('cached_vectors',      '{uuid,text,bytea[]}'),
    ('committed_hashes',    '{uuid,uuid}'),
    ('create_tenant',       '{text,uuid}'),
    ('delete_simulation',   '{uuid,uuid}'),
    ('delete_tenant',       '{uuid}'),
    ('episodes',            '{uuid,uuid,integer,text,text,integer,integer,timestamp with time zone,timestamp with time zone,integer,text}'),
    ('get_edge',            '{uuid,uuid,text}'),
    ('get_node',            '{uuid,uuid,text}'),
    ('grant_tenant',        '{name,uuid}'),
    ('graph_edges',         '{uuid,uuid,integer,text}'),
    ('graph_nodes',         '{uuid,uuid,integer,text}'),
    ('import_attempts',     '{uuid,uuid}'),
    ('list_simulations',    '{uuid}'),
    ('resolve_simulation',  '{uuid,text}'),
    ('list_tenants',        '{}'),
    ('neighbors',           '{uuid,uuid,text,integer,text[],text,"timestamp with time zone","timestamp with time zone",boolean,integer,integer,text}'),
    ('neighbor_ids',        '{uuid,uuid,text,integer,text[],text,"timestamp with time zone","timestamp with time zone",boolean,integer,integer,text}'),
    ('_walk_start',         '{uuid,uuid,text,text[],text,"timestamp with time zone","timestamp with time zone",integer,text}'),
    -- V0015: time
    ('_known',              '{anyelement,uuid,uuid,"timestamp with time zone"}'),
    ('_fact_state',         '{"timestamp with time zone","timestamp with time zone","timestamp with time zone","timestamp with time zone"}'),
    ('_record_history',     '{}'),
    -- V0018: recall
    ('_check_fact_state',   '{text}'),
    ('_recall_option',      '{jsonb,text,"double precision","double precision","double precision"}'),
    ('_recall_list',        '{jsonb,text,text[],text}'),
    ('search_facts',        '{uuid,uuid,vector,integer,text,"timestamp with time zone",text,integer,text}'),
    ('route',               '{text}'),
    ('set_route_rule',      '{text,text}'),
    ('recall',              '{uuid,uuid,text,vector,integer,jsonb}'),
    ('paths',               '{uuid,uuid,text,text,integer}'),
    ('panorama',            '{uuid,uuid,text,vector,integer,text,integer}'),
    ('entity_summary',      '{uuid,uuid,text,integer,integer}'),
    ('episode_vector',      '{uuid,uuid,text}'),
    ('facts',               '{uuid,uuid,text,text,"timestamp with time zone",integer,integer,text,"timestamp with time zone"}'),
    ('history',             '{uuid,uuid,text,text}'),
    ('nodes_named',         '{uuid,uuid,text}'),
    ('nodes_by_type',       '{uuid,uuid,text,integer}'),
    ('profiles',            '{uuid,uuid,text,integer}'),
    ('open_staging',        '{}'),
    ('revoke_tenant',       '{name,uuid}'),
    ('rls_audit',           '{}'),
    ('search_episodes',     '{uuid,uuid,vector,integer,integer,integer,integer,"timestamp with time zone","timestamp with time zone",boolean,text,text}'),
    ('search_nodes',        '{uuid,uuid,vector,integer,text,text,text}'),
    ('simulation_stats',    '{uuid,uuid}'),
    ('stage_rows',          '{uuid,uuid}'),
    ('upsert_edges',        '{uuid,uuid,jsonb,boolean}'),
    ('upsert_episodes',     '{uuid,uuid,jsonb}'),
    ('upsert_nodes',        '{uuid,uuid,jsonb}'),
    ('upsert_profiles',     '{uuid,uuid,jsonb}'),
    ('upsert_simulation',   '{uuid,uuid,text,jsonb}'),
    ('validate_import',     '{uuid,uuid}');
-- V0014: reports and predictions
INSERT INTO fx_functions VALUES
    ('_outcomes',           '{}'),
    ('_require_row',        '{text,uuid,uuid,text}'),
    ('predictions',         '{uuid,uuid,text}'),
    ('record_outcome',      '{uuid,uuid,text,text,text,"timestamp with time zone"}'),
    ('report_log',          '{uuid,uuid,text,integer,integer}'),
    ('report_sections',     '{uuid,uuid,text}'),
    ('reports',             '{uuid,uuid}'),
    ('search_reports',      '{uuid,uuid,vector,integer,text,text}'),
    ('upsert_predictions',  '{uuid,uuid,jsonb}');
-- V0016: evidence and timeline
INSERT INTO fx_functions VALUES
    ('_entity_names',       '{text,jsonb}'),
    ('_link_evidence',      '{uuid,uuid}'),
    ('evidence',            '{uuid,uuid,text}'),
    ('link_evidence',       '{uuid,uuid}'),
    ('timeline',            '{uuid,uuid,text,integer,integer}');
-- V0042: evidence by names and meaning
INSERT INTO fx_functions VALUES
    ('_action_said',        '{text,jsonb}');
-- V0041: recall's arm of the agents a question names; what its words and graph arms answer
INSERT INTO fx_functions VALUES
    ('_named_agents',       '{uuid,uuid,text,integer}'),
    ('_said_something',     '{uuid,uuid,text}'),
    ('_said_hits',          '{uuid,uuid,memory.recall_hit[],integer}');
-- V0017: the words arm
INSERT INTO fx_functions VALUES
    ('_near_copy',          '{}'),
    ('_name_match',         '{text,text}'),
    ('_words_doc',          '{text,text}'),
    ('_words_prepare',      '{text,text}'),
    ('_words_query',        '{text}'),
    ('_words_text',         '{text}'),
    ('match_entities',      '{uuid,uuid,text,integer}'),
    ('search_words',        '{uuid,uuid,text,integer,text[]}');
-- V0021: the change feed, retention, compaction and health
INSERT INTO fx_functions VALUES
    ('_compact_episodes',   '{uuid,uuid,real,boolean}'),
    ('_health_tenant',      '{uuid,integer}'),
    ('_record_change',      '{uuid,uuid,text,text,text[],jsonb,uuid,jsonb}'),
    ('_record_import',      '{uuid,uuid,uuid,jsonb}'),
    ('_record_upsert',      '{text,uuid,uuid,jsonb,bigint,bigint}'),
    ('_sweep_tenant',       '{uuid,"timestamp with time zone"}'),
    ('changes_since',       '{uuid,bigint,integer}'),
    ('compact_episodes',    '{uuid,uuid,real,boolean}'),
    ('health',              '{uuid,integer}'),
    ('set_retention',       '{uuid,integer,real,boolean}'),
    ('sweep',               '{uuid,"timestamp with time zone"}');
-- V0020: the words index
INSERT INTO fx_functions VALUES
    ('_index_words',        '{}'),
    ('_name_candidates',    '{uuid,uuid,text,integer}'),
    ('_name_trigrams',      '{text}');
-- V0022: embedding models and re-embedding
INSERT INTO fx_functions VALUES
    ('_model',              '{text}'),
    ('_stored_dimensions',  '{}'),
    ('_simulation_model',   '{uuid,uuid}'),
    ('_check_query_model',  '{uuid,uuid,text}'),
    ('_text_hash',          '{text,text}'),
    ('_reembed_sources',    '{uuid,uuid,text}'),
    ('_reembed_model',      '{text}'),
    ('list_models',         '{}'),
    ('model_of',            '{uuid,uuid}'),
    ('set_model',           '{uuid,uuid,text}'),
    ('set_tenant_model',    '{uuid,text}'),
    ('reembed_texts',       '{uuid,uuid,text,integer}'),
    ('switch_model',        '{uuid,uuid,text}');
-- V0024: grants on a Citus cluster
INSERT INTO fx_functions VALUES
    ('_node_group',         '{}'),
    ('_node_role_oids',     '{oid}');
-- V0026: clumps for search
INSERT INTO fx_functions VALUES
    ('_clump_build',        '{uuid,bigint,text,integer,integer}'),
    ('_clump_builds',       '{uuid}'),
    ('_clump_collapse',     '{uuid,uuid,bigint,memory.episode_hit[],integer[]}'),
    ('_clump_index_name',   '{bigint,bigint}'),
    ('_clump_plan',         '{integer,integer,integer}'),
    ('_clump_search',       '{uuid,uuid,bigint,bigint,vector,integer}'),
    ('_clump_state',        '{uuid,uuid}');
-- V0028: grants and sweeps on a Citus cluster
INSERT INTO fx_functions VALUES
    ('_end_grant',          '{uuid,oid}'),
    ('sweep_tenant',        '{uuid,"timestamp with time zone"}'),
    ('health_tenant',       '{uuid,integer}'),
    ('_refuse_on_cluster',  '{text,text}'),
    ('_on_cluster',         '{}'),
    ('_ann_statements',     '{bigint,text,integer,integer,boolean,regclass}'),
    ('ann_index_tenant',    '{uuid,uuid,text,integer,integer}'),
    ('_use_custom_plans',   '{}');
-- V0030: recall finds the named entities once
INSERT INTO fx_functions VALUES
    ('_search_words',       '{uuid,uuid,text,integer,text[],uuid[],real[]}');
-- warming a simulation (memory.warm, its indexes through memory._warm_indexes)
INSERT INTO fx_functions VALUES
    ('warm',                '{uuid,uuid}'),
    ('_warm_indexes',       '{uuid,uuid}');
-- the role a call acts as (V0037: SET ROLE narrows every function)
INSERT INTO fx_functions VALUES
    ('_acting_role',        '{}');
-- the audit of code: functions as they stand and as the release installed them
INSERT INTO fx_functions VALUES
    ('_function_fingerprints', '{}'),
    ('_installed_functions', '{}');
-- the bridge: a simulation's IVFFlat index searched while its HNSW index builds
INSERT INTO fx_functions VALUES
    ('_ann_ivf_index_name', '{bigint}'),
    ('_search_episodes_ivf', '{uuid,uuid,bigint,vector,integer,integer,integer,integer,"timestamp with time zone","timestamp with time zone",integer}');

-- V0038: per-tenant quotas
INSERT INTO fx_functions VALUES
    ('set_quota',           '{uuid,text,bigint}'),
    ('quotas',              '{uuid}'),
    ('_check_quota',        '{uuid,text}'),
    ('_enforce_quota',      '{uuid,text}'),
    ('_quota_used',         '{uuid,text}');

-- V0043: the Zep-compatible service (wing zep): its keys and its reads
INSERT INTO fx_functions VALUES
    ('create_api_key',      '{uuid,name,bytea,text}'),
    ('api_keys',            '{uuid}'),
    ('revoke_api_key',      '{uuid,uuid}'),
    ('api_key_role',        '{bytea}'),
    ('_zep_time',           '{"timestamp with time zone"}'),
    ('_zep_node',           '{text,text,text,text[],text,jsonb,"timestamp with time zone"}'),
    ('_zep_edge',           '{memory.edge_detail,"timestamp with time zone"}'),
    ('_zep_graph_json',     '{uuid,text,jsonb,"timestamp with time zone"}'),
    ('_zep_simulation',     '{uuid,text}'),
    ('_zep_home',           '{uuid,text,text}'),
    ('zep_graphs',          '{uuid,integer,integer}'),
    ('zep_graph',           '{uuid,text}'),
    ('zep_nodes',           '{uuid,text,integer,text}'),
    ('zep_edges',           '{uuid,text,integer,text}'),
    ('zep_node',            '{uuid,text}'),
    ('zep_edge',            '{uuid,text}'),
    ('zep_node_edges',      '{uuid,text}'),
    ('zep_search',          '{uuid,text,text,vector,text,integer,text}');

-- V0044: its writes and the extraction queue
INSERT INTO fx_functions VALUES
    ('_zep_episode',        '{jsonb}'),
    ('_zep_types_max',      '{}'),
    ('_zep_type_problem',   '{text,jsonb,integer,jsonb}'),
    ('_zep_batch_max',      '{}'),
    ('_zep_attempts_max',   '{}'),
    ('_zep_resolve_entity', '{uuid,uuid,text,text,vector,text}'),
    ('_zep_edge_item',      '{memory.edges}'),
    ('_zep_pair_allowed',   '{jsonb,text,text,text}'),
    ('zep_create_graph',    '{uuid,text,text,text,text}'),
    ('zep_set_ontology',    '{uuid,text[],jsonb,jsonb}'),
    ('zep_add_episodes',    '{uuid,text,jsonb,uuid}'),
    ('zep_episode',         '{uuid,uuid}'),
    ('zep_graph_episodes',  '{uuid,text,integer}'),
    ('zep_delete_graph',    '{uuid,text}'),
    ('zep_claim_episodes',  '{uuid,integer,integer}'),
    ('zep_fail_extraction', '{uuid,uuid,integer,text}'),
    ('zep_retry_episodes',  '{uuid,text}'),
    ('zep_extraction_context', '{uuid,uuid,text}'),
    ('zep_apply_extraction', '{uuid,uuid,integer,jsonb}'),
    ('zep_ontology',        '{uuid,text}');
-- V0045: Zep's batch API
INSERT INTO fx_functions VALUES
    ('_zep_batch_items_max', '{}'),
    ('_zep_batch',          '{uuid,uuid}'),
    ('_zep_batch_locked',   '{uuid,uuid}'),
    ('_zep_episode_problem', '{jsonb,text}'),
    ('_zep_batch_item',     '{jsonb,jsonb}'),
    ('_zep_batch_json',     '{jsonb}'),
    ('_zep_batch_item_problem', '{jsonb}'),
    ('zep_batch_create',    '{uuid,jsonb,text[]}'),
    ('zep_batch',           '{uuid,uuid}'),
    ('zep_batches',         '{uuid,integer,bigint,text}'),
    ('zep_batch_items',     '{uuid,uuid,integer,bigint,text}'),
    ('zep_batch_add',       '{uuid,uuid,jsonb}'),
    ('zep_batch_process',   '{uuid,uuid}'),
    ('zep_batch_delete',    '{uuid,uuid}'),
    -- V0048: forgetting
    ('_forget',             '{uuid,uuid,uuid[],integer,text}'),
    ('_cache_hash',         '{text,text}'),
    ('forget_episodes',     '{uuid,uuid,text[]}'),
    ('forget_agent',        '{uuid,uuid,integer,text}'),
    ('forgotten_ids',       '{uuid,uuid,text,text[],bytea[]}'),
    -- a forget reaches the reports that quote it
    ('_forget_reports',     '{uuid,uuid,text[]}'),
    ('_scrubbable',         '{text}'),
    ('_scrub_text',         '{text,text[],boolean}'),
    ('_scrub_json',         '{jsonb,text[]}'),
    -- V0047: rounds, snapshots, forks
    ('_round_moment',       '{uuid,uuid,integer,"timestamp with time zone"}'),
    ('_read_clock',         '{uuid,uuid,"timestamp with time zone","timestamp with time zone",integer,text}'),
    -- V0049: the searches at a snapshot
    ('_search_facts_known', '{uuid,uuid,vector,integer,text,"timestamp with time zone","timestamp with time zone"}'),
    ('_search_episodes_known', '{uuid,uuid,vector,integer,integer,integer,integer,"timestamp with time zone","timestamp with time zone","timestamp with time zone"}'),
    ('create_snapshot',     '{uuid,uuid,text,integer,text}'),
    ('snapshots',           '{uuid,uuid}'),
    ('drop_snapshot',       '{uuid,uuid,text}'),
    ('fork_simulation',     '{uuid,uuid,uuid,integer,text}');
-- V0046: one identity across runs, the diff of two runs
INSERT INTO fx_functions VALUES
    ('_identity_names',     '{text,jsonb}'),
    ('_link_score',         '{boolean,boolean,real,real,real,boolean}'),
    ('_link_threshold',     '{}'),
    ('_link_active',        '{text,boolean}'),
    ('_link_pair',          '{uuid,uuid,uuid,real}'),
    ('_identity_map',       '{uuid,uuid,uuid}'),
    ('link_runs',           '{uuid,uuid,uuid,real}'),
    ('decide_link',         '{uuid,uuid,text,uuid,text,text}'),
    ('identity_links',      '{uuid,uuid,uuid,boolean}'),
    ('identity',            '{uuid,uuid,text}'),
    ('identity_facts',      '{uuid,uuid,text}'),
    ('diff',                '{uuid,uuid,uuid,real,integer}');

-- SECURITY DEFINER only where tenant roles must not hold the privilege used: DELETE (with it a
-- role could LOCK the shared tables in modes that stop every tenant).
CREATE TEMP TABLE fx_definers (fn name PRIMARY KEY) ON COMMIT DROP;
INSERT INTO fx_definers VALUES
    ('_delete_grant'), ('_delete_simulation'), ('_discard_staged'), ('_prune'), ('_skip_dangling'),
    ('delete_tenant');
-- SECURITY DEFINER: only the owner may index memory.episodes, and counting needs every tenant's rows.
INSERT INTO fx_definers VALUES ('_ann_counts'), ('ann_index'), ('ann_index_tenant'), ('ann_index_facts'),
    ('ann_index_entities');
-- SECURITY DEFINER (V0026): only the owner writes the clump builds and indexes their
-- representatives, and planning reads every tenant's builds.
INSERT INTO fx_definers VALUES ('_clump_build'), ('_clump_builds');
-- SECURITY DEFINER: the trigger keeping history writes memory.row_history, which no tenant role may write.
INSERT INTO fx_definers VALUES ('_record_history');
-- SECURITY DEFINER: routing rules are changed by administrators, who hold no table privilege but SELECT.
INSERT INTO fx_definers VALUES ('set_route_rule');
-- SECURITY DEFINER: the evidence links are written only by memory_owner (V0016).
INSERT INTO fx_definers VALUES ('_link_evidence');
INSERT INTO fx_definers VALUES ('_index_words');
-- SECURITY DEFINER: pg_prewarm loads an index only for a role that may read it, its owner.
INSERT INTO fx_definers VALUES ('_warm_indexes');
-- SECURITY DEFINER: the feed, retention rules and clumps are written only by memory_owner (V0021),
-- and health counts every tenant's rows for an administrator.
INSERT INTO fx_definers VALUES ('_record_change'), ('_compact_episodes'), ('compact_episodes'),
    ('set_retention'), ('_sweep_tenant'), ('_health_tenant');
-- SECURITY DEFINER (V0038): quotas are written and locked only by memory_owner, and an
-- administrator counts a tenant's rows.
INSERT INTO fx_definers VALUES ('set_quota'), ('quotas'), ('_enforce_quota');
-- SECURITY DEFINER (V0048): a forget deletes rows and scrubs memory.row_history, which no
-- tenant role may write.
INSERT INTO fx_definers VALUES ('_forget');

-- Schema, extension, roles (9)
SELECT has_schema('memory', 'schema memory exists');
SELECT schema_owner_is('memory', 'memory_owner', 'schema memory belongs to memory_owner');
SELECT has_extension('vector', 'pgvector is installed');
SELECT has_role('memory_owner', 'role memory_owner exists');
SELECT has_role('memory_reader', 'role memory_reader exists');
SELECT has_role('memory_writer', 'role memory_writer exists');
SELECT has_role('memory_admin', 'role memory_admin exists');
SELECT ok(NOT (SELECT r.rolcanlogin FROM pg_catalog.pg_roles AS r WHERE r.rolname = 'memory_owner'),
          'memory_owner cannot log in (no application acts as the owner)');
SELECT is_member_of('memory_reader', 'memory_writer', 'memory_writer is a member of memory_reader');

-- Tables (1 + 24 x 5 = 121)
SELECT tables_are('memory', ARRAY(SELECT table_name FROM fx_tables), 'schema memory has exactly its tables');

SELECT ok((SELECT c.relrowsecurity FROM pg_catalog.pg_class AS c WHERE c.oid = pg_catalog.to_regclass('memory.' || t.table_name)),
          'memory.' || t.table_name || ' has row level security enabled')
  FROM fx_tables AS t ORDER BY t.table_name;

SELECT ok((SELECT c.relforcerowsecurity FROM pg_catalog.pg_class AS c WHERE c.oid = pg_catalog.to_regclass('memory.' || t.table_name)),
          'memory.' || t.table_name || ' has row level security forced')
  FROM fx_tables AS t ORDER BY t.table_name;

SELECT table_owner_is('memory', t.table_name, 'memory_owner', 'memory.' || t.table_name || ' belongs to memory_owner')
  FROM fx_tables AS t ORDER BY t.table_name;

-- every table but memory.route_rules, the installation's routing phrases (V0018), is a tenant's
SELECT col_type_is('memory', t.table_name, 'tenant_id', 'uuid', 'memory.' || t.table_name || '.tenant_id is uuid')
  FROM fx_tables AS t WHERE t.table_name NOT IN ('route_rules', 'embedding_models') ORDER BY t.table_name;

SELECT is((SELECT a.attname
             FROM pg_catalog.pg_constraint AS k
             JOIN pg_catalog.pg_attribute AS a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
            WHERE k.conrelid = pg_catalog.to_regclass('memory.' || t.table_name) AND k.contype = 'p'),
          'tenant_id'::name,
          'tenant_id is the first column of the primary key of memory.' || t.table_name)
  FROM fx_tables AS t WHERE t.table_name NOT IN ('route_rules', 'embedding_models') ORDER BY t.table_name;

-- Keys (3): every unique and foreign key of a tenant-owned table includes tenant_id (a
-- key on values a caller chooses would let one tenant learn of another's through a
-- conflict), except a key on an identity column alone, whose values no caller chooses
-- (simulations.sim_no, the opaque number of index names); the primary keys are exactly the
-- ones the API relies on.
SELECT is_empty($$
    SELECT k.conrelid::regclass::text || ' ' || k.conname
      FROM pg_catalog.pg_constraint AS k
      JOIN pg_catalog.pg_class AS c ON c.oid = k.conrelid
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE n.nspname = 'memory' AND c.relname NOT IN ('tenants', 'route_rules', 'embedding_models') AND k.contype IN ('p', 'u', 'f')
       AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS a
                        WHERE a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
                          AND (a.attname = 'tenant_id'
                               OR (k.contype = 'u' AND pg_catalog.cardinality(k.conkey) = 1
                                   AND a.attidentity = 'a')))
$$, 'every primary, unique and foreign key of a tenant-owned table includes tenant_id, or is an identity alone');
SELECT col_is_pk('memory', 'edges', ARRAY['tenant_id', 'simulation_id', 'edge_key'],
                 'edges are keyed by tenant, simulation and the surrogate of the upstream id');
SELECT is((SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid)
             FROM pg_catalog.pg_attrdef AS d
             JOIN pg_catalog.pg_attribute AS a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
            WHERE d.adrelid = 'memory.edges'::regclass AND a.attname = 'edge_key'),
          '(md5(edge_id))::uuid',
          'the surrogate edge_key is generated from the upstream edge_id');
SELECT col_is_pk('memory', 'profiles', ARRAY['tenant_id', 'simulation_id', 'platform', 'agent_id'],
                 'profiles are keyed by tenant, simulation, platform and agent');

-- Vector columns (8): every embedding column is vector(384), and there are no others.
SELECT col_type_is('memory', 'nodes', 'embedding', 'vector(384)', 'memory.nodes.embedding is vector(384)');
SELECT col_type_is('memory', 'edges', 'embedding', 'vector(384)', 'memory.edges.embedding is vector(384)');
SELECT col_type_is('memory', 'episodes', 'embedding', 'vector(384)', 'memory.episodes.embedding is vector(384)');
SELECT col_type_is('memory', 'staged_nodes', 'embedding', 'vector(384)', 'memory.staged_nodes.embedding is vector(384)');
SELECT col_type_is('memory', 'staged_edges', 'embedding', 'vector(384)', 'memory.staged_edges.embedding is vector(384)');
SELECT col_type_is('memory', 'staged_episodes', 'embedding', 'vector(384)', 'memory.staged_episodes.embedding is vector(384)');
SELECT col_type_is('memory', 'vector_cache', 'embedding', 'vector(384)', 'memory.vector_cache.embedding is vector(384)');
SELECT is_empty($$
    SELECT c.relname || '.' || a.attname || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod)
      FROM pg_catalog.pg_attribute AS a
      JOIN pg_catalog.pg_class AS c ON c.oid = a.attrelid
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
       AND a.atttypid = 'public.vector'::regtype AND a.atttypmod <> 384
$$, 'no vector column of schema memory has a dimension other than 384');

-- The walk's indexes, the planner's statistics and the label checks (11): the walk reads edges from covering
-- indexes alone; (tenant_id, simulation_id) carry functional-dependency statistics; the
-- statistics objects and the row type of a search hit belong to memory_owner; a type label
-- longer than memory._label_max() characters is refused even without the API.
SELECT is(pg_catalog.pg_get_indexdef('memory.edges_out_idx'::regclass),
          'CREATE INDEX edges_out_idx ON memory.edges USING btree (tenant_id, simulation_id, source_key) INCLUDE (target_key, edge_key, type, valid_at, invalid_at, expired_at)',
          'edges_out_idx covers the outgoing step of the walk with bounded columns only (ids are text of any length)');
SELECT is(pg_catalog.pg_get_indexdef('memory.edges_in_idx'::regclass),
          'CREATE INDEX edges_in_idx ON memory.edges USING btree (tenant_id, simulation_id, target_key) INCLUDE (source_key, edge_key, type, valid_at, invalid_at, expired_at)',
          'edges_in_idx covers the incoming step of the walk with bounded columns only');
SELECT is_empty($$
    SELECT c.relname FROM pg_catalog.pg_class AS c
     WHERE c.relname IN ('edges_source_idx', 'edges_target_idx')
       AND c.relnamespace = 'memory'::regnamespace
$$, 'the plain edge indexes the covering ones replace are gone');
SELECT set_eq($$
    SELECT s.stxrelid::regclass::text FROM pg_catalog.pg_statistic_ext AS s
     WHERE s.stxnamespace = 'memory'::regnamespace AND 'f' = ANY (s.stxkind)  -- f: functional dependencies
       AND (SELECT pg_catalog.array_agg(a.attname ORDER BY a.attname) FROM pg_catalog.pg_attribute AS a
             WHERE a.attrelid = s.stxrelid AND a.attnum = ANY (s.stxkeys)) = ARRAY['simulation_id', 'tenant_id']::name[]
$$, $$VALUES ('memory.nodes'), ('memory.edges'), ('memory.episodes'), ('memory.profiles')$$,
    'nodes, edges, episodes and profiles have dependency statistics on (tenant_id, simulation_id)');
SELECT is_empty($$
    SELECT s.stxname FROM pg_catalog.pg_statistic_ext AS s
     WHERE s.stxnamespace = 'memory'::regnamespace AND s.stxowner <> 'memory_owner'::regrole
$$, 'every statistics object of schema memory belongs to memory_owner');
SELECT type_owner_is('memory', 'episode_hit', 'memory_owner', 'memory.episode_hit belongs to memory_owner');
SELECT col_has_check('memory', 'nodes', 'type', 'memory.nodes.type has a check (at most memory._label_max() characters)');
SELECT col_has_check('memory', 'edges', 'type', 'memory.edges.type has a check (at most memory._label_max() characters)');
SELECT col_has_check('memory', 'profiles', 'platform', 'memory.profiles.platform has a check (at most memory._label_max() characters)');
SELECT set_eq($$
    SELECT c.conrelid::regclass::text, pg_catalog.pg_get_constraintdef(c.oid) FROM pg_catalog.pg_constraint AS c
     WHERE c.conname IN ('nodes_type_length_check', 'edges_type_length_check', 'profiles_platform_length_check')
$$, $$VALUES ('memory.nodes', 'CHECK ((char_length(type) <= memory._label_max()))'),
             ('memory.edges', 'CHECK ((char_length(type) <= memory._label_max()))'),
             ('memory.profiles', 'CHECK ((char_length(platform) <= memory._label_max()))')$$,
    'the label checks read the one limit, memory._label_max()');
SELECT type_owner_is('memory', 'record_kind', 'memory_owner', 'memory.record_kind belongs to memory_owner');
SELECT type_owner_is('memory', 'recall_hit', 'memory_owner', 'memory.recall_hit belongs to memory_owner');

-- The merge of each record kind, generated on every deploy (sql/finalize/kind_merges.sql).
INSERT INTO fx_functions SELECT '_merge_' || k.kind, '{uuid,uuid,uuid,jsonb}' FROM memory._record_kinds() AS k;

-- Generated merges (1): each body is the statement memory._merge_sql builds from the catalog
-- now, for an attempt's rows and for a batch.
SELECT is_empty($$
    SELECT k.kind FROM memory._record_kinds() AS k
     WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_proc AS p
                        WHERE p.oid = pg_catalog.to_regprocedure(pg_catalog.format('memory.%I(uuid,uuid,uuid,jsonb)', '_merge_' || k.kind))
                          AND pg_catalog.strpos(p.prosrc, memory._merge_sql(k.kind, true)) > 0
                          AND pg_catalog.strpos(p.prosrc, memory._merge_sql(k.kind, false)) > 0)
$$, 'every record kind has its generated merge, and its statements are those of the catalog now');

-- Functions (1 + 130 x 3 = 391)
SELECT functions_are('memory', ARRAY(SELECT DISTINCT fn FROM fx_functions),
                     'schema memory has exactly the functions of the API and its helpers');

SELECT function_owner_is('memory', f.fn, f.args, 'memory_owner',
                         pg_catalog.format('memory.%s(%s) belongs to memory_owner', f.fn, pg_catalog.array_to_string(f.args, ', ')))
  FROM fx_functions AS f ORDER BY f.fn;

SELECT is((SELECT p.prosecdef FROM pg_catalog.pg_proc AS p
            WHERE p.oid = pg_catalog.to_regprocedure(pg_catalog.format('memory.%s(%s)', f.fn, pg_catalog.array_to_string(f.args, ',')))),
          f.fn IN (SELECT d.fn FROM fx_definers AS d),
          pg_catalog.format(CASE WHEN f.fn IN (SELECT d.fn FROM fx_definers AS d)
                                 THEN 'memory.%s(%s) is SECURITY DEFINER' ELSE 'memory.%s(%s) is SECURITY INVOKER' END,
                            f.fn, pg_catalog.array_to_string(f.args, ', ')))
  FROM fx_functions AS f ORDER BY f.fn;

SELECT ok(COALESCE((SELECT 'search_path=pg_catalog, pg_temp' = ANY (p.proconfig) FROM pg_catalog.pg_proc AS p
                     WHERE p.oid = pg_catalog.to_regprocedure(pg_catalog.format('memory.%s(%s)', f.fn, pg_catalog.array_to_string(f.args, ',')))),
                   false),
          pg_catalog.format('memory.%s(%s) pins search_path = pg_catalog, pg_temp', f.fn, pg_catalog.array_to_string(f.args, ', ')))
  FROM fx_functions AS f ORDER BY f.fn;

-- The functions whose plans are generic on one node (made once a session: their statements'
-- shape is fixed, so planning each call's values buys nothing); on a Citus cluster
-- memory._use_custom_plans resets them (tests/citus/test_cluster.py).
SELECT set_eq($$
    SELECT p.proname::text FROM pg_catalog.pg_proc AS p
     WHERE p.pronamespace = 'memory'::regnamespace AND 'plan_cache_mode=force_generic_plan' = ANY (p.proconfig)
$$, ARRAY['neighbors', 'neighbor_ids', 'facts', '_search_words', '_recall_graph', '_search_facts', '_name_candidates'],
   'the walks, facts, the words arm, recall''s graph arm, the facts'' ranking and name matching ask for generic plans, and no other function');

-- Privileges of PUBLIC (3): nothing of schema memory is open to every role.
SELECT is_empty($$
    SELECT p.oid::regprocedure::text
      FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
     WHERE n.nspname = 'memory' AND pg_catalog.has_function_privilege('public', p.oid, 'EXECUTE')
$$, 'PUBLIC may execute no function of schema memory');
SELECT is_empty($$
    SELECT c.oid::regclass::text
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE n.nspname = 'memory' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
       AND pg_catalog.has_table_privilege('public', c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
$$, 'PUBLIC holds no privilege on any table of schema memory');
SELECT ok(NOT pg_catalog.has_schema_privilege('public', 'memory', 'USAGE'), 'PUBLIC has no USAGE on schema memory');

-- Function privileges by group (8): readers read, writers write, admins administer.
SELECT ok(pg_catalog.has_function_privilege('memory_reader', 'memory.neighbors(uuid,uuid,text,integer,text[],text,timestamptz,timestamptz,boolean,integer,integer,text)', 'EXECUTE'),
          'memory_reader may call neighbors');
SELECT ok(pg_catalog.has_function_privilege('memory_reader', 'memory.search_episodes(uuid,uuid,public.vector,integer,integer,integer,integer,timestamptz,timestamptz,boolean,text,text)', 'EXECUTE'),
          'memory_reader may call search_episodes');
SELECT ok(NOT pg_catalog.has_function_privilege('memory_reader', 'memory.upsert_nodes(uuid,uuid,jsonb)', 'EXECUTE'),
          'memory_reader may not call upsert_nodes');
SELECT ok(NOT pg_catalog.has_function_privilege('memory_reader', 'memory.delete_simulation(uuid,uuid)', 'EXECUTE'),
          'memory_reader may not call delete_simulation');
SELECT ok(pg_catalog.has_function_privilege('memory_writer', 'memory.upsert_edges(uuid,uuid,jsonb,boolean)', 'EXECUTE'),
          'memory_writer may call upsert_edges');
SELECT ok(NOT pg_catalog.has_function_privilege('memory_writer', 'memory.grant_tenant(name,uuid)', 'EXECUTE'),
          'memory_writer may not call grant_tenant');
SELECT ok(NOT pg_catalog.has_function_privilege('memory_writer', 'memory.rls_audit()', 'EXECUTE'),
          'memory_writer may not call rls_audit');
SELECT ok(pg_catalog.has_function_privilege('memory_admin', 'memory.create_tenant(text,uuid)', 'EXECUTE'),
          'memory_admin may call create_tenant');

SELECT * FROM finish();
ROLLBACK;
