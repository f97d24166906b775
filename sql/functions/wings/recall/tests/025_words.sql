/* pgmigrate-encoding: utf-8 */
-- 025_words: the words arm (issue 12, item 1): full-text search over episodes, facts and
-- entities with a ranking, English stemmed and Chinese as character bigrams; trigram
-- matching of entity names (misspellings, a Chinese name inside a Chinese sentence); query
-- syntax in the text read as words; bad input; tenants isolated.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(56);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "plan", "name": "河滨路改造计划", "type": "Policy", "summary": "把河滨路改成步行街的计划"},
      {"id": "sofia", "name": "Sofia Lindqvist", "type": "Person", "summary": "Transport reporter of the Harbourton Courier"},
      {"id": "road", "name": "River Road", "type": "Location", "summary": "A road along the river"},
      {"id": "cafe", "name": "Quayside Cafe", "type": "Business"},
      {"id": "li", "name": "李华", "type": "Person", "summary": "小店店主"}]');
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(),
    '[{"id": "f1", "type": "OPPOSES", "source_id": "li", "target_id": "plan", "fact": "李华反对河滨路改造计划"},
      {"id": "f2", "type": "COVERS", "source_id": "sofia", "target_id": "road", "fact": "Sofia Lindqvist covers the closure of River Road"}]');
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e1", "action_type": "CREATE_POST", "content": "Closing River Road to cars will hurt the small shops"},
      {"id": "e2", "action_type": "CREATE_POST", "content": "The road was closed for the marathon"},
      {"id": "e3", "action_type": "CREATE_POST", "content": "Cars, cars, cars: nothing else"},
      {"id": "e4", "action_type": "CREATE_POST", "content": "我认为河滨路改造计划会伤害附近的小店"},
      {"id": "e5", "action_type": "CREATE_POST", "content": "河滨公园今天人很多"},
      {"id": "e6", "action_type": "CREATE_POST", "content": "周末去河滨路散步"},
      {"id": "e7", "action_type": "CREATE_POST", "content": "the cafe reopens"},
      {"id": "e8", "action_type": "CREATE_POST", "content": "the cafe reopens"},
      {"id": "e9", "action_type": "LIKE_POST"},
      {"id": "e10", "action_type": "CREATE_POST", "content": "a & b | !x foo:* <-> ''q''"}]');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT memory.upsert_episodes(fx.tenant_b(), fx.sim_b(),
    '[{"id": "b1", "action_type": "CREATE_POST", "content": "Closing River Road to cars, says tenant B"}]');
RESET SESSION AUTHORIZATION;

SET LOCAL SESSION AUTHORIZATION reader_a;
-- English: stemming, ranking by words matched, then cover density (6)
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'closing the road to cars', 3, '{episode}')$$,
                  ARRAY['e1', 'e2', 'e3'],
                  'by words matched: three, two (closed stems to close), one (cars, however often)');
SELECT results_eq($$SELECT matched FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'closing the road to cars', 1, '{episode}')$$,
                  ARRAY['closing road cars'], 'matched lists the question''s words the row holds (stop words dropped)');
SELECT ok((SELECT bool_and(score > 0 AND score <= 1) FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'closing the road to cars', 100)),
          'scores lie in (0, 1]');
SELECT results_eq($$SELECT kind, id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'River Road closure', 2, '{fact,entity}')$$,
                  $$VALUES ('entity', 'road'), ('fact', 'f2')$$,
                  'entities by node id, facts by edge id; the entity the question names first, then the fact holding every word');
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'the cafe reopens', 10, '{episode}')$$,
                  ARRAY['e7', 'e8'], 'equal scores in id order');
SELECT is((SELECT count(*) FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'cars', 0)), 1::bigint, 'top_k 0 behaves as 1');

-- Chinese: bigrams, no word boundaries (5)
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), '河滨路改造', 10, '{episode}')$$,
                  ARRAY['e4', 'e6', 'e5'],
                  'the post with the whole phrase first, then the one with 河滨路, then 河滨 alone');
SELECT results_eq($$SELECT matched FROM memory.search_words(fx.tenant_a(), fx.sim_a(), '河滨路改造', 1, '{episode}')$$,
                  ARRAY['河滨 滨路 路改 改造'], 'matched lists the bigrams found');
SELECT results_eq($$SELECT kind, id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), '谁反对河滨路改造计划？', 2, '{fact,entity}')$$,
                  $$VALUES ('entity', 'plan'), ('fact', 'f1')$$,
                  'a Chinese question finds the entity it names and the fact about it');
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), '小店 shops', 10, '{episode}')$$,
                  ARRAY['e1', 'e4'], 'Chinese and English words in one question');
SELECT is_empty($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), '上海', 10)$$,
                'a Chinese word no row holds finds nothing');

-- Names: trigram matching (6)
SELECT results_eq($$SELECT node_id, similarity FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), 'what did Sofia Lindqvist write about the road?', 1)$$,
                  $$VALUES ('sofia', 1::real)$$, 'a name inside a sentence: similarity 1');
SELECT results_eq($$SELECT node_id FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), 'what did sofia lindqvst say', 10)$$,
                  ARRAY['sofia'], 'a misspelt name is still matched, and nothing else');
SELECT results_eq($$SELECT node_id, similarity FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), '我觉得河滨路改造计划会伤害小店', 10)$$,
                  $$VALUES ('plan', 1::real)$$, 'a Chinese name inside a Chinese sentence: similarity 1');
SELECT results_eq($$SELECT node_id FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), '李华和河滨路', 10)$$,
                  ARRAY['li'], 'a two-character Chinese name; a partial name (河滨路 of 河滨路改造计划) below the threshold');
SELECT results_eq($$SELECT kind, id, matched FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'Lindqvst', 1)$$,
                  $$VALUES ('entity', 'sofia', '~Sofia Lindqvist')$$, 'search_words finds an entity by a misspelt name');
SELECT is_empty($$SELECT * FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), 'nothing like any name', 10)$$,
                'no name, no match');

-- Query syntax is words (6)
SELECT results_eq($$SELECT id, score FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'road & cars', 10)$$,
                  $$SELECT id, score FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'road cars', 10)$$,
                  '''&'' is punctuation: the same as the words alone');
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), '!road', 10, '{episode}')$$,
                  ARRAY['e2', 'e1'], '''!road'' finds road, it negates nothing');
SELECT is_empty($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'caf:*', 10, '{episode,fact}')$$,
                '''caf:*'' is the word caf, not a prefix of cafe (only a name, by trigrams, takes a part of a word)');
SELECT lives_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), $q$'unclosed "quote ( <-> | :A \ $q$, 10)$$,
                'quotes, parentheses, operators and a backslash do not raise');
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), $q$foo:* ''q'' <->$q$, 10)$$,
                  ARRAY['e10'], 'the words of a text full of operators are found');
SELECT is_empty($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'the & | !', 10)$$,
                'stop words and operators alone find nothing (no error)');

-- The words index (V0020): memory.word_postings is exactly the rows' words after inserts,
-- updates of the text and deletes, on every write path (8)
RESET SESSION AUTHORIZATION;
CREATE TEMP VIEW fx_postings_due AS
SELECT x.tenant_id, x.simulation_id, u.lexeme AS word, 'e'::"char" AS kind, x.episode_key AS row_key,
       pg_catalog.cardinality(u.positions)::smallint AS tf, pg_catalog.length(memory._words_doc(x.content))::smallint AS doc_len
  FROM memory.episodes AS x CROSS JOIN LATERAL pg_catalog.unnest(memory._words_doc(x.content)) AS u WHERE x.content IS NOT NULL
UNION ALL
SELECT x.tenant_id, x.simulation_id, u.lexeme, 'f', x.edge_key, pg_catalog.cardinality(u.positions), pg_catalog.length(memory._words_doc(x.fact))
  FROM memory.edges AS x CROSS JOIN LATERAL pg_catalog.unnest(memory._words_doc(x.fact)) AS u WHERE x.fact IS NOT NULL
UNION ALL
SELECT x.tenant_id, x.simulation_id, u.lexeme, 'n', x.node_key, pg_catalog.cardinality(u.positions), pg_catalog.length(memory._words_doc(x.name, x.summary))
  FROM memory.nodes AS x CROSS JOIN LATERAL pg_catalog.unnest(memory._words_doc(x.name, x.summary)) AS u
UNION ALL
SELECT x.tenant_id, x.simulation_id, g, 't', x.node_key, 1, pg_catalog.cardinality(memory._name_trigrams(x.name))
  FROM memory.nodes AS x CROSS JOIN LATERAL pg_catalog.unnest(memory._name_trigrams(x.name)) AS g;
SELECT set_eq($$SELECT tenant_id, simulation_id, word, kind, row_key, tf, doc_len FROM memory.word_postings$$,
              $$SELECT * FROM fx_postings_due$$, 'after the inserts: the postings are the rows'' words, nothing more');
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "e2", "action_type": "CREATE_POST", "content": "The bridge was reopened"}]');
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "road", "name": "River Street", "type": "Location", "summary": "A street along the river"}]');
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000d1e7', 'to delete');
SELECT memory.upsert_episodes(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000d1e7',
    '[{"id": "d1", "action_type": "CREATE_POST", "content": "a marathon of words"}]');
RESET SESSION AUTHORIZATION;
SELECT set_eq($$SELECT tenant_id, simulation_id, word, kind, row_key, tf, doc_len FROM memory.word_postings$$,
              $$SELECT * FROM fx_postings_due$$, 'after upserts that changed the text: the old words gone, the new ones there');
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.delete_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000d1e7');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT count(*) FROM memory.word_postings WHERE simulation_id = 'aaaaaaaa-0000-4000-8000-00000000d1e7'), 0::bigint,
          'a deleted simulation leaves no postings');
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'bridge', 10, '{episode}')$$,
                  ARRAY['e2'], 'the new text is found');
SELECT is_empty($$SELECT id FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'marathon', 10, '{episode}')$$,
                'the old text is not');
SELECT results_eq($$SELECT node_id, similarity FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), 'walking down River Street', 1)$$,
                  $$VALUES ('road', 1::real)$$, 'a renamed entity is matched by its new name');
SELECT is((SELECT count(DISTINCT tenant_id) FROM memory.word_postings), 1::bigint, 'a reader sees only its tenant''s postings');
-- the trigram candidates give exactly what comparing every name gives
SELECT results_eq($$SELECT node_id, similarity FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), 'sofia lindqvst, li hua and 李华 on the plan', 1000)$$,
                  $$SELECT m.node_id, m.similarity FROM (SELECT n.node_id, memory._name_match(n.name, lower(memory._words_text('sofia lindqvst, li hua and 李华 on the plan'))) AS similarity
                                                          FROM memory.nodes AS n WHERE n.tenant_id = fx.tenant_a() AND n.simulation_id = fx.sim_a()) AS m
                     WHERE m.similarity IS NOT NULL ORDER BY m.similarity DESC, m.node_id$$,
                  'match_entities through the trigram postings = every name compared');

-- Names tied at the p_limit-th similarity are all candidates, and match_entities breaks the
-- tie by node id (ten names at 0.8 for 'Entity 2': a ratio as a double below the same as a
-- real once stopped the comparing at the first tie, leaving an arbitrary part of them) (2)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e5', 'ties');
SELECT memory.upsert_nodes(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e5',
    (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('id', 'n-' || i, 'name', 'Entity ' || i, 'type', 'Thing'))
       FROM pg_catalog.generate_series(0, 40) AS i));
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT is((SELECT count(*) FROM memory._name_candidates(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e5',
                                                        'Has the council listened to the assembly? Entity 2', 5)),
          11::bigint, '_name_candidates: every name tied at the fifth similarity (Entity 2 and Entity 20 to 29)');
SELECT results_eq($$SELECT node_id, similarity FROM memory.match_entities(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e5',
                                                                           'Has the council listened to the assembly? Entity 2', 5)$$,
                  $$VALUES ('n-2', 1::real), ('n-20', 0.8::real), ('n-21', 0.8::real), ('n-22', 0.8::real), ('n-23', 0.8::real)$$,
                  'match_entities: the tie broken by node id');

-- Many names and few candidates: the common trigrams (those of "Entity", in all 2,005 names)
-- are probed for each of the few candidates instead of read whole (fewer than 32 names a
-- candidate), and the answer is still every name compared: "Entity" and four CJK
-- characters, five names sharing the first two of m-7's, found only when their common
-- trigrams are counted (2)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e6', 'many names');
SELECT memory.upsert_nodes(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e6',
    (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                'id', 'm-' || i, 'type', 'Thing',
                'name', 'Entity ' || (SELECT string_agg(chr(19968 + ('x' || substr(md5(CASE WHEN i > 2000 AND k <= 2 THEN 7 ELSE i END || '-' || k), 1, 4))::bit(16)::int % 1000), '' ORDER BY k)
                                        FROM generate_series(1, 4) AS k)))
       FROM pg_catalog.generate_series(1, 2005) AS i));
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq(format($$SELECT node_id, similarity FROM memory.match_entities(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e6', %L, 1000)$$, t.text),
                  format($$SELECT m.node_id, m.similarity FROM (SELECT n.node_id, memory._name_match(n.name, lower(memory._words_text(%L))) AS similarity
                                                           FROM memory.nodes AS n WHERE n.tenant_id = fx.tenant_a() AND n.simulation_id = 'aaaaaaaa-0000-4000-8000-0000000071e6') AS m
                      WHERE m.similarity IS NOT NULL ORDER BY m.similarity DESC, m.node_id$$, t.text),
                  'match_entities among 2,005 names (common trigrams probed) = every name compared')
  FROM (SELECT 'what did ' || n.name || ' post?' AS text FROM memory.nodes AS n
         WHERE n.simulation_id = 'aaaaaaaa-0000-4000-8000-0000000071e6' AND n.node_id = 'm-7') AS t;
SELECT is((SELECT count(*) FROM memory.match_entities(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e6', 'what did ' || n.name || ' post?', 1000)),
          6::bigint, 'm-7 and the five names sharing its first two characters')
  FROM memory.nodes AS n WHERE n.simulation_id = 'aaaaaaaa-0000-4000-8000-0000000071e6' AND n.node_id = 'm-7';
RESET SESSION AUTHORIZATION;

-- Two families of names, 320 "Entity <n>" and 320 "Identity <n>": the trigrams of "entity"
-- and of "identity" are each in more than word_candidates (300) names, so common. For
-- "Entity 123" the first 16 candidates all hold '  e' and ' en' and the two are counted as
-- shared by every candidate, also by three Identity names that lack them (the fixture's
-- check below); for "Identity 612" some of the first 16 lack '  i' and it is probed. Either
-- way the ten best are every name compared's ten best, misspelt names included (5)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e7', 'two families');
SELECT memory.upsert_nodes(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e7',
    (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                'id', 'x-' || i, 'type', 'Thing',
                'name', CASE WHEN i <= 320 THEN 'Entity ' || i ELSE 'Identity ' || (i + 179) END))
       FROM pg_catalog.generate_series(1, 640) AS i));
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT memory._enter_tenant(fx.tenant_a());
SELECT is((WITH q AS (SELECT g.trigram FROM pg_catalog.unnest(memory._name_trigrams('what did Entity 123 post?')) AS g (trigram)),
                p AS (SELECT * FROM memory.word_postings AS p
                       WHERE p.simulation_id = 'aaaaaaaa-0000-4000-8000-0000000071e7' AND p.kind = 't'),
                rare AS (SELECT p.row_key, pg_catalog.count(*) AS shared FROM q JOIN p ON p.word = q.trigram
                          WHERE (SELECT pg_catalog.count(*) FROM p AS c WHERE c.word = q.trigram) <= 300 GROUP BY p.row_key),
                first AS (SELECT r.row_key FROM rare AS r ORDER BY r.shared DESC, r.row_key LIMIT 16)
           SELECT ARRAY[(SELECT pg_catalog.count(*) FROM first AS f WHERE NOT EXISTS (SELECT 1 FROM p WHERE p.word = '  e' AND p.row_key = f.row_key)),
                        (SELECT pg_catalog.count(*) FROM rare AS r WHERE NOT EXISTS (SELECT 1 FROM p WHERE p.word = '  e' AND p.row_key = r.row_key))]),
          ARRAY[0, 3]::bigint[], 'the fixture: the first 16 candidates of "Entity 123" hold ''  e'', three later ones do not');
SELECT results_eq(format($$SELECT node_id, similarity FROM memory.match_entities(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-0000000071e7', %L, 10)$$, t.text),
                  format($$SELECT m.node_id, m.similarity FROM (SELECT n.node_id, memory._name_match(n.name, lower(memory._words_text(%L))) AS similarity
                                                           FROM memory.nodes AS n WHERE n.tenant_id = fx.tenant_a() AND n.simulation_id = 'aaaaaaaa-0000-4000-8000-0000000071e7') AS m
                      WHERE m.similarity IS NOT NULL ORDER BY m.similarity DESC, m.node_id LIMIT 10$$, t.text),
                  'two families, ' || t.text || ': match_entities'' ten = every name compared''s ten')
  FROM (VALUES ('what did Entity 123 post?'), ('what did Identity 612 post?'), ('Entity 7 and Identity 707'), ('Entty 23 said')) AS t (text);
RESET SESSION AUTHORIZATION;

-- Bad input, and the question cap (10)
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), '')$$, '22023', NULL, 'empty text: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), E' \t\n ')$$, '22023', NULL, 'white space only: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), NULL)$$, '22004', NULL, 'NULL text: 22004');
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'road', 10, '{episode,post}')$$, '22023', NULL, 'unknown kind: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'road', 10, '{}')$$, '22023', NULL, 'no kind: 22023');
SELECT throws_ok($$SELECT * FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), ' ')$$, '22023', NULL, 'match_entities, blank text: 22023');
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), repeat('x ', 600000))$$, '54000', NULL,
                 'a text over the string limit: 54000');
-- a question over memory._limit('question_bytes'), of real words and names: 54000 (3)
SELECT throws_ok(pg_catalog.format($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), %L)$$,
                                   left(repeat('Sofia Lindqvist covers River Road for the Quayside Cafe, 李华说. ', 100),
                                        memory._limit('question_bytes')::integer - 60) || ' ' || repeat('x', 100)),
                 '54000', NULL, 'search_words: a question over question_bytes is 54000');
SELECT throws_ok(pg_catalog.format($$SELECT * FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), %L)$$,
                                   repeat('Sofia Lindqvist covers River Road. ', 120)),
                 '54000', NULL, 'match_entities: a question over question_bytes is 54000');
SELECT results_eq(pg_catalog.format($$SELECT node_id FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), %L, 10)$$,
                                    repeat('the council met again on monday about the strike. ', 30)
                                    || 'Sofia Lindqvist covers River Street (renamed above); 李华反对 '
                                    || repeat('the council met again on monday about the strike. ', 40)),
                  ARRAY['li', 'road', 'sofia'],
                  'a question of 3.6 KB (runs of its words) still finds the names in its middle, each at 1 (ties by node id)');
RESET SESSION AUTHORIZATION;

-- Tenants (6)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT results_eq($$SELECT id FROM memory.search_words(fx.tenant_b(), fx.sim_b(), 'closing river road cars', 10)$$,
                  ARRAY['b1'], 'tenant B finds only its own post');
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'road')$$, '42501', NULL, 'B for tenant A: 42501');
SELECT throws_ok($$SELECT * FROM memory.match_entities(fx.tenant_a(), fx.sim_a(), 'Sofia')$$, '42501', NULL, 'match_entities, B for tenant A: 42501');
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_b(), fx.sim_a(), 'road')$$, 'P0002', NULL, 'A''s simulation under tenant B: P0002');
SELECT is_empty($$SELECT * FROM memory.match_entities(fx.tenant_b(), fx.sim_b(), 'Sofia Lindqvist')$$, 'B matches none of A''s names');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION nobody;
SELECT throws_ok($$SELECT * FROM memory.search_words(fx.tenant_a(), fx.sim_a(), 'road')$$, '42501', NULL, 'a role without the reader role: 42501');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
