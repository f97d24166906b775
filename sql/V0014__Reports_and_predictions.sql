-- V0014: MiroFish's reports and the predictions made from them.
--
-- MiroFish's ReportAgent writes, per report, reports/<report_id>/ with meta.json (ids,
-- requirement, status, times, error), outline.json, section_NN.md (one markdown file per
-- section, numbered from 1), full_report.md (the sections assembled), progress.json and
-- agent_log.jsonl (one JSON object a line). They are record kinds of the write path
-- (memory._record_kinds), so staging, merge, prune and the importer's COPY follow from
-- these tables:
--   reports          one row per report: meta.json's fields; the rest of meta.json,
--                    outline.json and progress.json in metadata, as written
--   report_sections  each section_NN.md verbatim (markdown), with its title
--   report_chunks    the sections cut into chunks (by paragraph, CJK-aware) and embedded:
--                    what memory.search_reports searches
--   report_log       agent_log.jsonl, one row a line
--   predictions      claims a report makes, with a horizon and a confidence in 0..1
-- A section, chunk or log line belongs to its report (foreign key, ON DELETE CASCADE); a
-- promote prunes them before their report, so none goes uncounted.
--
-- prediction_outcomes is not a record kind: an outcome is what a caller later recorded
-- about the world (memory.record_outcome), never part of an import, so no import stages,
-- merges or prunes it, and a re-import cannot overwrite it. It is keyed by the prediction's
-- id within the simulation; a prediction a later import no longer carries goes, its outcome
-- stays (and shows again if the prediction returns) until the simulation goes.

-- The outcomes a prediction may have, defined once: the table's check and
-- memory.record_outcome read it (as memory._label_max in V0005).
CREATE FUNCTION memory._outcomes()
RETURNS text[]
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT ARRAY['confirmed', 'refuted', 'partial', 'void']
$fn$;
COMMENT ON FUNCTION memory._outcomes() IS
    'Internal: the outcomes a prediction may have (confirmed, refuted, partial, void)';
REVOKE ALL ON FUNCTION memory._outcomes() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._outcomes() TO memory_reader, memory_writer;

CREATE TABLE memory.reports (
    tenant_id               uuid        NOT NULL,
    simulation_id           uuid        NOT NULL,
    report_id               text        NOT NULL,
    report_key              uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    mirofish_simulation_id  text,
    graph_id                text,
    simulation_requirement  text,
    title                   text,
    summary                 text,
    status                  text        NOT NULL,
    started_at              timestamptz,
    completed_at            timestamptz,
    error                   text,
    metadata                jsonb       NOT NULL DEFAULT '{}'::jsonb,
    source                  text        NOT NULL DEFAULT 'api',
    created_at              timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at              timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT reports_pkey PRIMARY KEY (tenant_id, simulation_id, report_key),
    CONSTRAINT reports_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT reports_source_check CHECK (source IN ('api', 'import')),
    CONSTRAINT reports_metadata_check CHECK (pg_catalog.jsonb_typeof(metadata) = 'object')
);
COMMENT ON TABLE memory.reports IS 'MiroFish ReportAgent reports of a simulation (meta.json), one row per report';
COMMENT ON COLUMN memory.reports.started_at IS 'MiroFish''s created_at: when the report''s generation began';

CREATE TABLE memory.report_sections (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    report_id      text        NOT NULL,
    report_key     uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    section_index  integer     NOT NULL,
    title          text        NOT NULL,
    markdown       text        NOT NULL,
    source         text        NOT NULL DEFAULT 'api',
    created_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT report_sections_pkey PRIMARY KEY (tenant_id, simulation_id, report_key, section_index),
    CONSTRAINT report_sections_report_fkey FOREIGN KEY (tenant_id, simulation_id, report_key)
        REFERENCES memory.reports (tenant_id, simulation_id, report_key) ON DELETE CASCADE,
    CONSTRAINT report_sections_index_check CHECK (section_index >= 1),
    CONSTRAINT report_sections_source_check CHECK (source IN ('api', 'import'))
);
COMMENT ON TABLE memory.report_sections IS 'The sections of a report (section_NN.md as written), in order';

CREATE TABLE memory.report_chunks (
    tenant_id        uuid        NOT NULL,
    simulation_id    uuid        NOT NULL,
    chunk_id         text        NOT NULL,
    chunk_key        uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(chunk_id)::uuid) STORED,
    report_id        text        NOT NULL,
    report_key       uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    section_index    integer     NOT NULL,
    chunk_index      integer     NOT NULL,
    content          text        NOT NULL,
    embedding        public.vector(384),
    embedding_model  text,
    content_hash     bytea,
    source           text        NOT NULL DEFAULT 'api',
    created_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT report_chunks_pkey PRIMARY KEY (tenant_id, simulation_id, chunk_key),
    CONSTRAINT report_chunks_section_fkey FOREIGN KEY (tenant_id, simulation_id, report_key, section_index)
        REFERENCES memory.report_sections (tenant_id, simulation_id, report_key, section_index) ON DELETE CASCADE,
    CONSTRAINT report_chunks_index_check CHECK (chunk_index >= 0),
    CONSTRAINT report_chunks_embedding_model_check CHECK ((embedding IS NULL) = (embedding_model IS NULL)),
    CONSTRAINT report_chunks_source_check CHECK (source IN ('api', 'import'))
);
-- The foreign key's cascade from a section, and the chunks of one section in order.
CREATE INDEX report_chunks_section_idx
    ON memory.report_chunks (tenant_id, simulation_id, report_key, section_index, chunk_index);
COMMENT ON TABLE memory.report_chunks IS 'Report sections cut into embedded chunks: what search_reports searches';

CREATE TABLE memory.report_log (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    report_id      text        NOT NULL,
    report_key     uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    line_no        integer     NOT NULL,
    action         text,
    entry          jsonb       NOT NULL,
    source         text        NOT NULL DEFAULT 'api',
    created_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT report_log_pkey PRIMARY KEY (tenant_id, simulation_id, report_key, line_no),
    CONSTRAINT report_log_report_fkey FOREIGN KEY (tenant_id, simulation_id, report_key)
        REFERENCES memory.reports (tenant_id, simulation_id, report_key) ON DELETE CASCADE,
    CONSTRAINT report_log_entry_check CHECK (pg_catalog.jsonb_typeof(entry) = 'object'),
    CONSTRAINT report_log_source_check CHECK (source IN ('api', 'import'))
);
COMMENT ON TABLE memory.report_log IS 'A report''s agent_log.jsonl, one row a line (line_no from 1)';

CREATE TABLE memory.predictions (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    prediction_id  text        NOT NULL,
    prediction_key uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(prediction_id)::uuid) STORED,
    report_id      text,
    section_index  integer,
    claim          text        NOT NULL,
    horizon        text,
    confidence     numeric,
    metadata       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    source         text        NOT NULL DEFAULT 'api',
    created_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    updated_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT predictions_pkey PRIMARY KEY (tenant_id, simulation_id, prediction_key),
    CONSTRAINT predictions_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT predictions_confidence_check CHECK (confidence >= 0 AND confidence <= 1),
    CONSTRAINT predictions_metadata_check CHECK (pg_catalog.jsonb_typeof(metadata) = 'object'),
    CONSTRAINT predictions_source_check CHECK (source IN ('api', 'import'))
);
COMMENT ON TABLE memory.predictions IS 'Claims about the future a simulation''s reports make: claim, horizon, confidence (0..1)';

CREATE TABLE memory.prediction_outcomes (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    prediction_id  text        NOT NULL,
    prediction_key uuid        NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(prediction_id)::uuid) STORED,
    outcome        text        NOT NULL,
    note           text,
    observed_at    timestamptz,
    recorded_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    recorded_by    name        NOT NULL DEFAULT CURRENT_USER,
    CONSTRAINT prediction_outcomes_pkey PRIMARY KEY (tenant_id, simulation_id, prediction_key),
    CONSTRAINT prediction_outcomes_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT prediction_outcomes_outcome_check
        CHECK (outcome = ANY (memory._outcomes()))
);
COMMENT ON TABLE memory.prediction_outcomes IS 'What became of a prediction, recorded later by a caller (memory.record_outcome); never written by an import';

-- The staged tables: an attempt's rows until it commits or ends (see V0002).
CREATE UNLOGGED TABLE memory.staged_reports (
    tenant_id               uuid    NOT NULL,
    attempt_id              uuid    NOT NULL,
    report_id               text    NOT NULL,
    report_key              uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    position                integer NOT NULL,
    mirofish_simulation_id  text,
    graph_id                text,
    simulation_requirement  text,
    title                   text,
    summary                 text,
    status                  text    NOT NULL,
    started_at              timestamptz,
    completed_at            timestamptz,
    error                   text,
    metadata                jsonb   NOT NULL DEFAULT '{}'::jsonb,
    source                  text    NOT NULL DEFAULT 'import',
    CONSTRAINT staged_reports_pkey PRIMARY KEY (tenant_id, attempt_id, report_key),
    CONSTRAINT staged_reports_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE,
    CONSTRAINT staged_reports_source_check CHECK (source IN ('api', 'import'))
);

CREATE UNLOGGED TABLE memory.staged_report_sections (
    tenant_id      uuid    NOT NULL,
    attempt_id     uuid    NOT NULL,
    report_id      text    NOT NULL,
    report_key     uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    section_index  integer NOT NULL,
    position       integer NOT NULL,
    title          text    NOT NULL,
    markdown       text    NOT NULL,
    source         text    NOT NULL DEFAULT 'import',
    CONSTRAINT staged_report_sections_pkey PRIMARY KEY (tenant_id, attempt_id, report_key, section_index),
    CONSTRAINT staged_report_sections_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE,
    CONSTRAINT staged_report_sections_source_check CHECK (source IN ('api', 'import'))
);

CREATE UNLOGGED TABLE memory.staged_report_chunks (
    tenant_id        uuid    NOT NULL,
    attempt_id       uuid    NOT NULL,
    chunk_id         text    NOT NULL,
    chunk_key        uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(chunk_id)::uuid) STORED,
    position         integer NOT NULL,
    report_id        text    NOT NULL,
    report_key       uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    section_index    integer NOT NULL,
    chunk_index      integer NOT NULL,
    content          text    NOT NULL,
    embedding        public.vector(384),
    embedding_model  text,
    content_hash     bytea,
    source           text    NOT NULL DEFAULT 'import',
    CONSTRAINT staged_report_chunks_pkey PRIMARY KEY (tenant_id, attempt_id, chunk_key),
    CONSTRAINT staged_report_chunks_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE,
    CONSTRAINT staged_report_chunks_source_check CHECK (source IN ('api', 'import'))
);

CREATE UNLOGGED TABLE memory.staged_report_log (
    tenant_id      uuid    NOT NULL,
    attempt_id     uuid    NOT NULL,
    report_id      text    NOT NULL,
    report_key     uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(report_id)::uuid) STORED,
    line_no        integer NOT NULL,
    position       integer NOT NULL,
    action         text,
    entry          jsonb   NOT NULL,
    source         text    NOT NULL DEFAULT 'import',
    CONSTRAINT staged_report_log_pkey PRIMARY KEY (tenant_id, attempt_id, report_key, line_no),
    CONSTRAINT staged_report_log_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE,
    CONSTRAINT staged_report_log_source_check CHECK (source IN ('api', 'import'))
);

CREATE UNLOGGED TABLE memory.staged_predictions (
    tenant_id      uuid    NOT NULL,
    attempt_id     uuid    NOT NULL,
    prediction_id  text    NOT NULL,
    prediction_key uuid    NOT NULL GENERATED ALWAYS AS (pg_catalog.md5(prediction_id)::uuid) STORED,
    position       integer NOT NULL,
    report_id      text,
    section_index  integer,
    claim          text    NOT NULL,
    horizon        text,
    confidence     numeric,
    metadata       jsonb   NOT NULL DEFAULT '{}'::jsonb,
    source         text    NOT NULL DEFAULT 'import',
    CONSTRAINT staged_predictions_pkey PRIMARY KEY (tenant_id, attempt_id, prediction_key),
    CONSTRAINT staged_predictions_attempt_fkey FOREIGN KEY (tenant_id, attempt_id)
        REFERENCES memory.import_attempts (tenant_id, attempt_id) ON DELETE CASCADE,
    CONSTRAINT staged_predictions_confidence_check CHECK (confidence >= 0 AND confidence <= 1),
    CONSTRAINT staged_predictions_source_check CHECK (source IN ('api', 'import'))
);

DO $rls$
DECLARE
    v_table text;
BEGIN
    FOREACH v_table IN ARRAY ARRAY['reports', 'report_sections', 'report_chunks', 'report_log',
                                   'predictions', 'prediction_outcomes', 'staged_reports',
                                   'staged_report_sections', 'staged_report_chunks',
                                   'staged_report_log', 'staged_predictions'] LOOP
        EXECUTE pg_catalog.format('ALTER TABLE memory.%I ENABLE ROW LEVEL SECURITY', v_table);
        EXECUTE pg_catalog.format('ALTER TABLE memory.%I FORCE ROW LEVEL SECURITY', v_table);
        EXECUTE pg_catalog.format('REVOKE ALL ON memory.%I FROM PUBLIC', v_table);
        EXECUTE pg_catalog.format('GRANT SELECT ON memory.%I TO memory_reader', v_table);
        EXECUTE pg_catalog.format('GRANT INSERT ON memory.%I TO memory_writer', v_table);
    END LOOP;
END
$rls$;

-- Column UPDATE only (V0006): memory._merge sets every committed column of a record kind
-- and updated_at; memory.record_outcome corrects an outcome. Deletes go through the
-- SECURITY DEFINER functions (memory._prune, memory._discard_staged,
-- memory._delete_simulation, memory.delete_tenant).
GRANT UPDATE (report_id, mirofish_simulation_id, graph_id, simulation_requirement, title, summary,
              status, started_at, completed_at, error, metadata, source, updated_at)
    ON memory.reports TO memory_writer;
GRANT UPDATE (report_id, section_index, title, markdown, source, updated_at)
    ON memory.report_sections TO memory_writer;
GRANT UPDATE (chunk_id, report_id, section_index, chunk_index, content, embedding, embedding_model,
              content_hash, source, updated_at)
    ON memory.report_chunks TO memory_writer;
GRANT UPDATE (report_id, line_no, action, entry, source, updated_at)
    ON memory.report_log TO memory_writer;
GRANT UPDATE (prediction_id, report_id, section_index, claim, horizon, confidence, metadata, source,
              updated_at)
    ON memory.predictions TO memory_writer;
GRANT UPDATE (outcome, note, observed_at, recorded_at, recorded_by)
    ON memory.prediction_outcomes TO memory_writer;

-- delete_simulation and delete_tenant count reports and predictions too (re-created by
-- their re-applied files with the new result columns).
DROP FUNCTION IF EXISTS memory.delete_simulation(uuid, uuid);
DROP FUNCTION IF EXISTS memory._delete_simulation(uuid, uuid);
DROP FUNCTION IF EXISTS memory.delete_tenant(uuid);
