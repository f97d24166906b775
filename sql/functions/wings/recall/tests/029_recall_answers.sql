/* pgmigrate-encoding: utf-8 */
-- 029_recall_answers: recall on a simulation without a graph is never empty, copies of a
-- post fold into one row that counts them, "more like this" leaves the post and its copies
-- out, the agents a question names get an arm of their own, and the words arm's rows carry
-- their trust. Vectors are the fixtures' fx.vec(k) (a 1 at position k): the rules, not the
-- model, are under test here; bench/answers.py measures the answers with the real models.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(24);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'c1', 'agent_id', 1, 'agent_name', 'Alice Wong', 'action_type', 'CREATE_POST',
                                  'content', 'Save River Road! Ban the cars.', 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'c2', 'agent_id', 2, 'agent_name', 'Bob Li', 'action_type', 'CREATE_POST',
                                  'content', 'Save River Road! Ban the cars.', 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'c3', 'agent_id', 3, 'agent_name', '刘芳', 'action_type', 'CREATE_POST',
                                  'content', 'Save River Road! Ban the cars.', 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'd1', 'agent_id', 2, 'agent_name', 'Bob Li', 'action_type', 'CREATE_POST',
                                  'content', 'The shops will suffer without parking', 'embedding', fx.emb(2)),
    pg_catalog.jsonb_build_object('id', 'd2', 'agent_id', 1, 'agent_name', 'Alice Wong', 'action_type', 'CREATE_POST',
                                  'content', 'Parking matters to the market traders', 'embedding', fx.emb(3)),
    pg_catalog.jsonb_build_object('id', 'd3', 'agent_id', 3, 'agent_name', '刘芳', 'action_type', 'CREATE_POST',
                                  'content', '河滨路应该禁止汽车', 'embedding', fx.emb(4)),
    -- a question and its reply, one after the other in round 1 of one platform
    pg_catalog.jsonb_build_object('id', 't1', 'agent_id', 1, 'agent_name', 'Alice Wong', 'action_type', 'CREATE_COMMENT',
                                  'platform', 'reddit', 'round', 1, 'occurred_at', '2025-06-01T10:00:00Z',
                                  'content', 'Where did you go on Saturday?', 'embedding', fx.emb(5)),
    pg_catalog.jsonb_build_object('id', 't2', 'agent_id', 2, 'agent_name', 'Bob Li', 'action_type', 'CREATE_COMMENT',
                                  'platform', 'reddit', 'round', 1, 'occurred_at', '2025-06-01T10:01:00Z',
                                  'content', 'To the old quay market', 'embedding', fx.emb(6)),
    -- an action that said nothing of its own: a follow, stored as a sentence of names
    pg_catalog.jsonb_build_object('id', 'f1', 'agent_id', 2, 'agent_name', 'Bob Li', 'action_type', 'FOLLOW',
                                  'content', 'Bob Li followed Alice Wong',
                                  'metadata', '{"action_args": {"follow_id": 1}}'::jsonb)));
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION reader_a;
-- Never empty (3): "who" routes to the graph, which this simulation does not have
SELECT is((SELECT r.target FROM memory.route('Who painted the Mona Lisa?') AS r), 'graph', 'a who-question routes to the graph');
SELECT ok((SELECT pg_catalog.count(*) FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Who painted the Mona Lisa?', fx.vec(2))) > 0,
          'a simulation without a graph still answers a who-question');
SELECT ok((SELECT pg_catalog.bool_and(r.why LIKE '%episodes #%') FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Who painted the Mona Lisa?', fx.vec(2)) AS r
            WHERE r.kind = 'episode'),
          'every route reaches the episodes arm');

-- Copies (5)
SELECT results_eq($$SELECT r.id, r.copies, r.agents FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Ban the cars on River Road', fx.vec(1), 10,
                                                                          '{"arms": ["episodes", "words"]}') AS r
                    WHERE r.id IN ('c1', 'c2', 'c3')$$,
                  $$VALUES ('c1'::text, 3, 3)$$,
                  'three copies of a post fold into one row that counts them and their agents');
SELECT is((SELECT pg_catalog.count(*)::integer FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Ban the cars on River Road', fx.vec(1), 10,
                                                                   '{"arms": ["episodes", "words"], "collapse": false}') AS r
            WHERE r.id IN ('c1', 'c2', 'c3')), 3, 'collapse false answers every copy');
SELECT is((SELECT r.copies FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'parking shops', fx.vec(2), 10) AS r WHERE r.id = 'd1'),
          1, 'a post without copies counts itself');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'x', NULL, 10, '{"collapse": "yes"}')$$,
                 '22023', NULL, 'collapse must be true or false: 22023');
SELECT is((SELECT pg_catalog.count(*)::integer FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Ban the cars', fx.vec(1), 10, '{"kinds": ["fact"]}')),
          0, 'kinds still narrows the folded answer');

-- More like this (6)
SELECT is((SELECT pg_catalog.count(*)::integer FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, NULL, 10, '{"like": "c1"}') AS r
            WHERE r.id IN ('c1', 'c2', 'c3')), 0, 'more like this leaves the post and its copies out');
SELECT ok((SELECT pg_catalog.count(*) FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, NULL, 10, '{"like": "c1"}')) > 0,
          'more like this answers the other posts');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(1), 10, '{"like": "c1"}')$$,
                 '22023', NULL, 'a vector and like together: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, NULL, 10, '{"like": 7}')$$,
                 '22023', NULL, 'like must be an episode id: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, NULL, 10, '{"like": "nope"}')$$,
                 'P0002', NULL, 'like an unknown episode: P0002');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_b(), fx.sim_b(), NULL, NULL, 10, '{"like": "c1"}')$$,
                 '42501', NULL, 'like in another tenant: 42501');

-- The agents a question names (4)
SELECT results_eq($$SELECT a.agent_name FROM memory._named_agents(fx.tenant_a(), fx.sim_a(), 'What did bob li say about parking?', 3) AS a$$,
                  $$VALUES ('Bob Li'::text)$$, 'an agent named in any case, as whole words');
SELECT is_empty($$SELECT 1 FROM memory._named_agents(fx.tenant_a(), fx.sim_a(), 'What did Bob Lin say?', 3)$$,
                'a name inside a longer word is no name');
SELECT results_eq($$SELECT a.agent_name FROM memory._named_agents(fx.tenant_a(), fx.sim_a(), '刘芳说了什么？', 3) AS a$$,
                  $$VALUES ('刘芳'::text)$$, 'a Chinese name wherever it occurs');
SELECT ok((SELECT r.why FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'What did Alice Wong say about parking?', fx.vec(3)) AS r
            WHERE r.id = 'd2') LIKE '%agents #1%Alice Wong%',
          'the named agent''s episodes are an arm of their own');

-- The context: the turns around the best episodes, asked for by weight (3)
SELECT is((SELECT r.ranks -> 'context' ->> 'rank' FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(5), 10,
                                                                     '{"arms": ["episodes", "context"], "weights": {"context": 1}}') AS r
            WHERE r.id = 't2'), '1', 'the reply to the best episode is its context, ranked as it is');
SELECT is((SELECT r.why FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(5), 10,
                                           '{"arms": ["episodes", "context"], "weights": {"context": 1}}') AS r
            WHERE r.id = 't2') LIKE '%context #1%via t1%', true, 'why names the episode a context row surrounds');
SELECT is_empty($$SELECT 1 FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Where did you go?', fx.vec(5)) AS r WHERE r.ranks ? 'context'$$,
                'without a context weight no context is read');

-- What the words and graph arms answer (2)
SELECT results_eq($$SELECT w.id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'Bob Li followed Alice Wong', 10, ARRAY['episode']) AS w
                    WHERE w.id = 'f1'$$,
                  $$VALUES ('f1'::text)$$, 'the words find a follow by its sentence');
SELECT is_empty($$SELECT 1 FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Bob Li followed Alice Wong', NULL) AS r WHERE r.id = 'f1'$$,
                'recall''s words and graph arms answer only actions that said something');

-- The words arm's trust (1)
SELECT ok((SELECT pg_catalog.bool_and((r.ranks -> 'words' ->> 'trust')::float8 > 0 AND (r.ranks -> 'words' ->> 'trust')::float8 <= 1)
             FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'parking shops suffer', NULL) AS r WHERE r.ranks ? 'words'),
          'each words row carries its trust, in (0, 1]');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
