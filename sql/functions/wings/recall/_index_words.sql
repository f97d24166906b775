-- Trigger of memory.episodes, memory.edges and memory.nodes (sql/finalize/words.sql), once a
-- statement, after an INSERT, an UPDATE or a DELETE: keeps memory.word_postings the words of
-- the rows as the statement left them. Inserted rows add their postings; an update that
-- changed the text (content, fact, an entity's name or summary) replaces the row's
-- postings; a delete removes them, and rows that go with their simulation (a delete of the
-- simulation or the tenant, a retention sweep) take all of the simulation's postings by
-- the key's prefix, their rows not read again. No statement that deletes postings reads a
-- transition table: the old rows are read once each into arrays first, so the work
-- follows what is deleted whatever plan the delete gets (a spilled transition table read
-- again for every posting cost a sweep minutes). A
-- row's postings: each lexeme of memory._words_doc(text, more) with its occurrences, weight
-- ('A' the text, 'B' only in an entity's summary) and the document's number of distinct
-- words; an entity's name also gives its trigrams (memory._name_trigrams) as kind 't'. A
-- row's old postings are found by computing them again from the old text, through the
-- postings' key (no second index to maintain on every insert). The expressions are written
-- into the statements (a set-returning function a row cost far more: not
-- inlined), each document computed once a row (OFFSET 0: not pulled up into every lexeme's
-- columns, which computed it once a lexeme), and new postings are inserted in key order
-- (cheaper than key-random inserts into the primary key). The text columns come from
-- a fixed map of the three tables, named by the trigger's argument (a shard of a
-- distributed table has a name of its own), never by a caller's argument: the transition
-- tables' columns differ by table.
-- On a Citus worker the trigger fires on a shard (TG_TABLE_NAME is the shard's, the argument
-- the table's) and its statements on memory.word_postings are Citus's to plan, which cannot
-- see a transition table: there the rows of each transition table are read first into a
-- jsonb value ($3) by a statement on the transition table alone, and the statements read
-- that. Each statement names the tenant ($2) as Citus requires inside a call delegated to
-- the tenant's worker.
-- SECURITY DEFINER (owned by memory_owner, whose policies admit only the call's tenant) so
-- that no tenant role holds a privilege on memory.word_postings beyond reading it: it
-- writes only the postings of rows the statement that fired it changed, which that
-- statement's role could change (its own policies admitted them). It enters each tenant of
-- those rows in turn as memory_owner (normally the one tenant of the call; a superuser's
-- direct write enters none) and gives the transaction its tenant setting back.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the call's tenant setting, which it sets to each tenant of the changed
-- rows in turn and gives back; the rows are those the firing statement wrote under its own
-- policies; its SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._index_words() RETURNS trigger
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind "char";
    v_key  text;
    v_text text;
    v_more text;
    -- a transition table's rows as (tenant_id, simulation_id, key, body, more)
    v_rows constant text := 'SELECT r.tenant_id, r.simulation_id, r.%1$I AS key, r.%2$I AS body, %3$s AS more FROM %4$I AS r'
                            ' WHERE r.tenant_id = $2';
    -- a row's postings (n: the row as v_rows gives it; $1 the kind)
    v_postings constant text :=
        'SELECT u.lexeme AS word, $1 AS kind, LEAST(COALESCE(pg_catalog.cardinality(u.positions), 1), 32767)::smallint AS tf,
                (CASE WHEN ''A'' = ANY (u.weights) THEN ''A'' ELSE ''B'' END)::"char" AS weight,
                LEAST(pg_catalog.length(d.doc), 32767)::smallint AS doc_len
           FROM (SELECT memory._words_doc(n.body, n.more) AS doc OFFSET 0) AS d CROSS JOIN LATERAL pg_catalog.unnest(d.doc) AS u
          WHERE n.body IS NOT NULL
         UNION ALL
         SELECT g.trigram, ''t''::"char", 1::smallint, ''A''::"char", LEAST(pg_catalog.cardinality(t.grams), 32767)::smallint
           FROM (SELECT memory._name_trigrams(n.body) AS grams WHERE $1 = ''n'' OFFSET 0) AS t
          CROSS JOIN LATERAL pg_catalog.unnest(t.grams) AS g (trigram)';
    -- on a shard: a transition table's rows as read into jsonb ($3)
    c_from_jsonb constant text := 'SELECT r.* FROM pg_catalog.jsonb_to_recordset($3)'
                                  ' AS r (tenant_id uuid, simulation_id uuid, key uuid, body text, more text)';
    v_old    text;
    v_new    text;
    v_tenant uuid;
    v_shard  boolean := TG_TABLE_NAME OPERATOR(pg_catalog.<>) TG_ARGV[0];
    v_old_rows jsonb;
    v_sims   uuid[];
    v_gone   uuid[];
    v_sim    uuid;
    v_del_sims  uuid[];
    v_del_words text[];
    v_del_kinds "char"[];
    v_del_keys  uuid[];
    v_new_rows jsonb;
    v_call   text := pg_catalog.current_setting('memory.tenant_id', true);
BEGIN
    -- nothing to do for a statement that wrote no row (an upsert's INSERT trigger when every
    -- row conflicted, an unchanged replay's UPDATE): no dynamic statement planned
    IF TG_OP = 'DELETE' THEN
        IF NOT EXISTS (SELECT 1 FROM old_rows) THEN
            RETURN NULL;
        END IF;
    ELSIF NOT EXISTS (SELECT 1 FROM new_rows) THEN
        RETURN NULL;
    END IF;
    SELECT m.kind, m.key, m.body, m.more INTO v_kind, v_key, v_text, v_more
      FROM (VALUES ('episodes', 'e'::"char", 'episode_key', 'content', 'NULL::text'),
                   ('edges', 'f'::"char", 'edge_key', 'fact', 'NULL::text'),
                   ('nodes', 'n'::"char", 'node_key', 'name', 'r.summary')) AS m (tbl, kind, key, body, more)
     WHERE m.tbl = TG_ARGV[0] AND TG_NARGS = 1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'memory._index_words fired on %.% for %', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_ARGV[0]
            USING ERRCODE = 'triggered_action_exception',
                  HINT = 'the trigger names its table as its one argument: episodes, edges or nodes';
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        v_old := pg_catalog.format(v_rows, v_key, v_text, v_more, 'old_rows');
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        v_new := pg_catalog.format(v_rows, v_key, v_text, v_more, 'new_rows');
    END IF;
    IF TG_OP = 'UPDATE' THEN
        -- only the rows whose text changed
        v_old := 'SELECT o.* FROM (' OPERATOR(pg_catalog.||) v_old OPERATOR(pg_catalog.||) ') AS o JOIN ('
                 OPERATOR(pg_catalog.||) v_new OPERATOR(pg_catalog.||) ') AS n USING (tenant_id, simulation_id, key)'
                 ' WHERE o.body IS DISTINCT FROM n.body OR o.more IS DISTINCT FROM n.more';
        v_new := 'SELECT n.* FROM (' OPERATOR(pg_catalog.||) pg_catalog.format(v_rows, v_key, v_text, v_more, 'new_rows')
                 OPERATOR(pg_catalog.||) ') AS n JOIN (' OPERATOR(pg_catalog.||) pg_catalog.format(v_rows, v_key, v_text, v_more, 'old_rows')
                 OPERATOR(pg_catalog.||) ') AS o USING (tenant_id, simulation_id, key)'
                 ' WHERE o.body IS DISTINCT FROM n.body OR o.more IS DISTINCT FROM n.more';
    END IF;
    FOR v_tenant IN EXECUTE 'SELECT DISTINCT r.tenant_id FROM '
                            OPERATOR(pg_catalog.||) CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END
                            OPERATOR(pg_catalog.||) ' AS r' LOOP
        PERFORM pg_catalog.set_config('memory.tenant_id', v_tenant::text, true);
        IF v_shard THEN
            -- the transition tables' rows of the tenant as jsonb, read where Citus plans nothing
            IF v_old IS NOT NULL THEN
                EXECUTE 'SELECT pg_catalog.jsonb_agg(x) FROM (' OPERATOR(pg_catalog.||) v_old OPERATOR(pg_catalog.||) ') AS x'
                   INTO v_old_rows USING v_kind, v_tenant;
            END IF;
            IF v_new IS NOT NULL THEN
                EXECUTE 'SELECT pg_catalog.jsonb_agg(x) FROM (' OPERATOR(pg_catalog.||) v_new OPERATOR(pg_catalog.||) ') AS x'
                   INTO v_new_rows USING v_kind, v_tenant;
            END IF;
        END IF;
        IF v_old IS NOT NULL THEN
            -- The old rows' simulations, read in one pass over the rows; a simulation that
            -- went (a delete of it or of its tenant, a retention sweep) takes all of its
            -- postings by their key's prefix, and its rows are not looked at again: no
            -- statement joins the postings to the transition table, whose plan could read
            -- it again for every posting once it has spilled to disk.
            EXECUTE 'SELECT pg_catalog.array_agg(DISTINCT o.simulation_id) FROM ('
                    OPERATOR(pg_catalog.||) CASE WHEN v_shard THEN c_from_jsonb ELSE v_old END OPERATOR(pg_catalog.||) ') AS o'
               INTO v_sims USING v_kind, v_tenant, v_old_rows;
            v_gone := '{}';
            FOREACH v_sim IN ARRAY COALESCE(v_sims, '{}') LOOP
                IF NOT EXISTS (SELECT 1 FROM memory.simulations AS s
                                WHERE s.tenant_id = v_tenant AND s.simulation_id = v_sim) THEN
                    v_gone := v_gone OPERATOR(pg_catalog.||) v_sim;
                END IF;
            END LOOP;
            IF pg_catalog.cardinality(v_gone) > 0 THEN
                DELETE FROM memory.word_postings AS w
                 WHERE w.tenant_id = v_tenant AND w.simulation_id = ANY (v_gone);
            END IF;
            -- The rows of simulations that stay: their postings' keys computed in one pass
            -- over the rows, then deleted by key (each found through the primary key).
            IF pg_catalog.cardinality(v_gone) < pg_catalog.cardinality(v_sims) THEN
                EXECUTE 'SELECT pg_catalog.array_agg(n.simulation_id), pg_catalog.array_agg(p.word),
                                pg_catalog.array_agg(p.kind), pg_catalog.array_agg(n.key) FROM ('
                        OPERATOR(pg_catalog.||) CASE WHEN v_shard THEN c_from_jsonb ELSE v_old END OPERATOR(pg_catalog.||) ') AS n
                          CROSS JOIN LATERAL (' OPERATOR(pg_catalog.||) v_postings OPERATOR(pg_catalog.||) ') AS p
                         WHERE n.simulation_id <> ALL ($4)'
                   INTO v_del_sims, v_del_words, v_del_kinds, v_del_keys
                  USING v_kind, v_tenant, v_old_rows, v_gone;
                IF v_del_keys IS NOT NULL THEN
                    -- (planned for these arrays, whose length it then knows)
                    EXECUTE 'DELETE FROM memory.word_postings AS w
                              USING ROWS FROM (pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($5), pg_catalog.unnest($6))
                                    AS d (simulation_id, word, kind, key)
                             WHERE w.tenant_id = $2 AND w.simulation_id = d.simulation_id AND w.word = d.word
                               AND w.kind = d.kind AND w.row_key = d.key'
                      USING v_kind, v_tenant, v_del_sims, v_del_words, v_del_kinds, v_del_keys;
                END IF;
            END IF;
        END IF;
        IF v_new IS NOT NULL THEN
            EXECUTE 'INSERT INTO memory.word_postings (tenant_id, simulation_id, word, kind, row_key, tf, weight, doc_len)
                     SELECT $2, n.simulation_id, p.word, p.kind, n.key, p.tf, p.weight, p.doc_len FROM ('
                    OPERATOR(pg_catalog.||) CASE WHEN v_shard THEN c_from_jsonb ELSE v_new END OPERATOR(pg_catalog.||) ') AS n
                      CROSS JOIN LATERAL (' OPERATOR(pg_catalog.||) v_postings OPERATOR(pg_catalog.||) ') AS p
                     ORDER BY p.word, p.kind, n.key'
              USING v_kind, v_tenant, v_new_rows;
        END IF;
    END LOOP;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_call, ''), true);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION memory._index_words() IS 'Internal: trigger keeping memory.word_postings the words of the episodes, facts and entities as each statement left them';
