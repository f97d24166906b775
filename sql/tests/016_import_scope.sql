/* pgmigrate-encoding: utf-8 */
-- 016_import_scope: an import replaces only what it carries (issue 10, points 1 and 7).
-- begin_import's p_scope names the kinds (and for episodes and profiles the platforms) an
-- attempt replaces; a kind it does not name is kept; rows written through upsert_* (source
-- 'api') survive every import; NULL keeps the old meaning, the whole simulation.
BEGIN;
\ir _fixtures.psql
SELECT plan(27);

CREATE TEMP TABLE attempt_ids (step text PRIMARY KEY, attempt_id uuid);
GRANT ALL ON attempt_ids TO PUBLIC;
CREATE FUNCTION pg_temp.ids(p_table text) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE v text[];
BEGIN
    EXECUTE pg_catalog.format(
        'SELECT pg_catalog.array_agg(%I ORDER BY %I) FROM memory.%I WHERE tenant_id = $1 AND simulation_id = $2',
        CASE p_table WHEN 'profiles' THEN 'platform' ELSE pg_catalog.rtrim(p_table, 's') || '_id' END,
        CASE p_table WHEN 'profiles' THEN 'platform' ELSE pg_catalog.rtrim(p_table, 's') || '_id' END,
        p_table) INTO v USING fx.tenant_a(), fx.sim_a();
    RETURN COALESCE(v, '{}');
END $$;

-- Attempt 1, the whole simulation: a graph, actions on two platforms, two profiles.
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.open_staging();
INSERT INTO attempt_ids VALUES ('whole', memory.begin_import(fx.tenant_a(), fx.sim_a()));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type)
VALUES ('n1', 0, '河滨路改造计划', 'Policy'), ('n2', 1, 'Maya Okafor', 'Person');
INSERT INTO pg_temp.stage_edges (edge_id, position, type, source_id, target_id, fact)
VALUES ('e1', 0, 'REPORTS_ON', 'n2', 'n1', 'Maya Okafor 报道了河滨路改造计划');
INSERT INTO pg_temp.stage_episodes (episode_id, position, platform, action_type, content)
VALUES ('tw1', 0, 'twitter', 'CREATE_POST', '河滨路应该禁止汽车'),
       ('rd1', 1, 'reddit', 'CREATE_POST', 'The shops will suffer');
INSERT INTO pg_temp.stage_profiles (platform, agent_id, position, name)
VALUES ('twitter', 0, 0, 'Maya Okafor'), ('reddit', 0, 1, 'Maya Okafor');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'whole'));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'whole'));
-- A memory a gateway adds between runs.
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "m1", "platform": "twitter", "action_type": "MEMORY", "content": "记住: 商店担心客流"}]');
RESET SESSION AUTHORIZATION;

SELECT is((SELECT pg_catalog.array_agg(DISTINCT source) FROM memory.nodes WHERE tenant_id = fx.tenant_a()),
          ARRAY['import'], 'rows promoted from an attempt have source import');
SELECT is((SELECT source FROM memory.episodes WHERE tenant_id = fx.tenant_a() AND episode_id = 'm1'),
          'api', 'a row written through upsert_episodes has source api');
SELECT is(pg_temp.ids('episodes'), ARRAY['m1', 'rd1', 'tw1'], 'the whole import and the memory are there');

-- Attempt 2 carries only the twitter actions.
SET LOCAL SESSION AUTHORIZATION app_a;
INSERT INTO attempt_ids VALUES ('twitter', memory.begin_import(fx.tenant_a(), fx.sim_a(),
    p_scope => '{"episodes": ["twitter"]}'));
INSERT INTO pg_temp.stage_episodes (episode_id, position, platform, action_type, content)
VALUES ('tw2', 0, 'twitter', 'CREATE_POST', '我支持这个计划');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'twitter'));
CREATE TEMP TABLE promoted AS
SELECT * FROM memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'twitter'));
RESET SESSION AUTHORIZATION;

SELECT is(pg_temp.ids('episodes'), ARRAY['m1', 'rd1', 'tw2'],
          'a twitter-only import replaces the imported twitter actions, keeps reddit and the memory');
SELECT is(pg_temp.ids('nodes'), ARRAY['n1', 'n2'], 'a run without a graph keeps the nodes');
SELECT is(pg_temp.ids('edges'), ARRAY['e1'], 'a run without a graph keeps the edges');
SELECT is(pg_temp.ids('profiles'), ARRAY['reddit', 'twitter'], 'a run without profiles keeps them');
SELECT results_eq($$SELECT kind, inserted, deleted FROM promoted ORDER BY kind$$,
                  $$VALUES ('edges', 0::bigint, 0::bigint), ('episodes', 1, 1), ('nodes', 0, 0), ('predictions', 0, 0),
                           ('profiles', 0, 0), ('report_chunks', 0, 0), ('report_log', 0, 0),
                           ('report_sections', 0, 0), ('reports', 0, 0)$$,
                  'the commit counts one twitter action in and one out, nothing else');
SELECT is((SELECT a.result -> 'episodes' -> 'replaced' FROM memory.import_attempts AS a
            WHERE a.attempt_id = (SELECT attempt_id FROM attempt_ids WHERE step = 'twitter')),
          '["twitter"]'::jsonb, 'the attempt''s result says it replaced the twitter actions');
SELECT is((SELECT a.result -> 'nodes' -> 'replaced' FROM memory.import_attempts AS a
            WHERE a.attempt_id = (SELECT attempt_id FROM attempt_ids WHERE step = 'twitter')),
          'false'::jsonb, 'and kept the nodes');

-- Attempt 3 carries a graph with one node and no edge.
SET LOCAL SESSION AUTHORIZATION app_a;
INSERT INTO attempt_ids VALUES ('graph', memory.begin_import(fx.tenant_a(), fx.sim_a(),
    p_scope => '{"nodes": null, "edges": null}'));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type) VALUES ('n1', 0, '河滨路改造计划', 'Policy');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'graph'));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'graph'));
RESET SESSION AUTHORIZATION;

SELECT is(pg_temp.ids('nodes'), ARRAY['n1'], 'a graph import replaces the nodes');
SELECT is(pg_temp.ids('edges'), '{}'::text[], 'and the edges');
SELECT is(pg_temp.ids('episodes'), ARRAY['m1', 'rd1', 'tw2'], 'and keeps every action');

-- Attempt 4 carries a reddit profile file only.
SET LOCAL SESSION AUTHORIZATION app_a;
INSERT INTO attempt_ids VALUES ('profiles', memory.begin_import(fx.tenant_a(), fx.sim_a(),
    p_scope => '{"profiles": ["reddit"]}'));
INSERT INTO pg_temp.stage_profiles (platform, agent_id, position, name) VALUES ('reddit', 1, 0, '李华');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'profiles'));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'profiles'));
RESET SESSION AUTHORIZATION;

SELECT is((SELECT pg_catalog.array_agg(platform || '/' || agent_id ORDER BY platform, agent_id) FROM memory.profiles
            WHERE tenant_id = fx.tenant_a()),
          ARRAY['reddit/1', 'twitter/0'], 'a reddit profile import replaces the reddit profiles only');

-- Attempt 5, the whole simulation again, carrying nothing: every imported row goes, the
-- memory stays.
SET LOCAL SESSION AUTHORIZATION app_a;
INSERT INTO attempt_ids VALUES ('empty', memory.begin_import(fx.tenant_a(), fx.sim_a()));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'empty'));
RESET SESSION AUTHORIZATION;

SELECT is(pg_temp.ids('episodes'), ARRAY['m1'], 'an import of the whole simulation never removes a memory written outside imports');
SELECT is(fx.stored('nodes', fx.tenant_a(), fx.sim_a()) + fx.stored('profiles', fx.tenant_a(), fx.sim_a()), 0::bigint,
          'and removes every imported row it does not carry');

-- Attempt 6 carries the memory's id: the import takes the row over.
SET LOCAL SESSION AUTHORIZATION app_a;
INSERT INTO attempt_ids VALUES ('takeover', memory.begin_import(fx.tenant_a(), fx.sim_a(),
    p_scope => '{"episodes": ["twitter"]}'));
INSERT INTO pg_temp.stage_episodes (episode_id, position, platform, action_type, content)
VALUES ('m1', 0, 'twitter', 'CREATE_POST', '记住: 商店担心客流');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'takeover'));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'takeover'));
RESET SESSION AUTHORIZATION;
SELECT is((SELECT source FROM memory.episodes WHERE tenant_id = fx.tenant_a() AND episode_id = 'm1'),
          'import', 'an import that carries a memory''s id takes the row over (source import)');

-- An upsert cannot claim a source, and a replay changes nothing.
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT inserted, updated, unchanged FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
                      '[{"id": "m2", "action_type": "MEMORY", "content": "x", "source": "import"}]')$$,
                  $$VALUES (1::bigint, 0::bigint, 0::bigint)$$, 'an upsert with a source field writes the row');
SELECT results_eq($$SELECT inserted, updated, unchanged FROM memory.upsert_episodes(fx.tenant_a(), fx.sim_a(),
                      '[{"id": "m2", "action_type": "MEMORY", "content": "x"}]')$$,
                  $$VALUES (0::bigint, 0::bigint, 1::bigint)$$, 'replaying it changes nothing');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT source FROM memory.episodes WHERE tenant_id = fx.tenant_a() AND episode_id = 'm2'),
          'api', 'the source field of an item is ignored: an upsert always writes api');

-- Bad scopes are refused before anything is written.
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{"widgets": null}')$$,
                 '22023', NULL, 'a scope naming no kind is refused');
SELECT throws_ok($$SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{"nodes": ["twitter"]}')$$,
                 '22023', NULL, 'nodes have no platform to narrow by');
SELECT throws_ok($$SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{"episodes": [1]}')$$,
                 '22023', NULL, 'platforms are strings');
SELECT throws_ok($$SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '[]')$$,
                 '22023', NULL, 'a scope is an object');
SELECT is((fx.error($$SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{"widgets": null}')$$)).hint,
          'e.g. {"nodes": null, "edges": null, "episodes": ["twitter"]}, or NULL for the whole simulation',
          'the refusal says what a scope looks like');
SELECT lives_ok($$SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{}')$$,
                'an empty scope replaces nothing (an import that only adds)');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT pg_catalog.count(*) FROM memory.import_attempts
            WHERE tenant_id = fx.tenant_a() AND scope IS NOT NULL AND scope ? 'widgets'), 0::bigint,
          'no refused attempt was recorded');

SELECT * FROM finish();
ROLLBACK;
