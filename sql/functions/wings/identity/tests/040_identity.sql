-- 040_identity: one identity across runs (V0046). Two runs of tenant A: the second renames
-- an entity and keeps its old name as an alias, turns a stance, drops one entity and adds
-- one. Linking is scored with its evidence, replayed without a write, kept one to one; a
-- refused pair stays refused; identities are followed across runs; the diff says what
-- changed; another tenant reaches none of it. Both runs are made in this one transaction, so
-- their creation times are equal and run order falls to their ids: the second's sorts later.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(21);

CREATE FUNCTION pg_temp.sim2() RETURNS uuid LANGUAGE sql IMMUTABLE AS $$ SELECT 'aaaaaaaa-ffff-4000-8000-0000000000a2'::uuid $$;
GRANT EXECUTE ON FUNCTION pg_temp.sim2() TO PUBLIC;

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.upsert_simulation(fx.tenant_a(), pg_temp.sim2(), 'run-2');
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'a-dan', 'name', 'Daniel Reyes', 'type', 'Person', 'summary', 'councillor', 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'a-cafe', 'name', 'Quayside Coffee Co.', 'type', 'Business', 'summary', 'a cafe', 'embedding', fx.emb(2)),
    pg_catalog.jsonb_build_object('id', 'a-plan', 'name', 'River Road Plan', 'type', 'Policy', 'summary', 'the plan', 'embedding', fx.emb(3)),
    pg_catalog.jsonb_build_object('id', 'a-gone', 'name', 'Old Quay Market', 'type', 'Business', 'summary', 'a market', 'embedding', fx.emb(4))));
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), '[
    {"id": "a-e1", "type": "SUPPORTS", "source_id": "a-dan", "target_id": "a-plan", "fact": "Dan supports the plan"},
    {"id": "a-e2", "type": "LOCATED_NEAR", "source_id": "a-cafe", "target_id": "a-plan", "fact": "the cafe is on the road"}]');
SELECT memory.upsert_nodes(fx.tenant_a(), pg_temp.sim2(), pg_catalog.jsonb_build_array(
    pg_catalog.jsonb_build_object('id', 'b-dan', 'name', 'daniel  reyes', 'type', 'Person', 'summary', 'councillor', 'embedding', fx.emb(1)),
    pg_catalog.jsonb_build_object('id', 'b-cafe', 'name', 'Quayside Roasters', 'type', 'Business', 'summary', 'a cafe',
                                  'attributes', '{"aliases": ["Quayside Coffee Co."]}'::jsonb, 'embedding', fx.emb(2)),
    pg_catalog.jsonb_build_object('id', 'b-plan', 'name', 'River Road Plan', 'type', 'Policy', 'summary', 'the plan', 'embedding', fx.emb(3)),
    pg_catalog.jsonb_build_object('id', 'b-new', 'name', 'Elena Vasquez', 'type', 'Person', 'summary', 'a haulier', 'embedding', fx.emb(5))));
SELECT memory.upsert_edges(fx.tenant_a(), pg_temp.sim2(), '[
    {"id": "b-e1", "type": "OPPOSES", "source_id": "b-dan", "target_id": "b-plan", "fact": "Dan opposes the plan"},
    {"id": "b-e2", "type": "LOCATED_NEAR", "source_id": "b-cafe", "target_id": "b-plan", "fact": "the roasters are on the road"},
    {"id": "b-e3", "type": "OPPOSES", "source_id": "b-new", "target_id": "b-plan", "fact": "Elena opposes the plan"}]');

-- Linking (6)
SELECT results_eq($$SELECT linked, added, changed, dropped FROM memory.link_runs(fx.tenant_a(), pg_temp.sim2())$$,
                  $$VALUES (3::bigint, 3::bigint, 0::bigint, 0::bigint)$$,
                  'three of the second run''s entities are linked to the first''s; the newcomer and the dropped one are not');
SELECT results_eq($$SELECT node_id, other_node_id FROM memory.identity_links(fx.tenant_a(), pg_temp.sim2()) ORDER BY node_id$$,
                  $$VALUES ('b-cafe'::text, 'a-cafe'::text), ('b-dan', 'a-dan'), ('b-plan', 'a-plan')$$,
                  'each to its own: a name in another case and spacing, an alias, the same name');
SELECT is((SELECT evidence -> 'alias' FROM memory.identity_links(fx.tenant_a(), pg_temp.sim2()) WHERE node_id = 'b-cafe'),
          'true'::jsonb, 'the renamed entity is linked by its alias, and the evidence says so');
SELECT ok((SELECT bool_and(score >= memory._link_threshold() AND score <= 1 AND decision = 'auto' AND active)
             FROM memory.identity_links(fx.tenant_a(), fx.sim_a())),
          'the links read the same from the first run, scored within the threshold and 1');
SELECT results_eq($$SELECT linked, added, changed, dropped FROM memory.link_runs(fx.tenant_a(), fx.sim_a(), pg_temp.sim2())$$,
                  $$VALUES (3::bigint, 0::bigint, 0::bigint, 0::bigint)$$, 'linking replayed (from the other side) writes nothing');
SELECT throws_ok($$DELETE FROM memory.identity_links$$, '42501', NULL,
                 'a writer removes no link (no DELETE privilege): links change only through the functions');
RESET SESSION AUTHORIZATION;

-- Verdicts (4)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT decision, decided_by FROM memory.decide_link(fx.tenant_a(), pg_temp.sim2(), 'b-dan', fx.sim_a(), 'a-dan', 'refused')$$,
                  $$VALUES ('refused'::text, 'app_a'::name)$$, 'a person refuses a link, and the row says who');
SELECT results_eq($$SELECT linked, added, dropped FROM memory.link_runs(fx.tenant_a(), pg_temp.sim2())$$,
                  $$VALUES (2::bigint, 0::bigint, 0::bigint)$$, 'linking again leaves the refused pair unlinked');
SELECT results_eq($$SELECT decision FROM memory.decide_link(fx.tenant_a(), pg_temp.sim2(), 'b-new', fx.sim_a(), 'a-gone', 'confirmed')$$,
                  $$VALUES ('manual'::text)$$, 'a link never found, confirmed, is made by hand');
SELECT is((SELECT count(*) FROM memory.identity_links(fx.tenant_a(), pg_temp.sim2(), NULL, true)), 4::bigint,
          'all links, the refused one too, read back');
RESET SESSION AUTHORIZATION;

-- Following an identity; the diff (5)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT run, node_id FROM memory.identity(fx.tenant_a(), fx.sim_a(), 'a-cafe')$$,
                  $$VALUES (1, 'a-cafe'::text), (2, 'b-cafe')$$, 'an identity in run order');
SELECT results_eq($$SELECT run, type, other_name FROM memory.identity_facts(fx.tenant_a(), fx.sim_a(), 'a-cafe')$$,
                  $$VALUES (1, 'LOCATED_NEAR'::text, 'River Road Plan'::text), (2, 'LOCATED_NEAR', 'River Road Plan')$$,
                  'its facts in every run, in order');
SELECT set_eq($$SELECT kind, change, subject FROM memory.diff(fx.tenant_a(), fx.sim_a(), pg_temp.sim2())$$,
              $$VALUES ('entity'::text, 'appeared'::text, 'daniel  reyes'::text),
                       ('entity', 'vanished', 'Daniel Reyes'),
                       ('entity', 'renamed', 'Quayside Coffee Co. -> Quayside Roasters'),
                       ('entity', 'renamed', 'Old Quay Market -> Elena Vasquez'),
                       ('fact', 'ended', 'Daniel Reyes SUPPORTS River Road Plan'),
                       ('fact', 'appeared', 'daniel  reyes OPPOSES River Road Plan'),
                       ('fact', 'appeared', 'Old Quay Market OPPOSES River Road Plan')$$,
              'the diff follows the verdicts: the refused pair is two entities, the hand-made link one');
SELECT throws_ok($$SELECT * FROM memory.diff(fx.tenant_a(), fx.sim_a(), fx.sim_a())$$, '22023', NULL, 'a run is not diffed with itself');
SELECT throws_ok($$SELECT * FROM memory.link_runs(fx.tenant_a(), fx.sim_a())$$, '42501', NULL, 'a reader links nothing');
RESET SESSION AUTHORIZATION;

-- The verdict withdrawn, the stance turns (2)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.decide_link(fx.tenant_a(), pg_temp.sim2(), 'b-dan', fx.sim_a(), 'a-dan', 'auto');
SELECT results_eq($$SELECT linked, added, changed FROM memory.link_runs(fx.tenant_a(), pg_temp.sim2())$$,
                  $$VALUES (3::bigint, 0::bigint, 0::bigint)$$, 'the verdict withdrawn, linking finds the pair again');
SELECT set_eq($$SELECT kind, change, subject FROM memory.diff(fx.tenant_a(), fx.sim_a(), pg_temp.sim2()) WHERE kind = 'fact'$$,
              $$VALUES ('fact'::text, 'turned'::text, 'Daniel Reyes SUPPORTS -> OPPOSES River Road Plan'::text),
                       ('fact', 'appeared', 'Old Quay Market OPPOSES River Road Plan')$$,
              'between the same two identities, SUPPORTS became OPPOSES');
RESET SESSION AUTHORIZATION;

-- Another tenant (4)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.link_runs(fx.tenant_a(), fx.sim_a())$$, '42501', NULL, 'B links nothing of A''s');
SELECT throws_ok($$SELECT * FROM memory.diff(fx.tenant_a(), fx.sim_a(), pg_temp.sim2())$$, '42501', NULL, 'B diffs nothing of A''s');
SELECT throws_ok($$SELECT * FROM memory.diff(fx.tenant_b(), fx.sim_a(), pg_temp.sim2())$$, 'P0002', NULL,
                 'A''s simulations are unknown under B''s own tenant');
SELECT is((SELECT count(*) FROM memory.identity_links), 0::bigint, 'B''s role sees no link row');
RESET SESSION AUTHORIZATION;
