-- 039_rounds_snapshots_forks: a simulation read at any round (its own clock), named
-- snapshots, and forks at a round, under the tenant contract. A crafted run of three rounds:
-- the councillor supports the plan until half past eleven, then opposes it; the radio
-- starts covering it after the last round. Record time across transactions (a snapshot's
-- answers surviving a later import) is tested in tests/test_runs.py: within one transaction
-- now() does not move.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(65);

SET LOCAL ROLE app_a;
SELECT memory.upsert_nodes(fx.tenant_a(), fx.sim_a(),
    '[{"id": "dan", "name": "Daniel Reyes", "type": "Person"}, {"id": "plan", "name": "River Road plan", "type": "Policy"},
      {"id": "radio", "name": "River City Radio", "type": "Media"}]');
-- vectors: the searches rank each fact and episode by its own axis (fx.emb)
SELECT memory.upsert_edges(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    '{"id": "sup", "type": "SUPPORTS", "source_id": "dan", "target_id": "plan", "fact": "Daniel supports the plan",
      "valid_at": "2025-05-06T09:00:00Z", "invalid_at": "2025-05-06T11:30:00Z"}'::jsonb || pg_catalog.jsonb_build_object('embedding', fx.emb(1)),
    '{"id": "opp", "type": "OPPOSES", "source_id": "dan", "target_id": "plan", "fact": "Daniel opposes the plan",
      "valid_at": "2025-05-06T11:30:00Z"}'::jsonb || pg_catalog.jsonb_build_object('embedding', fx.emb(2)),
    '{"id": "cov", "type": "REPORTS_ON", "source_id": "radio", "target_id": "plan", "fact": "The radio covers the plan",
      "valid_at": "2025-05-06T13:00:00Z"}'::jsonb || pg_catalog.jsonb_build_object('embedding', fx.emb(3))));
SELECT memory.upsert_episodes(fx.tenant_a(), fx.sim_a(), pg_catalog.jsonb_build_array(
    '{"id": "r1", "agent_id": 1, "round": 1, "action_type": "CREATE_POST", "content": "Cars off River Road!",
      "occurred_at": "2025-05-06T10:00:00Z"}'::jsonb || pg_catalog.jsonb_build_object('embedding', fx.emb(1)),
    '{"id": "r2", "agent_id": 1, "round": 2, "action_type": "CREATE_POST", "content": "Still thinking.",
      "occurred_at": "2025-05-06T11:00:00Z"}'::jsonb || pg_catalog.jsonb_build_object('embedding', fx.emb(2)),
    '{"id": "r3", "agent_id": 1, "round": 3, "action_type": "CREATE_POST", "content": "I now oppose the plan.",
      "occurred_at": "2025-05-06T12:00:00Z"}'::jsonb || pg_catalog.jsonb_build_object('embedding', fx.emb(3))));
SELECT memory.upsert_simulation(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000e0e0', 'no-times');
RESET ROLE;

-- Rounds (22)
SET LOCAL ROLE reader_a;
SELECT is(memory._round_moment(fx.tenant_a(), fx.sim_a(), 2), '2025-05-06T11:00:00Z'::timestamptz,
          'a round ends at the latest time of its episodes and the earlier ones');
SELECT is(memory._round_moment(fx.tenant_a(), fx.sim_a(), 0), NULL, 'a round before the first has no moment');
SELECT results_eq($$SELECT edge_id FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_round => 1) ORDER BY 1$$,
                  ARRAY['sup'], 'facts after round 1: the support only');
SELECT results_eq($$SELECT edge_id FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_round => 3) ORDER BY 1$$,
                  ARRAY['opp'], 'facts after round 3: the opposition, the support ended, the coverage not begun');
SELECT results_eq($$SELECT edge_id, state FROM memory.facts(fx.tenant_a(), fx.sim_a(), 'dan', 'all', p_round => 2) ORDER BY 1$$,
                  $$VALUES ('opp', 'future'), ('sup', 'current')$$, 'a node''s facts at a round, in every state');
SELECT results_eq($$SELECT edge_id FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_round => 99) ORDER BY 1$$,
                  ARRAY['opp'], 'a round past the last reads the end of the run');
SELECT results_eq($$SELECT node_id, edge_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'dan', p_round => 1)$$,
                  $$VALUES ('plan', 'sup')$$, 'the walk at round 1 follows the support');
SELECT results_eq($$SELECT node_id, edge_id FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'dan', p_round => 3)$$,
                  $$VALUES ('plan', 'opp')$$, 'the walk at round 3 follows the opposition');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_round => 1, p_as_of => now())$$,
                 '22023', NULL, 'a round and a moment together are refused');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'dan', p_round => -1)$$,
                 '22023', NULL, 'a negative round is refused');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000e0e0', p_round => 1)$$,
                 'P0002', NULL, 'a round of a simulation whose episodes carry no time is P0002');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Daniel', NULL, 5, '{"round": "two"}')$$,
                 '22023', NULL, 'recall''s round option must be an integer');
-- search_facts at a round (4)
SELECT results_eq($$SELECT edge_id, state FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, 'all', p_round => 1) ORDER BY 1$$,
                  $$VALUES ('cov', 'future'), ('opp', 'future'), ('sup', 'current')$$,
                  'search_facts at round 1: the facts that begin later are not current');
SELECT results_eq($$SELECT edge_id FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_round => 3)$$,
                  ARRAY['opp'], 'search_facts at round 3: the opposition alone is current');
SELECT throws_ok($$SELECT * FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_as_of => now(), p_round => 1)$$,
                 '22023', NULL, 'search_facts refuses a round and a moment together');
SELECT throws_ok($$SELECT * FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_round => -1)$$,
                 '22023', NULL, 'search_facts refuses a negative round');
-- the report agent's other reads at a round (6)
SELECT results_eq($$SELECT event, edge_id FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'dan', p_round => 1)$$,
                  $$VALUES ('fact_began', 'sup')$$, 'the timeline up to round 1: the support begun');
SELECT results_eq($$SELECT section, id FROM memory.entity_summary(fx.tenant_a(), fx.sim_a(), 'dan', p_round => 3)
                     WHERE section IN ('fact', 'neighbour')$$,
                  $$VALUES ('fact', 'opp'), ('neighbour', 'plan')$$, 'the entity summary at round 3: the opposition');
SELECT is((SELECT state FROM memory.panorama(fx.tenant_a(), fx.sim_a(), 'Daniel Reyes', NULL, p_round => 1) WHERE id = 'sup'),
          'current', 'the panorama at round 1: the support holds');
SELECT is((SELECT state FROM memory.panorama(fx.tenant_a(), fx.sim_a(), 'Daniel Reyes', NULL, p_round => 3) WHERE id = 'sup'),
          'ended', 'the panorama at round 3: the support has ended');
SELECT throws_ok($$SELECT * FROM memory.timeline(fx.tenant_a(), fx.sim_a(), 'dan', p_round => -1)$$,
                 '22023', NULL, 'the timeline refuses a negative round');
SELECT throws_ok($$SELECT * FROM memory.entity_summary(fx.tenant_a(), 'aaaaaaaa-0000-4000-8000-00000000e0e0', 'dan', p_round => 1)$$,
                 'P0002', NULL, 'the entity summary of an unknown entity at a round is P0002');
RESET ROLE;

-- Snapshots (15)
SET LOCAL ROLE app_a;
SELECT results_eq($$SELECT name, round, created FROM memory.create_snapshot(fx.tenant_a(), fx.sim_a(), 'monday', 2, 'before the vote')$$,
                  $$VALUES ('monday', 2, true)$$, 'a writer creates a snapshot at a round');
SELECT results_eq($$SELECT name, round, created FROM memory.create_snapshot(fx.tenant_a(), fx.sim_a(), 'monday', 2)$$,
                  $$VALUES ('monday', 2, false)$$, 'a replay returns the snapshot unchanged');
SELECT is(fx.stored('snapshots', fx.tenant_a(), fx.sim_a()), 1::bigint, 'a replay writes no row');
SELECT throws_ok($$SELECT * FROM memory.create_snapshot(fx.tenant_a(), fx.sim_a(), 'monday', 3)$$,
                 '23505', NULL, 'the name at another round is refused');
SELECT throws_ok($$SELECT * FROM memory.create_snapshot(fx.tenant_a(), fx.sim_a(), '')$$,
                 '22023', NULL, 'an empty name is refused');
SELECT results_eq($$SELECT edge_id FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_snapshot => 'monday') ORDER BY 1$$,
                  ARRAY['sup'], 'a snapshot''s reads default to its round');
SELECT results_eq($$SELECT edge_id FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_snapshot => 'monday', p_round => 3) ORDER BY 1$$,
                  ARRAY['opp'], 'a snapshot read at another round');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_snapshot => 'tuesday')$$,
                 'P0002', NULL, 'an unknown snapshot is P0002');
SELECT throws_ok($$SELECT * FROM memory.neighbors(fx.tenant_a(), fx.sim_a(), 'dan', p_snapshot => 'monday', p_known_at => now())$$,
                 '22023', NULL, 'a snapshot and a record time together are refused');
RESET ROLE;

-- The searches and recall at a snapshot (14). Within this transaction the snapshot's record
-- time is the memory's now, so these hold its round and its refusals; the answers surviving
-- a later import are tests/test_runs.py's.
SET LOCAL ROLE reader_a;
SELECT results_eq($$SELECT edge_id FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_snapshot => 'monday')$$,
                  ARRAY['sup'], 'search_facts at a snapshot reads at its round');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_snapshot => 'monday')$$,
                  ARRAY['r2', 'r1'], 'search_episodes at a snapshot reads the rounds up to its own');
SELECT results_eq($$SELECT episode_id FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(3), 10, p_round_to => 3, p_snapshot => 'monday')$$,
                  ARRAY['r3', 'r1', 'r2'], 'a round range given reads past the snapshot''s round');
SELECT results_eq($$SELECT kind, id FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(1), 10, '{"snapshot": "monday"}') ORDER BY 1, 2$$,
                  $$VALUES ('episode', 'r1'), ('episode', 'r2'), ('fact', 'sup')$$,
                  'recall at a snapshot: its round''s episodes and facts');
SELECT throws_ok($$SELECT * FROM memory.search_facts(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_snapshot => 'tuesday')$$,
                 'P0002', NULL, 'search_facts: an unknown snapshot is P0002');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_snapshot => 'tuesday')$$,
                 'P0002', NULL, 'search_episodes: an unknown snapshot is P0002');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, fx.vec(1), 10, '{"snapshot": "tuesday"}')$$,
                 'P0002', NULL, 'recall: an unknown snapshot is P0002');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, p_collapse => true, p_snapshot => 'monday')$$,
                 '22023', NULL, 'search_episodes does not collapse at a snapshot');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Daniel', fx.vec(1), 10, '{"snapshot": "monday", "arms": ["episodes", "words"]}')$$,
                 '22023', NULL, 'recall refuses an arm that cannot read a snapshot');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), NULL, NULL, 10, '{"snapshot": "monday", "like": "r1"}')$$,
                 '22023', NULL, 'recall refuses like at a snapshot');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Daniel', fx.vec(1), 10, '{"snapshot": 2}')$$,
                 '22023', NULL, 'recall''s snapshot option is a name');
SELECT throws_ok($$SELECT * FROM memory.recall(fx.tenant_a(), fx.sim_a(), 'Daniel', NULL, 10, '{"snapshot": "monday"}')$$,
                 '22023', NULL, 'recall at a snapshot needs the question''s vector: its words arm reads the memory now');
RESET ROLE;
SET LOCAL ROLE app_b;
-- another tenant reading with the snapshot's name: what a simulation that does not exist gets
SELECT results_eq(
    $$SELECT f, e.code, replace(e.message, fx.sim_a()::text, '?'), e.hint
        FROM unnest(ARRAY['search_facts(fx.tenant_b(), %L, fx.vec(1), 5, p_snapshot => ''monday'')',
                          'search_episodes(fx.tenant_b(), %L, fx.vec(1), 5, p_snapshot => ''monday'')',
                          'recall(fx.tenant_b(), %L, NULL, fx.vec(1), 5, ''{"snapshot": "monday"}'')']) AS f
       CROSS JOIN LATERAL fx.error(format('SELECT * FROM memory.' || f, fx.sim_a())) AS e ORDER BY 1$$,
    $$SELECT f, e.code, replace(e.message, fx.unknown()::text, '?'), e.hint
        FROM unnest(ARRAY['search_facts(fx.tenant_b(), %L, fx.vec(1), 5, p_snapshot => ''monday'')',
                          'search_episodes(fx.tenant_b(), %L, fx.vec(1), 5, p_snapshot => ''monday'')',
                          'recall(fx.tenant_b(), %L, NULL, fx.vec(1), 5, ''{"snapshot": "monday"}'')']) AS f
       CROSS JOIN LATERAL fx.error(format('SELECT * FROM memory.' || f, fx.unknown())) AS e ORDER BY 1$$,
    'A''s simulation read with its snapshot''s name under B''s tenant: the same refusal as a simulation that does not exist');
SELECT throws_ok($$SELECT * FROM memory.search_episodes(fx.tenant_a(), fx.sim_a(), fx.vec(1), 5, p_snapshot => 'monday')$$,
                 '42501', NULL, 'B''s role cannot search A''s snapshot under A''s tenant');
RESET ROLE;
SET LOCAL ROLE reader_a;
SELECT results_eq($$SELECT name, round, note FROM memory.snapshots(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('monday', 2, 'before the vote')$$, 'a reader lists the snapshots');
SELECT throws_ok($$SELECT * FROM memory.create_snapshot(fx.tenant_a(), fx.sim_a(), 'mine')$$,
                 '42501', NULL, 'a reader cannot create a snapshot');
SELECT throws_ok($$SELECT memory.drop_snapshot(fx.tenant_a(), fx.sim_a(), 'monday')$$,
                 '42501', NULL, 'a reader cannot drop a snapshot');
RESET ROLE;
SET LOCAL ROLE app_b;
SELECT throws_ok($$SELECT * FROM memory.snapshots(fx.tenant_a(), fx.sim_a())$$,
                 '42501', NULL, 'another tenant cannot list A''s snapshots');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_b(), fx.sim_a(), p_snapshot => 'monday')$$,
                 'P0002', NULL, 'A''s simulation under B''s tenant is unknown, snapshot and all');
SELECT is((SELECT count(*) FROM memory.snapshots), 0::bigint, 'B''s role sees none of A''s snapshot rows');
RESET ROLE;

-- Retention keeps a simulation with a live snapshot (2)
SET LOCAL ROLE admin;
SELECT memory.set_retention(fx.tenant_a(), 1);
SELECT results_eq($$SELECT simulation_id, action FROM memory.sweep_tenant(fx.tenant_a(), now() + interval '30 days')
                     WHERE simulation_id = fx.sim_a()$$,
                  $$VALUES (fx.sim_a(), 'kept_snapshot')$$, 'the sweep keeps a simulation that has a snapshot');
RESET ROLE;
SELECT is(fx.stored('edges', fx.tenant_a(), fx.sim_a()), 3::bigint, 'its rows stay');

-- Dropping (3)
SET LOCAL ROLE app_a;
SELECT ok(memory.drop_snapshot(fx.tenant_a(), fx.sim_a(), 'monday'), 'a writer drops a snapshot');
SELECT ok(NOT memory.drop_snapshot(fx.tenant_a(), fx.sim_a(), 'monday'), 'a replay drops nothing');
SELECT throws_ok($$SELECT * FROM memory.facts(fx.tenant_a(), fx.sim_a(), p_snapshot => 'monday')$$,
                 'P0002', NULL, 'a dropped snapshot reads no more');
RESET ROLE;

-- Forks (9)
CREATE TEMP TABLE fx_before ON COMMIT DROP AS
    SELECT t, fx.digest(t, fx.tenant_a(), fx.sim_a()) AS d FROM unnest(ARRAY['nodes', 'edges', 'episodes']) AS t;
GRANT SELECT ON fx_before TO PUBLIC;
SET LOCAL ROLE app_a;
SELECT results_eq($$SELECT * FROM memory.fork_simulation(fx.tenant_a(), fx.sim_a(), 'aaaaaaaa-f0f0-4000-8000-000000000001', 2, 'what-if')$$,
                  $$VALUES (3::bigint, 1::bigint, 2::bigint, 0::bigint)$$,
                  'a fork at round 2: every node, the facts begun by then, the episodes of rounds 1 and 2');
SELECT results_eq($$SELECT edge_id, invalid_at FROM memory.facts(fx.tenant_a(), 'aaaaaaaa-f0f0-4000-8000-000000000001', p_state => 'all')$$,
                  $$VALUES ('sup', NULL::timestamptz)$$, 'an end learned after the round is not the fork''s');
SELECT results_eq($$SELECT * FROM memory.fork_simulation(fx.tenant_a(), fx.sim_a(), 'aaaaaaaa-f0f0-4000-8000-000000000001', 2, 'what-if')$$,
                  $$VALUES (0::bigint, 0::bigint, 0::bigint, 0::bigint)$$, 'a replayed fork copies nothing');
SELECT throws_ok($$SELECT * FROM memory.fork_simulation(fx.tenant_a(), fx.sim_a(), 'aaaaaaaa-f0f0-4000-8000-000000000001', 3)$$,
                 '23505', NULL, 'a taken id at another round is refused');
SELECT throws_ok($$SELECT * FROM memory.fork_simulation(fx.tenant_a(), fx.sim_a(), fx.sim_a())$$,
                 '22023', NULL, 'a simulation is not forked into itself');
SELECT memory.upsert_edges(fx.tenant_a(), 'aaaaaaaa-f0f0-4000-8000-000000000001',
    '[{"id": "sup", "type": "SUPPORTS", "source_id": "dan", "target_id": "plan", "fact": "Daniel backs the plan for good",
       "valid_at": "2025-05-06T09:00:00Z"}]');
RESET ROLE;
SELECT set_eq($$SELECT t, fx.digest(t, fx.tenant_a(), fx.sim_a()) FROM unnest(ARRAY['nodes', 'edges', 'episodes']) AS t$$,
              $$SELECT t, d FROM fx_before$$, 'a write to the fork changes none of the source''s rows');
SET LOCAL ROLE reader_a;
SELECT throws_ok($$SELECT * FROM memory.fork_simulation(fx.tenant_a(), fx.sim_a(), 'aaaaaaaa-f0f0-4000-8000-000000000002')$$,
                 '42501', NULL, 'a reader cannot fork');
RESET ROLE;
SET LOCAL ROLE app_b;
SELECT throws_ok($$SELECT * FROM memory.fork_simulation(fx.tenant_a(), fx.sim_a(), 'aaaaaaaa-f0f0-4000-8000-000000000003')$$,
                 '42501', NULL, 'another tenant cannot fork A''s simulation');
SELECT throws_ok($$SELECT * FROM memory.fork_simulation(fx.tenant_b(), fx.sim_a(), 'aaaaaaaa-f0f0-4000-8000-000000000003')$$,
                 'P0002', NULL, 'nor reach it under its own tenant');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
