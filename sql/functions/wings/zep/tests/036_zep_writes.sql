-- 036_zep_writes: graphs written through the service (wing zep). graph.create makes a graph
-- once; an ontology is replaced whole and checked; added episodes are committed, searchable
-- and queued, all or none, a retried add with its time changing nothing; the queue hands the
-- oldest episode out once, takes a result back only from the claim it gave, records a
-- failure and retries it; an extraction resolves names against the graph, refuses what does
-- not fit the ontology, ends the facts it contradicts (kept, ended), links its evidence and
-- marks the episode processed, once. Another tenant sees none of it. The service and a real
-- model over these functions: tests/test_zep_writes.py.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(37);

-- Graphs (6)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT created FROM memory.zep_create_graph(fx.tenant_a(), 'mirofish_w1', 'Run one', 'a run')), true,
          'graph.create makes a graph');
SELECT is((SELECT ROW(created, graph ->> 'name', graph ->> 'graph_id')::text
             FROM memory.zep_create_graph(fx.tenant_a(), 'mirofish_w1', 'Run one', 'a run')),
          '(f,"Run one",mirofish_w1)', 'creating it again returns it, made nothing');
SELECT is((SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'mirofish_w1')),
          (SELECT simulation_id FROM memory.zep_create_graph(fx.tenant_a(), 'mirofish_w1')), 'its graph_id names it');
SELECT throws_ok($$SELECT * FROM memory.zep_create_graph(fx.tenant_a(), 'no spaces!')$$, '22023', NULL,
                 'a graph_id that is not an id is refused');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT * FROM memory.zep_create_graph(fx.tenant_a(), 'mirofish_r')$$, '42501', NULL,
                 'a reader makes no graph');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.zep_graph(fx.tenant_b(), 'mirofish_w1')$$, 'P0002', NULL,
                 'another tenant''s graph is unknown to B');
RESET SESSION AUTHORIZATION;

-- Ontology (5)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is(memory.zep_set_ontology(fx.tenant_a(), ARRAY['mirofish_w1'],
    '[{"name": "Person", "description": "a person", "properties": [{"name": "role", "type": "Text", "description": "r"}]},
      {"name": "Organization", "description": "an organisation"}]',
    '[{"name": "WORKS_FOR", "description": "employment", "source_targets": [{"source": "Person", "target": "Organization"}]},
      {"name": "SUPPORTS", "description": "support"}]'), 1, 'set_ontology sets a graph''s types');
SELECT throws_like($$SELECT memory.zep_set_ontology(fx.tenant_a(), ARRAY['mirofish_w1'], '[{"name": "Person"}]',
                     '[{"name": "LIKES", "source_targets": [{"source": "Person", "target": "Planet"}]}]')$$,
                   '%joins Planet, which is not an entity type%', 'an edge type joining an unknown entity type is refused');
SELECT throws_ok($$SELECT memory.zep_set_ontology(fx.tenant_a(), ARRAY['mirofish_w1'],
                     (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', 'T' || i)) FROM generate_series(1, 11) AS i), '[]')$$,
                 '22023', NULL, 'more than 10 entity types are refused');
SELECT throws_ok($$SELECT memory.zep_set_ontology(fx.tenant_a(), ARRAY['mirofish_w1', 'no-such-graph'], '[]', '[]')$$,
                 'P0002', NULL, 'one unknown graph among them: P0002');
SELECT is((SELECT pg_catalog.jsonb_array_length(o -> 'entity_types') || '/' || pg_catalog.jsonb_array_length(o -> 'edge_types')
             FROM memory.zep_ontology(fx.tenant_a(), 'mirofish_w1') AS o), '2/2', 'and the ontology set before is the one kept');

-- Episodes (9)
SELECT is((SELECT pg_catalog.count(*) FROM memory.zep_add_episodes(fx.tenant_a(), 'mirofish_w1',
    '[{"data": "Alice works for Acme.", "type": "text"},
      {"data": "Bob joined Acme in 2021.", "type": "text", "created_at": "2024-03-01T10:00:00Z", "source_description": "news"}]')
          AS e WHERE e ->> 'status' = 'queued' AND NOT (e ->> 'processed')::boolean), 2::bigint,
          'add_batch answers its episodes queued, not processed');
SELECT is((SELECT pg_catalog.count(*) FROM memory.episodes(p_tenant_id => fx.tenant_a(),
              p_simulation_id => (SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'mirofish_w1')))
            WHERE content = 'Alice works for Acme.'), 1::bigint, 'an added episode is an episode of the graph at once');
SELECT is((SELECT pg_catalog.count(*) FROM memory.search_words(fx.tenant_a(),
              (SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'mirofish_w1')), 'Acme')), 2::bigint,
          'and found by its words at once');
SELECT is((SELECT e ->> 'sequence_index' FROM memory.zep_add_episodes(fx.tenant_a(), 'mirofish_w1',
              '[{"data": "Bob joined Acme in 2021.", "type": "text", "created_at": "2024-03-01T10:00:00Z", "source_description": "news"}]') AS e),
          (SELECT e ->> 'sequence_index' FROM memory.zep_graph_episodes(fx.tenant_a(), 'mirofish_w1') AS e
            WHERE e ->> 'content' LIKE 'Bob%'), 'an add retried with its time is the same episode');
SELECT is((SELECT pg_catalog.count(*) FROM memory.zep_graph_episodes(fx.tenant_a(), 'mirofish_w1')), 2::bigint,
          'and adds nothing');
SELECT throws_like($$SELECT * FROM memory.zep_add_episodes(fx.tenant_a(), 'mirofish_w1',
                     '[{"data": "fine"}, {"data": " ", "type": "text"}]')$$,
                   '%"data" must be a non-empty string (episode 2)%', 'an empty episode is refused, naming it');
SELECT throws_ok($$SELECT * FROM memory.zep_add_episodes(fx.tenant_a(), 'mirofish_w1',
                     (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('data', 'x' || i)) FROM generate_series(1, 21) AS i))$$,
                 '54000', NULL, 'more than 20 episodes a call are refused');
SELECT is((SELECT pg_catalog.count(*) FROM memory.zep_graph_episodes(fx.tenant_a(), 'mirofish_w1')), 2::bigint,
          'a refused batch wrote nothing');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT memory.zep_add_episodes(fx.tenant_b(), 'mirofish_w1', '[{"data": "intruder"}]')$$,
                 'P0002', NULL, 'B adds nothing to A''s graph: it is unknown to B');
RESET SESSION AUTHORIZATION;

-- The queue and extraction (17)
SET LOCAL SESSION AUTHORIZATION app_a;
CREATE TEMP TABLE claim1 ON COMMIT DROP AS SELECT * FROM memory.zep_claim_episodes(fx.tenant_a(), 1);
SELECT is((SELECT content || ' #' || attempt FROM claim1), 'Alice works for Acme. #1', 'the oldest episode is claimed first');
SELECT is((SELECT content FROM memory.zep_claim_episodes(fx.tenant_a(), 5)), 'Bob joined Acme in 2021.',
          'a claimed episode is not handed out again while its claim lasts');
SELECT throws_ok($$SELECT memory.zep_apply_extraction(fx.tenant_a(), (SELECT episode_uuid FROM claim1), 2, '{}')$$,
                 '55000', NULL, 'a result of another attempt than the claim''s is refused');
SELECT is(memory.zep_apply_extraction(fx.tenant_a(), (SELECT episode_uuid FROM claim1), 1,
    '{"entities": [{"name": "Alice", "type": "Person", "summary": "an engineer"}, {"name": "Acme", "type": "Organization"},
                   {"name": "Zed", "type": "Planet"}],
      "facts": [{"source": "Alice", "target": "Acme", "type": "WORKS_FOR", "fact": "Alice works for Acme", "valid_at": "2020-01-01"},
                {"source": "Acme", "target": "Alice", "type": "WORKS_FOR", "fact": "the wrong way round"},
                {"source": "Alice", "target": "Nobody", "type": "SUPPORTS", "fact": "Alice supports nobody"},
                {"source": "Alice", "target": "Acme", "type": "LIKES", "fact": "Alice likes Acme"}]}') - 'status',
          '{"refused": 4, "facts_ended": 0, "facts_merged": 0, "facts_created": 1, "entities_created": 2, "entities_resolved": 0}'::jsonb,
          'an extraction commits what fits the ontology and refuses the rest');
SELECT is((SELECT pg_catalog.jsonb_agg(r ->> 'why' ORDER BY r ->> 'why')
             FROM pg_catalog.jsonb_array_elements(memory.zep_episode(fx.tenant_a(), (SELECT episode_uuid FROM claim1)) -> 'refused') AS r),
          '["edge type WORKS_FOR may not join these entity types (its source_targets)", "target Nobody is not an entity of the text or the graph", "type LIKES is not an edge type of the ontology", "type Planet is not an entity type of the ontology"]'::jsonb,
          'what was refused is on the episode, with why');
SELECT is(memory.zep_episode(fx.tenant_a(), (SELECT episode_uuid FROM claim1)) ->> 'processed', 'true',
          'the episode is processed once its extraction committed');
SELECT is(memory.zep_apply_extraction(fx.tenant_a(), (SELECT episode_uuid FROM claim1), 1, '{"entities": [{"name": "Other"}]}') ->> 'status',
          'already', 'an extraction applied again changes nothing');
SELECT is((SELECT pg_catalog.count(*) FROM memory.nodes_named(fx.tenant_a(),
              (SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'mirofish_w1')), 'Other')), 0::bigint, 'nothing');
SELECT is((SELECT e ->> 'episodes' FROM memory.zep_edges(fx.tenant_a(), 'mirofish_w1') AS e),
          pg_catalog.jsonb_build_array((SELECT episode_uuid FROM claim1))::text, 'a fact names its episode, as Zep''s episodes');
SELECT results_eq($$SELECT kind, resolved FROM memory.evidence(fx.tenant_a(),
                      (SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'mirofish_w1')),
                      (SELECT e ->> 'uuid' FROM memory.zep_edges(fx.tenant_a(), 'mirofish_w1') AS e))$$,
                  $$VALUES ('source'::text, true), ('mention', true)$$,
                  'and its evidence is the episode, resolved: its source, and an action naming both its entities');

-- the second episode: a failure, its retry, then an extraction that resolves and contradicts
CREATE TEMP TABLE claim2 ON COMMIT DROP AS
SELECT (e ->> 'uuid')::uuid AS episode_uuid
  FROM memory.zep_graph_episodes(fx.tenant_a(), 'mirofish_w1') AS e WHERE e ->> 'content' LIKE 'Bob%';
SELECT is(memory.zep_fail_extraction(fx.tenant_a(), (SELECT episode_uuid FROM claim2), 1, 'the model endpoint answered 503'),
          true, 'a failed extraction is recorded');
SELECT is((SELECT ROW(e ->> 'status', e ->> 'error', e ->> 'processed')::text
             FROM pg_catalog.jsonb_array_elements(pg_catalog.jsonb_build_array(memory.zep_episode(fx.tenant_a(), (SELECT episode_uuid FROM claim2)))) AS e),
          '(failed,"the model endpoint answered 503",false)', 'the failure is visible on the episode');
SELECT is_empty($$SELECT * FROM memory.zep_claim_episodes(fx.tenant_a(), 5)$$, 'a failed episode waits before its retry');
SELECT is(memory.zep_retry_episodes(fx.tenant_a(), 'mirofish_w1'), 1::bigint, 'retry queues it again');
CREATE TEMP TABLE claim3 ON COMMIT DROP AS SELECT * FROM memory.zep_claim_episodes(fx.tenant_a(), 5);
SELECT is((SELECT pg_catalog.jsonb_array_length(context -> 'facts') FROM
             (SELECT memory.zep_extraction_context(fx.tenant_a(), c.simulation_id, 'ALICE still at acme?') AS context FROM claim3 AS c) AS x),
          1, 'the context of a text holds the current facts of the entities it names');
SELECT is(memory.zep_apply_extraction(fx.tenant_a(), (SELECT episode_uuid FROM claim3), (SELECT attempt FROM claim3),
    pg_catalog.jsonb_build_object(
        'entities', '[{"name": "bob", "type": "Person"}, {"name": "alice", "type": "Person"}, {"name": "ACME", "type": "Organization"}]'::jsonb,
        'facts', pg_catalog.jsonb_build_array(
            pg_catalog.jsonb_build_object('source', 'bob', 'target', 'acme', 'type', 'WORKS_FOR', 'fact', 'Bob works for Acme',
                                          'valid_at', '2021-01-01', 'invalid_at', 'someday'),
            pg_catalog.jsonb_build_object('source', 'Alice', 'target', 'Acme', 'type', 'SUPPORTS', 'fact', 'Alice left Acme and supports it',
                                          'valid_at', '2024-03-01',
                                          'ends', (SELECT pg_catalog.jsonb_agg(e ->> 'uuid') FROM memory.zep_edges(fx.tenant_a(), 'mirofish_w1') AS e))))) - 'status',
          '{"refused": 1, "facts_ended": 1, "facts_merged": 0, "facts_created": 2, "entities_created": 1, "entities_resolved": 2}'::jsonb,
          'names resolve against the graph in any case; a fact ends the fact it contradicts');
SELECT results_eq($$SELECT e ->> 'fact', e ->> 'invalid_at', e ->> 'expired_at' IS NOT NULL
                      FROM memory.zep_edges(fx.tenant_a(), 'mirofish_w1') AS e ORDER BY e ->> 'fact'$$,
                  $$VALUES ('Alice left Acme and supports it', NULL, false),
                           ('Alice works for Acme', '2024-03-01T00:00:00.000000Z', true),
                           ('Bob works for Acme', NULL, false)$$,
                  'the ended fact is kept, invalid from the new fact''s valid_at, expired now; a bad time is dropped');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
