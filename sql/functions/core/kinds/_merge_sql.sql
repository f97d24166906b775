-- The statement that writes rows of a record kind into its committed table, built from the
-- catalog (memory._kind_columns, memory._kind_key) for a kind memory._kind has checked:
-- from the rows of an import attempt (p_staged) or from a validated jsonb batch. Its
-- parameters are those of the kind's generated merge function (sql/finalize/kind_merges.sql,
-- memory._merge_<kind>): $1 tenant, $2 simulation, $3 attempt, $4 items. A row is inserted,
-- or replaces the stored row with the same key, or, when nothing would change, is not
-- written at all (the updated_at of an unchanged row does not move). Values are filled as
-- staging fills them (memory._kind_columns.value_sql). A staged row without vectors whose
-- content hash equals the committed row's keeps the committed vectors (the importer embeds
-- only what changed). A row keeps the source of its last write: 'import' for an attempt's
-- rows (the staged tables' default), 'api' for a batch's. The statement returns one row:
-- inserted, updated, unchanged. An updated row's updated_at is the proposed row's (the
-- column's default, now(), since no kind writes it): Citus refuses now() itself in the SET
-- of an ON CONFLICT DO UPDATE on a distributed table. The batch form joins no committed row
-- (a batch has no vector to keep): Citus failed to plan the LATERAL read of the items
-- beside a table joined ON false ('failed to postpone qual containing lateral reference').
CREATE OR REPLACE FUNCTION memory._merge_sql(p_kind text, p_staged boolean) RETURNS text
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind   memory.record_kind := memory._kind(p_kind);
    v_vector boolean;
    v_cols   text;
    v_src    text;
    v_set    text;
    v_old    text;
    v_new    text;
    v_extra  text[];
    v_from   text;
    v_total  text;
    v_pkey   name;
    v_sim_cols text;
    v_sim_vals text;
BEGIN
    SELECT pg_catalog.bool_or(c.col = 'embedding') FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format('%I', c.col), ', ') FILTER (WHERE c.committed),
           pg_catalog.string_agg(CASE WHEN p_staged AND (c.check_kind = 'vector' OR c.col = 'embedding_model')
                                      THEN pg_catalog.format('COALESCE(%s, l.%I)', c.value_sql, c.col)
                                      ELSE c.value_sql END, ', ') FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format('%I = excluded.%I', c.col, c.col), ', ') FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format(
               CASE WHEN c.check_kind = 'vector' THEN 't.%I::real[]' ELSE 't.%I' END, c.col), ', ')
               FILTER (WHERE c.committed),
           pg_catalog.string_agg(pg_catalog.format(
               CASE WHEN c.check_kind = 'vector' THEN 'excluded.%I::real[]' ELSE 'excluded.%I' END, c.col), ', ')
               FILTER (WHERE c.committed),
           pg_catalog.array_agg(c.col::text ORDER BY c.col) FILTER (WHERE NOT v_kind.batch_spec ? c.col)
      INTO v_vector, v_cols, v_src, v_set, v_old, v_new, v_extra
      FROM memory._kind_columns(p_kind) AS c;
    SELECT c.conname INTO v_pkey FROM pg_catalog.pg_constraint AS c
     WHERE c.conrelid = v_kind.live AND c.contype = 'p';
    -- Columns the committed table takes from its simulation (episodes.sim_no, the number of
    -- its search index; a foreign key holds it to the simulation's): the committed table has
    -- them without a default, the staged table does not, memory.simulations does. Read once
    -- a statement (an uncorrelated subquery), not once a row.
    SELECT COALESCE(pg_catalog.string_agg(pg_catalog.format(', %I', a.attname), ''), ''),
           COALESCE(pg_catalog.string_agg(pg_catalog.format(
               ', (SELECT v.%I FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2)',
               a.attname), ''), '')
      INTO v_sim_cols, v_sim_vals
      FROM pg_catalog.pg_attribute AS a
      LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = v_kind.live AND a.attnum > 0 AND NOT a.attisdropped AND d.adbin IS NULL
       AND a.attname NOT IN ('tenant_id', 'simulation_id')
       AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS st
                        WHERE st.attrelid = v_kind.staged AND st.attname = a.attname AND NOT st.attisdropped)
       AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS sa
                    WHERE sa.attrelid = 'memory.simulations'::pg_catalog.regclass
                      AND sa.attname = a.attname AND NOT sa.attisdropped);

    IF p_staged THEN
        v_from := pg_catalog.format('%s AS s', v_kind.staged)
            || CASE WHEN v_vector THEN pg_catalog.format(
                   ' LEFT JOIN %s AS l ON s.embedding IS NULL AND s.content_hash IS NOT NULL'
                   ' AND l.tenant_id = $1 AND l.simulation_id = $2 AND %s AND l.content_hash = s.content_hash',
                   v_kind.live, memory._kind_key(p_kind, 'l', 's')) ELSE '' END
            || ' WHERE s.tenant_id = $1 AND s.attempt_id = $3';
        v_total := pg_catalog.format('(SELECT pg_catalog.count(*) FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3)',
                                     v_kind.staged);
    ELSE
        -- Items: each read as the staged row type, with the id in the kind's id column,
        -- JSON nulls dropped so that defaults apply, no field the batch does not accept, and
        -- the source of a row written outside an import ('api', see V0010).
        v_from := pg_catalog.format(
            'pg_catalog.jsonb_array_elements($4) AS i(item) CROSS JOIN LATERAL pg_catalog.jsonb_populate_record('
            'NULL::%s, %L::jsonb || (i.item - %L::text[] - ARRAY(SELECT f.key FROM pg_catalog.jsonb_each(i.item) AS f'
            ' WHERE f.value = %L::jsonb))%s) AS s',
            v_kind.staged, v_kind.item_defaults || '{"source": "api"}'::jsonb, COALESCE(v_extra, '{}'), 'null',
            CASE WHEN v_kind.id_column IS NOT NULL
                 THEN pg_catalog.format(' || pg_catalog.jsonb_build_object(%L, i.item -> %L)', v_kind.id_column, 'id')
                 ELSE '' END);
        v_total := 'pg_catalog.jsonb_array_length($4)';
    END IF;

    RETURN pg_catalog.format(
        'WITH written AS ('
        ' INSERT INTO %1$s AS t (tenant_id, simulation_id, %2$s%9$s)'
        ' SELECT $1, $2, %3$s%10$s FROM %4$s'
        ' ON CONFLICT ON CONSTRAINT %5$I DO UPDATE SET %6$s, updated_at = excluded.updated_at'
        ' WHERE (%7$s) IS DISTINCT FROM (%8$s)'
        ' RETURNING (t.xmax = 0) AS was_inserted)'
        ' SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),'
        '        pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),'
        '        %11$s - pg_catalog.count(*)'
        '   FROM written AS w',
        v_kind.live, v_cols, v_src, v_from, v_pkey, v_set, v_old, v_new, v_sim_cols, v_sim_vals, v_total);
END
$fn$;

COMMENT ON FUNCTION memory._merge_sql(text, boolean) IS 'Internal: the merge statement of a record kind, from an import attempt or a jsonb batch, built from the catalog';
GRANT EXECUTE ON FUNCTION memory._merge_sql(text, boolean) TO memory_writer;
