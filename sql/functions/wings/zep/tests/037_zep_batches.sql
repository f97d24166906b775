/* pgmigrate-encoding: utf-8 */
-- 037_zep_batches: Zep's batch API (wing zep). A batch is a draft that collects graph
-- episodes (thread messages refused), its items not episodes yet; processing makes every item
-- an episode of its graph in one transaction, each item given its episode's uuid and
-- sequence_index, searchable at once; from then on the batch's and its items' status are
-- their episodes' (queued, processing, partial, succeeded), a second process re-queues the
-- failed ones and changes nothing else; a processed batch takes no items; the lists page by
-- cursors that end; another tenant sees none of it. The service and the 3.25 SDK over these
-- functions: tests/test_zep_batches.py.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(38);

SET LOCAL SESSION AUTHORIZATION app_a;
SELECT graph FROM memory.zep_create_graph(fx.tenant_a(), 'batch_g1') \g /dev/null
SELECT graph FROM memory.zep_create_graph(fx.tenant_a(), 'batch_g2') \g /dev/null
CREATE TEMP TABLE b1 ON COMMIT DROP AS
SELECT (memory.zep_batch_create(fx.tenant_a(), '{"operation_id": "op-1"}', ARRAY['assistant']) ->> 'batch_id')::uuid AS id;
GRANT SELECT ON b1 TO PUBLIC;

-- Batches (5)
SELECT is((SELECT ROW(j ->> 'status', j -> 'metadata' ->> 'operation_id', j ->> 'item_count', j ->> 'ignore_roles')::text
             FROM memory.zep_batch(fx.tenant_a(), (SELECT id FROM b1)) AS j),
          '(draft,op-1,0,"[""assistant""]")', 'batch.create makes a draft with its metadata');
SELECT throws_ok($$SELECT memory.zep_batch_create(fx.tenant_a(), '[1]')$$, '22023', NULL, 'metadata that is not an object is refused');
SELECT throws_like($$SELECT memory.zep_batch_create(fx.tenant_a(), NULL, ARRAY['robot'])$$, '%unknown role%',
                   'an ignore_roles entry that is not a role is refused');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT memory.zep_batch_create(fx.tenant_a())$$, '42501', NULL, 'a reader makes no batch');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT memory.zep_batch(fx.tenant_b(), (SELECT id FROM b1))$$, 'P0002', NULL,
                 'another tenant''s batch is unknown to B');
RESET SESSION AUTHORIZATION;

-- Items (9)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT is((SELECT pg_catalog.string_agg(ROW(e ->> 'item_no', e ->> 'status', e ->> 'graph_id', e ->> 'episode_uuid' IS NULL)::text, ' ')
             FROM memory.zep_batch_add(fx.tenant_a(), (SELECT id FROM b1),
    '[{"type": "graph_episode", "graph_id": "batch_g1", "data": "The harbour board voted to close the pier.", "data_type": "text"},
      {"type": "graph_episode", "graph_id": "batch_g1", "data": "港口委员会投票决定关闭码头。", "created_at": "2024-05-01T08:00:00Z",
       "source_description": "weibo", "metadata": {"chunk": 2}},
      {"type": "graph_episode", "graph_id": "batch_g2", "data": "{\"agent\": \"Maya\"}", "data_type": "json"}]') AS e),
          '(1,pending,batch_g1,t) (2,pending,batch_g1,t) (3,pending,batch_g2,t)', 'batch.add appends items, pending');
SELECT throws_like($$SELECT memory.zep_batch_add(fx.tenant_a(), (SELECT id FROM b1),
                     '[{"type": "thread_message", "thread_id": "t1", "content": "hi", "role": "user"}]')$$,
                   '%thread_message items are not served%', 'a thread_message item is refused');
SELECT throws_ok($$SELECT memory.zep_batch_add(fx.tenant_a(), (SELECT id FROM b1),
                     '[{"type": "graph_episode", "graph_id": "no_such_graph", "data": "x"}]')$$,
                 'P0002', NULL, 'an item of a graph the tenant does not have is refused');
SELECT throws_like($$SELECT memory.zep_batch_add(fx.tenant_a(), (SELECT id FROM b1),
                     '[{"type": "graph_episode", "graph_id": "batch_g1", "data": "fine"},
                       {"type": "graph_episode", "graph_id": "batch_g1", "data": "x", "created_at": "soon"}]')$$,
                   '%"created_at" soon is not a time (item 2)%', 'a bad item is refused, naming it');
SELECT throws_ok($$SELECT memory.zep_batch_add(fx.tenant_a(), (SELECT id FROM b1),
                     (SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('type', 'graph_episode', 'graph_id', 'batch_g1', 'data', 'x'))
                        FROM pg_catalog.generate_series(1, memory._zep_batch_items_max()) AS i))$$,
                 '54000', NULL, 'more items than a batch holds are refused');
SELECT is(memory.zep_batch(fx.tenant_a(), (SELECT id FROM b1)) ->> 'item_count', '3', 'a refused add wrote nothing');
SELECT is((SELECT pg_catalog.count(*) FROM memory.zep_graph_episodes(fx.tenant_a(), 'batch_g1')), 0::bigint,
          'a draft''s items are not episodes yet');
SELECT is((SELECT ROW(pg_catalog.jsonb_array_length(p -> 'items'), p ->> 'next_cursor')::text
             FROM memory.zep_batch_items(fx.tenant_a(), (SELECT id FROM b1), 2) AS p), '(2,2)',
          'a page of items says where the next starts');
SELECT is((SELECT ROW(p -> 'items' -> 0 ->> 'item_no', pg_catalog.jsonb_array_length(p -> 'items'), p ->> 'next_cursor')::text
             FROM memory.zep_batch_items(fx.tenant_a(), (SELECT id FROM b1), 2, 2) AS p), '(3,1,)',
          'and the last page ends the cursor');

-- Processing (9)
SELECT is((SELECT ROW(j ->> 'status', j -> 'progress' ->> 'queued_items', j ->> 'processed_at' IS NOT NULL)::text
             FROM memory.zep_batch_process(fx.tenant_a(), (SELECT id FROM b1)) AS j),
          '(queued,3,t)', 'batch.process queues every item');
CREATE TEMP TABLE items1 ON COMMIT DROP AS
SELECT memory.zep_batch_items(fx.tenant_a(), (SELECT id FROM b1)) AS page;
SELECT is((SELECT pg_catalog.count(*) FROM pg_catalog.jsonb_array_elements((SELECT page FROM items1) -> 'items') AS e
            WHERE e ->> 'status' = 'queued' AND e ->> 'episode_uuid' = e ->> 'source_uuid'
              AND memory.zep_episode(fx.tenant_a(), (e ->> 'episode_uuid')::uuid) ->> 'sequence_index' = e ->> 'sequence_index'),
          3::bigint, 'each item is its episode: its uuid, sequence_index and status');
SELECT ok((SELECT pg_catalog.bool_and(a.s < b.s)
             FROM (SELECT (e ->> 'item_no')::int AS n, (e ->> 'sequence_index')::bigint AS s
                     FROM pg_catalog.jsonb_array_elements((SELECT page FROM items1) -> 'items') AS e) AS a
             JOIN (SELECT (e ->> 'item_no')::int AS n, (e ->> 'sequence_index')::bigint AS s
                     FROM pg_catalog.jsonb_array_elements((SELECT page FROM items1) -> 'items') AS e) AS b ON b.n = a.n + 1),
          'the episodes are numbered in item order');
SELECT is((SELECT pg_catalog.string_agg(e ->> 'content', ' | ' ORDER BY (e ->> 'sequence_index')::bigint)
             FROM memory.zep_graph_episodes(fx.tenant_a(), 'batch_g1') AS e WHERE (e ->> 'batch_id')::uuid = (SELECT id FROM b1)),
          'The harbour board voted to close the pier. | 港口委员会投票决定关闭码头。', 'the items are episodes of their graphs');
SELECT is((SELECT pg_catalog.count(*) FROM memory.search_words(fx.tenant_a(),
              (SELECT simulation_id FROM memory.zep_graph(fx.tenant_a(), 'batch_g1')), '码头')), 1::bigint,
          'and found by their words at once');
SELECT is(memory.zep_batch_process(fx.tenant_a(), (SELECT id FROM b1)) - 'updated_at',
          memory.zep_batch(fx.tenant_a(), (SELECT id FROM b1)) - 'updated_at', 'processing again answers the batch');
SELECT is(memory.zep_batch_items(fx.tenant_a(), (SELECT id FROM b1)), (SELECT page FROM items1),
          'and changes nothing');
SELECT throws_ok($$SELECT memory.zep_batch_add(fx.tenant_a(), (SELECT id FROM b1),
                     '[{"type": "graph_episode", "graph_id": "batch_g1", "data": "late"}]')$$,
                 '55000', NULL, 'a processed batch takes no items');
CREATE TEMP TABLE b0 ON COMMIT DROP AS
SELECT (memory.zep_batch_create(fx.tenant_a()) ->> 'batch_id')::uuid AS id;
GRANT SELECT ON b0 TO PUBLIC;
SELECT throws_ok($$SELECT memory.zep_batch_process(fx.tenant_a(), (SELECT id FROM b0))$$,
                 '22023', NULL, 'a batch without items is not processed');

-- Status from the episodes (6)
CREATE TEMP TABLE claim1 ON COMMIT DROP AS SELECT * FROM memory.zep_claim_episodes(fx.tenant_a(), 1);
SELECT is(memory.zep_batch(fx.tenant_a(), (SELECT id FROM b1)) ->> 'status', 'processing', 'a claimed item makes the batch processing');
SELECT memory.zep_fail_extraction(fx.tenant_a(), (SELECT episode_uuid FROM claim1), 1, 'the model endpoint answered 503') \g /dev/null
CREATE TEMP TABLE claim2 ON COMMIT DROP AS SELECT * FROM memory.zep_claim_episodes(fx.tenant_a(), 5);
SELECT memory.zep_apply_extraction(fx.tenant_a(), c.episode_uuid, c.attempt, '{"entities": [], "facts": []}') FROM claim2 AS c \g /dev/null
SELECT is((SELECT ROW(j ->> 'status', j -> 'progress' ->> 'succeeded_items', j -> 'progress' ->> 'failed_items',
                      j -> 'progress' ->> 'percent_complete')::text
             FROM memory.zep_batch(fx.tenant_a(), (SELECT id FROM b1)) AS j),
          '(partial,2,1,100.0)', 'two extracted and one failed: partial');
SELECT is((SELECT ROW(e ->> 'item_no', e -> 'error' ->> 'message')::text
             FROM pg_catalog.jsonb_array_elements(memory.zep_batch_items(fx.tenant_a(), (SELECT id FROM b1), NULL, NULL, 'failed') -> 'items') AS e),
          '(1,"the model endpoint answered 503")', 'the failed item carries its episode''s error');
SELECT is((SELECT ROW(j ->> 'status', j -> 'progress' ->> 'queued_items')::text
             FROM memory.zep_batch_process(fx.tenant_a(), (SELECT id FROM b1)) AS j),
          '(processing,1)', 'processing again queues the failed item');
CREATE TEMP TABLE claim3 ON COMMIT DROP AS SELECT * FROM memory.zep_claim_episodes(fx.tenant_a(), 5);
SELECT memory.zep_apply_extraction(fx.tenant_a(), c.episode_uuid, c.attempt, '{"entities": [], "facts": []}') FROM claim3 AS c \g /dev/null
SELECT is((SELECT ROW(j ->> 'status', j ->> 'completed_at' IS NOT NULL)::text
             FROM memory.zep_batch(fx.tenant_a(), (SELECT id FROM b1)) AS j),
          '(succeeded,t)', 'and once it is extracted the batch succeeded');
SELECT is((SELECT pg_catalog.count(*) FROM memory.zep_claim_episodes(fx.tenant_a(), 5)), 0::bigint,
          'with nothing left in the queue');

-- Listing (3)
SELECT is((SELECT pg_catalog.count(*) FROM pg_catalog.jsonb_array_elements(memory.zep_batches(fx.tenant_a()) -> 'batches') AS b
            WHERE b -> 'metadata' ->> 'operation_id' = 'op-1' AND (b ->> 'batch_id')::uuid = (SELECT id FROM b1)), 1::bigint,
          'batch.list finds a batch by its metadata');
SELECT is((SELECT ROW(pg_catalog.jsonb_array_length(p -> 'batches'), p ->> 'next_cursor' IS NOT NULL)::text
             FROM memory.zep_batches(fx.tenant_a(), 1) AS p), '(1,t)', 'a page of batches says where the next starts');
SELECT is((SELECT pg_catalog.jsonb_array_length(p -> 'batches')
             FROM memory.zep_batches(fx.tenant_a(), NULL, NULL, 'succeeded') AS p), 1, 'and a status picks batches');

-- Deleting (2)
CREATE TEMP TABLE b2 ON COMMIT DROP AS
SELECT (memory.zep_batch_create(fx.tenant_a()) ->> 'batch_id')::uuid AS id;
GRANT SELECT ON b2 TO PUBLIC;
SELECT memory.zep_batch_add(fx.tenant_a(), (SELECT id FROM b2), '[{"type": "graph_episode", "graph_id": "batch_g2", "data": "waiting"}]') \g /dev/null
SELECT memory.zep_batch_process(fx.tenant_a(), (SELECT id FROM b2)) \g /dev/null
SELECT throws_ok($$SELECT memory.zep_batch_delete(fx.tenant_a(), (SELECT id FROM b2))$$, '55000', NULL,
                 'a batch still queued is not deleted');
SELECT memory.zep_batch_delete(fx.tenant_a(), (SELECT id FROM b1)) \g /dev/null
SELECT is((SELECT ROW((SELECT pg_catalog.count(*) FROM pg_catalog.jsonb_array_elements(memory.zep_batches(fx.tenant_a()) -> 'batches') AS b
                        WHERE (b ->> 'batch_id')::uuid = (SELECT id FROM b1)),
                      (SELECT pg_catalog.count(*) FROM memory.zep_graph_episodes(fx.tenant_a(), 'batch_g1')))::text),
          '(0,2)', 'a finished batch is deleted; its episodes stay in their graphs');
RESET SESSION AUTHORIZATION;

-- Another tenant (4)
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT memory.zep_batch_items(fx.tenant_b(), (SELECT id FROM b2))$$, 'P0002', NULL,
                 'B lists no items of A''s batch');
SELECT throws_ok($$SELECT memory.zep_batch_process(fx.tenant_b(), (SELECT id FROM b2))$$, 'P0002', NULL,
                 'B processes no batch of A''s');
SELECT throws_ok($$SELECT memory.zep_batch_add(fx.tenant_b(), (SELECT id FROM b0),
                     '[{"type": "graph_episode", "graph_id": "batch_g1", "data": "intruder"}]')$$, 'P0002', NULL,
                 'B adds nothing to A''s draft');
SELECT is(memory.zep_batches(fx.tenant_b()), '{"batches": [], "next_cursor": null}'::jsonb, 'B lists none of A''s batches');
RESET SESSION AUTHORIZATION;

SELECT * FROM finish();
ROLLBACK;
