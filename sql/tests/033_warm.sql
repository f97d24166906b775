/* pgmigrate-encoding: utf-8 */
-- 033_warm: memory.warm reads a simulation's rows and word postings under the caller's
-- row-level security and reports them a part at a time; it reads only (twice gives the same
-- rows and changes nothing); it refuses another tenant's simulation and a tenant the caller
-- holds no grant for; a simulation without indexes of its own has no index rows.
-- tests/test_ann_entities.py loads indexes with pg_prewarm, and without it.
BEGIN;
\ir _fixtures.psql
SELECT plan(8);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'li', 'name', '李华', 'type', 'Person', 'summary', '市议员', 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'plan', 'name', 'River Road plan', 'type', 'Policy', 'embedding', fx.emb(2))));
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'e1', 'type', 'OPPOSES', 'source_id', 'li', 'target_id', 'plan',
        'fact', '李华反对河滨路改造计划', 'embedding', fx.emb(3))));
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'p1', 'agent_id', 1, 'action_type', 'CREATE_POST', 'content', '河滨路应该禁止汽车', 'embedding', fx.emb(4)),
    pg_catalog.jsonb_build_object('id', 'p2', 'agent_id', 2, 'action_type', 'CREATE_POST', 'content', 'The shops will suffer', 'embedding', fx.emb(5)),
    pg_catalog.jsonb_build_object('id', 'p3', 'agent_id', 2, 'action_type', 'LIKE_POST')));
RESET SESSION AUTHORIZATION;
-- tenant B's simulation holds rows too: none of them is counted for A
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT memory.upsert_episodes(fx.tenant_b(), fx.sim_b(), '[{"id": "b1", "action_type": "CREATE_POST", "content": "other words"}]');
RESET SESSION AUTHORIZATION;

CREATE TEMP TABLE want ON COMMIT DROP AS
SELECT * FROM (VALUES ('episodes'::text, fx.stored('episodes', fx.tenant_a(), fx.sim_a()), 'rows'::text),
                      ('facts', fx.stored('edges', fx.tenant_a(), fx.sim_a()), 'rows'),
                      ('entities', fx.stored('nodes', fx.tenant_a(), fx.sim_a()), 'rows'),
                      ('word postings', fx.stored('word_postings', fx.tenant_a(), fx.sim_a()), 'rows')) AS w (part, amount, unit);
GRANT SELECT ON want TO PUBLIC;
CREATE TEMP TABLE digests ON COMMIT DROP AS
SELECT t.name, fx.digest(t.name, fx.tenant_a(), fx.sim_a()) AS digest
  FROM unnest(ARRAY['episodes', 'edges', 'nodes', 'word_postings']) AS t (name);

SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT part, amount, unit FROM memory.warm(fx.tenant_a(), fx.sim_a())$$,
                  $$SELECT part, amount, unit FROM want$$,
                  'a reader warms its simulation: its episodes, facts, entities and word postings, a row each, no index of its own');
SELECT ok((SELECT w.amount FROM want AS w WHERE w.part = 'episodes') = 3 AND (SELECT w.amount FROM want AS w WHERE w.part = 'word postings') > 0,
          'the counts are every row of the simulation (3 episodes, one of them without text) and its postings');
SELECT results_eq($$SELECT part, amount, unit FROM memory.warm(fx.tenant_a(), fx.sim_a())$$,
                  $$SELECT part, amount, unit FROM want$$,
                  'warming again gives the same rows');
SELECT throws_ok($$SELECT * FROM memory.warm(fx.tenant_a(), fx.sim_b())$$, 'P0002', NULL,
                 'another tenant''s simulation under one''s own tenant: P0002, as an unknown one');
SELECT throws_ok($$SELECT * FROM memory.warm(fx.tenant_b(), fx.sim_b())$$, '42501', NULL,
                 'a tenant the caller holds no grant for: 42501');
SELECT throws_ok($$SELECT * FROM memory.warm(fx.tenant_a(), NULL)$$, '22004', NULL,
                 'a NULL simulation: 22004');
RESET SESSION AUTHORIZATION;
SELECT is_empty($$SELECT t.name FROM digests AS t WHERE fx.digest(t.name, fx.tenant_a(), fx.sim_a()) <> t.digest$$,
                'warming changed nothing of the simulation''s rows');
SET LOCAL SESSION AUTHORIZATION nobody;
SELECT throws_ok($$SELECT * FROM memory.warm(fx.tenant_a(), fx.sim_a())$$, '42501', NULL,
                 'a role without memory_reader may not call it');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
