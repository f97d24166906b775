/* pgmigrate-encoding: utf-8 */
-- 022_reports: MiroFish's reports and predictions (issue 10, point 2; V0014). A report, its
-- sections, chunks and agent log and its predictions are record kinds: staged, merged and
-- pruned by the import like the graph, replayed without change, and kept by an import that
-- does not carry them. An outcome is recorded by a caller and no import writes it. Every
-- read and write is the granted tenant's only; errors carry their SQLSTATE.
BEGIN;
\ir ../../../../tests/_fixtures.psql
SELECT plan(46);

-- One import of a report: meta, two sections (English and Chinese), three chunks, two log
-- lines, two predictions; p_conf is the first prediction's confidence.
CREATE FUNCTION pg_temp.import_report(p_conf numeric, p_with_second boolean DEFAULT true)
RETURNS TABLE (kind text, inserted bigint, updated bigint, unchanged bigint, deleted bigint)
LANGUAGE plpgsql AS $$
DECLARE
    v_attempt uuid;
BEGIN
    PERFORM memory.open_staging();
    v_attempt := memory.begin_import(fx.tenant_a(), fx.sim_a(),
        p_scope => '{"reports": null, "report_sections": null, "report_chunks": null, "report_log": null, "predictions": null}');
    INSERT INTO pg_temp.stage_reports (report_id, position, mirofish_simulation_id, title, summary, status, started_at, metadata)
    VALUES ('report_1', 0, 'sim_1', 'River Road', '商户担心客流', 'completed', '2026-01-12 15:04:11+00', '{"meta": {"report_id": "report_1"}}');
    INSERT INTO pg_temp.stage_report_sections (report_id, section_index, position, title, markdown)
    VALUES ('report_1', 1, 0, 'Shops', E'## Shops\n\nTraders fear fewer customers.\n\n'),
           ('report_1', 2, 1, '居民', E'## 居民\n\n居民支持禁行。\n\n');
    -- the chunks' vectors recorded as the default model's, so that a query vector naming
    -- none is of their model (memory._check_query_model)
    INSERT INTO pg_temp.stage_report_chunks (chunk_id, position, report_id, section_index, chunk_index, content, embedding, embedding_model)
    VALUES ('report_1/1/0', 0, 'report_1', 1, 0, 'Traders fear fewer customers.', fx.vec(1), memory._default_model()),
           ('report_1/1/1', 1, 'report_1', 1, 1, 'Delivery windows soften them.', fx.vec(2), memory._default_model()),
           ('report_1/2/0', 2, 'report_1', 2, 0, '居民支持禁行。', fx.vec(3), memory._default_model());
    INSERT INTO pg_temp.stage_report_log (report_id, line_no, position, action, entry)
    VALUES ('report_1', 1, 0, 'report_start', '{"action": "report_start", "details": {"message": "报告生成任务开始"}}'),
           ('report_1', 2, 1, 'report_complete', '{"action": "report_complete"}');
    INSERT INTO pg_temp.stage_predictions (prediction_id, position, report_id, section_index, claim, horizon, confidence)
    VALUES ('p1', 0, 'report_1', 1, 'The council approves a trial', '2026-06-30', p_conf);
    IF p_with_second THEN
        INSERT INTO pg_temp.stage_predictions (prediction_id, position, report_id, section_index, claim, horizon, confidence)
        VALUES ('p2', 1, 'report_1', 2, '公交班次加倍', '6 months', 0.55);
    END IF;
    PERFORM memory.stage_rows(fx.tenant_a(), v_attempt);
    RETURN QUERY SELECT c.kind, c.inserted, c.updated, c.unchanged, c.deleted
                   FROM memory.commit_import(fx.tenant_a(), v_attempt) AS c
                  WHERE c.kind IN ('reports', 'report_sections', 'report_chunks', 'report_log', 'predictions');
END $$;
GRANT EXECUTE ON FUNCTION pg_temp.import_report(numeric, boolean) TO PUBLIC;

-- The kinds (2)
SELECT set_eq($$SELECT kind FROM memory._record_kinds() WHERE ord > 4$$,
              ARRAY['reports', 'report_sections', 'report_chunks', 'report_log', 'predictions'],
              'reports, their sections, chunks and log lines, and predictions are record kinds');
SELECT ok(NOT EXISTS (SELECT 1 FROM memory._record_kinds() WHERE kind = 'prediction_outcomes'),
          'outcomes are no record kind: no import stages, merges or prunes them');

-- First import (2)
SET LOCAL SESSION AUTHORIZATION app_a;
CREATE TEMP TABLE first_import AS SELECT * FROM pg_temp.import_report(0.7);
RESET SESSION AUTHORIZATION;
SELECT results_eq($$SELECT kind, inserted FROM first_import ORDER BY kind$$,
                  $$VALUES ('predictions', 2::bigint), ('report_chunks', 3), ('report_log', 2), ('report_sections', 2), ('reports', 1)$$,
                  'the first import inserts the report, its parts and its predictions');
SELECT is((SELECT pg_catalog.array_agg(DISTINCT source) FROM memory.reports WHERE tenant_id = fx.tenant_a()),
          ARRAY['import'], 'an imported report has source import');

-- Reads (9)
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT results_eq($$SELECT report_id, title, status, sections, predictions, started_at FROM memory.reports(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('report_1', 'River Road', 'completed', 2::bigint, 2::bigint, '2026-01-12 15:04:11+00'::timestamptz)$$,
                  'reports lists the report with its section and prediction counts');
SELECT results_eq($$SELECT section_index, title, markdown FROM memory.report_sections(fx.tenant_a(), fx.sim_a(), 'report_1')$$,
                  $$VALUES (1, 'Shops', E'## Shops\n\nTraders fear fewer customers.\n\n'), (2, '居民', E'## 居民\n\n居民支持禁行。\n\n')$$,
                  'report_sections reads the sections back in order, as written');
SELECT results_eq($$SELECT line_no, action FROM memory.report_log(fx.tenant_a(), fx.sim_a(), 'report_1')$$,
                  $$VALUES (1, 'report_start'), (2, 'report_complete')$$, 'report_log reads the log lines in order');
SELECT is((SELECT entry #>> '{details,message}' FROM memory.report_log(fx.tenant_a(), fx.sim_a(), 'report_1', 1)),
          '报告生成任务开始', 'a log line is the JSON object as written');
SELECT results_eq($$SELECT line_no FROM memory.report_log(fx.tenant_a(), fx.sim_a(), 'report_1', 10, 1)$$,
                  ARRAY[2], 'report_log pages after a line');
SELECT results_eq($$SELECT report_id, section_index, section_title, chunk_index FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(3), 1)$$,
                  $$VALUES ('report_1', 2, '居民', 0)$$, 'search_reports finds the nearest chunk with its section');
SELECT ok((SELECT pg_catalog.bool_and(similarity <= 1) AND pg_catalog.count(*) = 3
             FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(1), 100)),
          'search_reports returns every chunk with a similarity, top_k clamped to what there is');
SELECT is((SELECT pg_catalog.array_agg(similarity ORDER BY similarity DESC) = pg_catalog.array_agg(similarity)
             FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(2), 10, 'report_1')),
          true, 'search_reports answers the most similar first, narrowed to a report');
SELECT results_eq($$SELECT prediction_id, confidence, outcome FROM memory.predictions(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES ('p1', 0.7::numeric, NULL::text), ('p2', 0.55, NULL)$$,
                  'predictions lists the claims with no outcome yet');
RESET SESSION AUTHORIZATION;

-- Outcomes (6)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT prediction_id, outcome, note, recorded_by FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'p1', 'confirmed', 'approved 4 to 3')$$,
                  $$VALUES ('p1', 'confirmed', 'approved 4 to 3', 'app_a'::name)$$,
                  'record_outcome records the outcome, when and by whom');
CREATE TEMP TABLE recorded AS SELECT * FROM memory.prediction_outcomes WHERE tenant_id = fx.tenant_a();
SELECT is((SELECT recorded_at FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'p1', 'confirmed', 'approved 4 to 3')),
          (SELECT recorded_at FROM recorded), 'recording the same outcome again changes nothing');
SELECT throws_ok($$SELECT * FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'p1', 'maybe')$$, '22023', NULL,
                 'an outcome that is none of memory._outcomes() is 22023');
SELECT throws_ok($$SELECT * FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'p9', 'void')$$, 'P0002', NULL,
                 'an outcome of an unknown prediction is P0002');
SELECT throws_ok($$SELECT * FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), NULL, 'void')$$, '22004', NULL,
                 'a NULL prediction id is 22004');
SELECT throws_ok($$SELECT * FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'p1', NULL)$$, '22004', NULL,
                 'a NULL outcome is 22004');
RESET SESSION AUTHORIZATION;

-- Replay and re-import (6)
SET LOCAL SESSION AUTHORIZATION app_a;
CREATE TEMP TABLE replay AS SELECT * FROM pg_temp.import_report(0.7);
RESET SESSION AUTHORIZATION;
SELECT is_empty($$SELECT kind FROM replay WHERE inserted + updated + deleted > 0$$,
                'replaying the same import changes nothing');
SELECT is((SELECT outcome FROM memory.prediction_outcomes WHERE tenant_id = fx.tenant_a() AND prediction_id = 'p1'),
          'confirmed', 'and the recorded outcome stays');
SET LOCAL SESSION AUTHORIZATION app_a;
CREATE TEMP TABLE revised AS SELECT * FROM pg_temp.import_report(0.8);
RESET SESSION AUTHORIZATION;
SELECT results_eq($$SELECT updated FROM revised WHERE kind = 'predictions'$$, ARRAY[1::bigint],
                  'a re-import that revises a prediction updates it');
SELECT results_eq($$SELECT confidence, outcome, note FROM memory.prediction_outcomes AS o
                     JOIN memory.predictions AS p USING (tenant_id, simulation_id, prediction_key)
                    WHERE o.tenant_id = fx.tenant_a() AND o.prediction_id = 'p1'$$,
                  $$VALUES (0.8::numeric, 'confirmed', 'approved 4 to 3')$$,
                  'and never overwrites its recorded outcome');
SET LOCAL SESSION AUTHORIZATION app_a;
CREATE TEMP TABLE without_p2 AS SELECT * FROM pg_temp.import_report(0.8, false);
SELECT memory.upsert_predictions(fx.tenant_a(), fx.sim_a(), '[{"id": "mine", "claim": "它会下雨", "confidence": 0.9}]');
CREATE TEMP TABLE after_api AS SELECT * FROM pg_temp.import_report(0.8, false);
RESET SESSION AUTHORIZATION;
SELECT results_eq($$SELECT deleted FROM without_p2 WHERE kind = 'predictions'$$, ARRAY[1::bigint],
                  'a prediction absent from a present predictions file is removed');
SELECT results_eq($$SELECT prediction_id, source FROM memory.predictions WHERE tenant_id = fx.tenant_a() ORDER BY 1$$,
                  $$VALUES ('mine', 'api'), ('p1', 'import')$$,
                  'a prediction added through upsert_predictions survives the next import');

-- An import that carries no report keeps the reports (2)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT memory.open_staging();
CREATE TEMP TABLE graph_only AS
SELECT c.* FROM (SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), p_scope => '{"nodes": null, "edges": null}') AS a) AS b,
       LATERAL (SELECT memory.stage_rows(fx.tenant_a(), b.a)) AS s,
       LATERAL memory.commit_import(fx.tenant_a(), b.a) AS c;
RESET SESSION AUTHORIZATION;
SELECT is_empty($$SELECT kind FROM graph_only WHERE kind IN ('reports', 'report_sections', 'report_chunks', 'report_log', 'predictions') AND deleted > 0$$,
                'an import whose scope names no report kind deletes none');
SELECT is((SELECT pg_catalog.count(*) FROM memory.report_chunks WHERE tenant_id = fx.tenant_a()), 3::bigint,
          'the report and its chunks are kept');

-- Bad input (8)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT throws_ok($$SELECT * FROM memory.report_sections(fx.tenant_a(), fx.sim_a(), 'report_nope')$$, 'P0002', NULL,
                 'report_sections of an unknown report is P0002');
SELECT throws_ok($$SELECT * FROM memory.report_log(fx.tenant_a(), fx.sim_a(), NULL)$$, '22004', NULL,
                 'report_log of a NULL report is 22004');
SELECT throws_ok($$SELECT * FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), '[1,2,3]')$$, '22023', NULL,
                 'search_reports with a vector of 3 dimensions is 22023');
SELECT throws_ok($$SELECT * FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(1), 5, 'report_nope')$$, 'P0002', NULL,
                 'search_reports narrowed to an unknown report is P0002');
SELECT throws_ok($$SELECT * FROM memory.upsert_predictions(fx.tenant_a(), fx.sim_a(), '[{"id": "x", "claim": "c", "confidence": 1.5}]')$$,
                 '22023', 'p_predictions[0].confidence: must be a number from 0 to 1, not 1.5',
                 'a confidence over 1 is refused naming the item');
SELECT throws_ok($$SELECT * FROM memory.upsert_predictions(fx.tenant_a(), fx.sim_a(), '[{"id": "x", "confidence": 0.5}]')$$,
                 '22023', 'p_predictions[0].claim: is missing', 'a prediction without a claim is refused naming the field');
SELECT throws_ok($$INSERT INTO memory.predictions (tenant_id, simulation_id, prediction_id, claim, confidence)
                   VALUES (fx.tenant_a(), fx.sim_a(), 'direct', 'c', -0.1)$$,
                 '23514', NULL, 'the table itself refuses a confidence outside 0..1');
SELECT throws_ok($$SELECT memory.begin_import(fx.tenant_a(), fx.sim_a(), '{"reports": -1}')$$, '22023', NULL,
                 'declared counts of a report kind are checked like the others');
RESET SESSION AUTHORIZATION;

-- Isolation (9): B's writer and A's reader
SET LOCAL SESSION AUTHORIZATION app_b;
SELECT throws_ok($$SELECT * FROM memory.reports(fx.tenant_a(), fx.sim_a())$$, '42501', NULL, 'app_b may not list A''s reports');
SELECT throws_ok($$SELECT * FROM memory.report_sections(fx.tenant_a(), fx.sim_a(), 'report_1')$$, '42501', NULL, 'app_b may not read A''s sections');
SELECT throws_ok($$SELECT * FROM memory.search_reports(fx.tenant_a(), fx.sim_a(), fx.vec(1))$$, '42501', NULL, 'app_b may not search A''s reports');
SELECT throws_ok($$SELECT * FROM memory.predictions(fx.tenant_a(), fx.sim_a())$$, '42501', NULL, 'app_b may not read A''s predictions');
SELECT throws_ok($$SELECT * FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'p1', 'refuted')$$, '42501', NULL, 'app_b may not record A''s outcomes');
SELECT is(fx.stored('reports', fx.tenant_a(), fx.sim_a()) + fx.stored('predictions', fx.tenant_a(), fx.sim_a()), 3::bigint,
          'fixture: A holds a report and two predictions');
SELECT is((SELECT pg_catalog.count(*) FROM memory.report_chunks) + (SELECT pg_catalog.count(*) FROM memory.prediction_outcomes), 0::bigint,
          'app_b sees no chunk and no outcome of A directly');
SELECT throws_ok($$SELECT * FROM memory.reports(fx.tenant_b(), fx.sim_a())$$, 'P0002', NULL,
                 'A''s simulation under B''s own tenant is P0002');
RESET SESSION AUTHORIZATION;
SET LOCAL SESSION AUTHORIZATION reader_a;
SELECT throws_ok($$SELECT * FROM memory.record_outcome(fx.tenant_a(), fx.sim_a(), 'p1', 'refuted')$$, '42501', NULL,
                 'a reader may not record an outcome');
RESET SESSION AUTHORIZATION;

-- Deletes (2)
SET LOCAL SESSION AUTHORIZATION app_a;
SELECT results_eq($$SELECT reports, predictions FROM memory.delete_simulation(fx.tenant_a(), fx.sim_a())$$,
                  $$VALUES (1::bigint, 2::bigint)$$, 'delete_simulation counts the reports and predictions it removes');
RESET SESSION AUTHORIZATION;
SELECT is(fx.stored('report_sections', fx.tenant_a(), fx.sim_a()) + fx.stored('report_chunks', fx.tenant_a(), fx.sim_a())
          + fx.stored('report_log', fx.tenant_a(), fx.sim_a()) + fx.stored('prediction_outcomes', fx.tenant_a(), fx.sim_a()),
          0::bigint, 'and the report''s parts and the outcomes go with it');

SELECT * FROM finish();
ROLLBACK;
