/* pgmigrate-encoding: utf-8 */
-- 021_concurrent_import: the losing side of two imports of one simulation is told what
-- happened another import committed while it loaded and changed rows it
-- had staged without a vector (their committed text was the same when it embedded). 40001,
-- nothing promoted, the attempt still open; a rerun (a new attempt) succeeds.
BEGIN;
\ir _fixtures.psql
SELECT plan(7);

CREATE TEMP TABLE attempt_ids (step text PRIMARY KEY, attempt_id uuid);
GRANT ALL ON attempt_ids TO PUBLIC;

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.open_staging();
-- The committed state: n1 with its vector and the hash of its text.
INSERT INTO attempt_ids VALUES ('first', memory.begin_import(fx.tenant_a(), fx.sim_a()));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type, embedding, content_hash)
VALUES ('n1', 0, '河滨路', 'Policy', fx.vec(1), '\x01');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'first'));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'first'));
-- Import A embeds nothing for n1 (its hash is committed) and stages it without a vector...
INSERT INTO attempt_ids VALUES ('a', memory.begin_import(fx.tenant_a(), fx.sim_a()));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type, content_hash)
VALUES ('n1', 0, '河滨路', 'Policy', '\x01');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'a'));
-- ... while import B changes n1 and commits first.
INSERT INTO attempt_ids VALUES ('b', memory.begin_import(fx.tenant_a(), fx.sim_a()));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type, embedding, content_hash)
VALUES ('n1', 0, '河滨路改造计划', 'Policy', fx.vec(2), '\x02');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'b'));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'b'));

SELECT throws_ok($$SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'a'))$$,
                 '40001', NULL, 'the losing import is refused with 40001');
SELECT matches((fx.error($$SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'a'))$$)).message,
               'nodes n1 changed after this import read the committed rows: another write of the simulation committed while it ran \(the latest import, attempt [0-9a-f-]+, committed at .*\)',
               'the message names the other attempt and the row');
SELECT is((fx.error($$SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'a'))$$)).hint,
          'run the import again: it embeds what the other write changed', 'the hint says to run it again');
RESET SESSION AUTHORIZATION;
SELECT is((SELECT name FROM memory.nodes WHERE tenant_id = fx.tenant_a() AND node_id = 'n1'), '河滨路改造计划',
          'the winner''s row stands');

-- The rerun: a new attempt that embeds the changed text.
SET LOCAL SESSION AUTHORIZATION app_a;
INSERT INTO attempt_ids VALUES ('rerun', memory.begin_import(fx.tenant_a(), fx.sim_a()));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type, embedding, content_hash)
VALUES ('n1', 0, '河滨路', 'Policy', fx.vec(1), '\x01');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'rerun'));
SELECT results_eq($$SELECT kind, updated FROM memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'rerun')) WHERE kind = 'nodes'$$,
                  $$VALUES ('nodes'::text, 1::bigint)$$, 'the rerun commits');

-- The winner may also commit before the loser begins its attempt: the importer reads the
-- committed hashes before begin_import, so a commit between the two is the same race.
INSERT INTO attempt_ids VALUES ('c', memory.begin_import(fx.tenant_a(), fx.sim_a()));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type, embedding, content_hash)
VALUES ('n1', 0, '河滨路步行街', 'Policy', fx.vec(3), '\x03');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'c'));
SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'c'));
INSERT INTO attempt_ids VALUES ('d', memory.begin_import(fx.tenant_a(), fx.sim_a()));
INSERT INTO pg_temp.stage_nodes (node_id, position, name, type, content_hash)
VALUES ('n1', 0, '河滨路', 'Policy', '\x01');
SELECT memory.stage_rows(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'd'));
SELECT throws_ok($$SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'd'))$$,
                 '40001', NULL, 'a loser whose rival committed before it began is refused with 40001 too');
SELECT matches((fx.error($$SELECT memory.commit_import(fx.tenant_a(), (SELECT attempt_id FROM attempt_ids WHERE step = 'd'))$$)).message,
               'nodes n1 changed after this import read the committed rows',
               'and is told the same');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
