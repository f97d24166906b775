-- Distribute the memory schema over a Citus cluster (issue 15). Run on the coordinator by
-- `swarm-memory distribute` after `swarm-memory migrate`, as a superuser (Citus's table and
-- function distribution and citus.enable_unsafe_triggers need one); `swarm-memory migrate`
-- runs it again after every deploy of a distributed database (a deploy re-applies the
-- functions and policies, and may add tables).
-- Idempotent: what is distributed already is left alone, and a second run changes nothing.
--
--   reference tables (a copy on every node): the tables without a tenant, and the tenants
--     and their grants, which every call's grant check reads on the node it runs on;
--   distributed tables: every table with a tenant_id column, by tenant_id, all colocated
--     with memory.simulations (a tenant's rows of every table live in one shard group, so
--     each key and foreign key, all of which lead with tenant_id, stays local to a shard);
--   distributed functions: every public API function whose first argument is p_tenant_id,
--     by that argument, colocated with memory.simulations and force_delegation: a call is
--     sent whole to the worker holding the tenant, also inside a transaction, where its own
--     memory._enter_tenant and the policies work as on one node. The two import functions
--     that use the caller's own session stay on the coordinator: begin_import (the
--     attempt's advisory lock and pg_stat_activity) and stage_rows (the session's temporary
--     staging tables); they send the tenant to the workers (memory._set_tenant with
--     citus.propagate_set_commands = 'local', which reaches a worker with the first write,
--     or with any statement inside a transaction block). validate_import, commit_import,
--     abort_import and import_attempts run on the tenant's worker like every other call: a
--     promote is one local transaction there.
--
-- Schema changes, each for a reason Citus gives: policies lose their scalar subquery (Citus
-- refuses subqueries in policies of distributed tables); UNIQUE (sim_no) of
-- memory.simulations is dropped (a unique constraint must hold the distribution column;
-- sim_no stays unique, drawn from one identity sequence, and UNIQUE (tenant_id,
-- simulation_id, sim_no) stays for the foreign keys of memory.episodes); foreign keys to the
-- reference tables are dropped (see step 1); the unlogged staged_* tables become logged (a
-- shard move publishes its shard group, see step 0b).
--
-- Run in autocommit (distribute.py does): the procedure commits after each step, since Citus
-- does not take a reference table created earlier in the same transaction for one.
SET search_path = pg_catalog, pg_temp;
SET citus.enable_unsafe_triggers = on;
SET client_min_messages = warning;

CREATE TEMPORARY TABLE IF NOT EXISTS distribute_log (step text, object text);
TRUNCATE distribute_log;

CREATE OR REPLACE PROCEDURE pg_temp.swarm_memory_distribute()
LANGUAGE plpgsql
AS $do$
DECLARE
    v_table regclass;
    v_done boolean;
    v_fn record;
    v_map jsonb;
    -- the tenants with their grants, and every table without a tenant_id (read by every node)
    v_reference regclass[];
    -- API functions that stay on the coordinator: begin_import and stage_rows use the
    -- caller's own session; sweep and health take a tenant that may be NULL, which Citus
    -- 14.0.1 crashes on when it plans a delegated call, and refuse on a cluster
    -- (memory._refuse_on_cluster), where their per-tenant forms are delegated
    c_coordinator CONSTANT text[] := ARRAY['begin_import', 'stage_rows', 'sweep', 'health'];
    c_subquery_form CONSTANT text := '(tenant_id = ( SELECT memory._current_tenant_id() AS _current_tenant_id))';
    c_cluster_form CONSTANT text := '(tenant_id = memory._current_tenant_id())';
BEGIN
    SELECT pg_catalog.array_agg(c.oid::regclass ORDER BY c.relname) INTO v_reference
      FROM pg_catalog.pg_class AS c
     WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind IN ('r', 'p')
       AND (c.relname IN ('tenants', 'tenant_grants')
            OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS a
                            WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped));
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'citus') THEN
        RAISE EXCEPTION 'the citus extension is not installed in database %', pg_catalog.current_database()
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'shared_preload_libraries = ''citus'', restart, CREATE EXTENSION citus, add the workers';
    END IF;

    -- 0. policies in the cluster form: Citus refuses a subquery in a policy of a distributed
    --    table, so `tenant_id = (SELECT memory._current_tenant_id())` becomes
    --    `tenant_id = memory._current_tenant_id()` (the same rule; STABLE, so an index scan
    --    evaluates it once, a sequential scan once a row). Same names, roles and commands.
    FOR v_fn IN
        SELECT p.polrelid::regclass AS tbl, p.polname, p.polcmd, p.polroles,
               pg_catalog.pg_get_expr(p.polqual, p.polrelid) AS qual,
               pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) AS with_check
          FROM pg_catalog.pg_policy AS p
          JOIN pg_catalog.pg_class AS c ON c.oid = p.polrelid
         WHERE c.relnamespace = 'memory'::regnamespace
           AND (pg_catalog.pg_get_expr(p.polqual, p.polrelid) = c_subquery_form
                OR pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) = c_subquery_form)
         ORDER BY 1, 2
    LOOP
        EXECUTE pg_catalog.format('DROP POLICY %I ON %s', v_fn.polname, v_fn.tbl);
        EXECUTE pg_catalog.format('CREATE POLICY %I ON %s AS PERMISSIVE FOR %s TO %s%s%s',
            v_fn.polname, v_fn.tbl,
            CASE v_fn.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE'
                             WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
            (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(r.rolname), ', ')
               FROM pg_catalog.pg_roles AS r WHERE r.oid = ANY (v_fn.polroles)),
            CASE WHEN v_fn.qual IS NULL THEN ''
                 WHEN v_fn.qual = c_subquery_form THEN ' USING (' || c_cluster_form || ')'
                 ELSE ' USING (' || v_fn.qual || ')' END,
            CASE WHEN v_fn.with_check IS NULL THEN ''
                 WHEN v_fn.with_check = c_subquery_form THEN ' WITH CHECK (' || c_cluster_form || ')'
                 ELSE ' WITH CHECK (' || v_fn.with_check || ')' END);
        INSERT INTO distribute_log VALUES ('policy in cluster form', v_fn.tbl::text || '.' || v_fn.polname);
    END LOOP;
    COMMIT;

    -- 0b. every table logged: Citus moves a shard (citus_rebalance_start, tenant isolation,
    --    citus_move_shard_placement) by logical replication of its whole shard group, and an
    --    unlogged table cannot be published, so one unlogged table (the staged_* tables of
    --    the import, V0002 and V0014) makes every move of the group fail. On one node the
    --    staged rows stay unlogged (they are rebuilt by rerunning the import); on a cluster
    --    they are written to the WAL, which a move needs. Citus carries SET LOGGED to every
    --    shard of a table already distributed.
    FOR v_fn IN
        SELECT c.oid::regclass AS tbl
          FROM pg_catalog.pg_class AS c
         WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind = 'r' AND c.relpersistence = 'u'
         ORDER BY c.relname
    LOOP
        EXECUTE pg_catalog.format('ALTER TABLE %s SET LOGGED', v_fn.tbl);
        INSERT INTO distribute_log VALUES ('logged for shard moves', v_fn.tbl::text);
    END LOOP;
    COMMIT;

    -- 1. reference tables. The foreign keys naming them are dropped, and stay dropped: with
    --    one in place Citus turns the tables holding it into local tables of the coordinator
    --    (and then refuses to move a table with an identity column), and once distributed,
    --    every write to a table holding one takes a row-exclusive lock on the reference
    --    table's shards (lock_shard_resources), which needs a write privilege on it that
    --    tenant roles must not hold (memory_writer on memory.tenants). What they enforced
    --    holds without them: a row is written only by a call for a tenant the caller holds a
    --    grant for, and a grant names an existing tenant; delete_tenant removes a tenant's rows
    --    table by table.
    FOR v_fn IN
        SELECT f.conrelid::regclass AS tbl, f.conname
          FROM pg_catalog.pg_constraint AS f
         WHERE f.contype = 'f'
           AND f.confrelid = ANY (v_reference)
           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d
                            WHERE d.logicalrelid = f.confrelid AND d.repmodel = 't')
    LOOP
        INSERT INTO distribute_log VALUES ('dropped foreign key to a reference table', v_fn.tbl::text || '.' || v_fn.conname);
        EXECUTE pg_catalog.format('ALTER TABLE %s DROP CONSTRAINT %I', v_fn.tbl, v_fn.conname);
    END LOOP;
    FOREACH v_table IN ARRAY v_reference LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition
                        WHERE logicalrelid = v_table AND partmethod = 'n' AND repmodel = 't') THEN
            PERFORM pg_catalog.create_reference_table(v_table);
            INSERT INTO distribute_log VALUES ('reference table', v_table::text);
        END IF;
    END LOOP;
    COMMIT;

    -- 2. the one constraint Citus refuses
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_constraint
                WHERE conrelid = 'memory.simulations'::regclass AND conname = 'simulations_sim_no_key') THEN
        ALTER TABLE memory.simulations DROP CONSTRAINT simulations_sim_no_key;
        INSERT INTO distribute_log VALUES ('dropped constraint', 'memory.simulations.simulations_sim_no_key');
    END IF;

    -- 3. tenant tables by tenant_id, colocated; a table after the tables its foreign keys name
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition
                    WHERE logicalrelid = 'memory.simulations'::regclass AND partmethod = 'h') THEN
        PERFORM pg_catalog.create_distributed_table('memory.simulations', 'tenant_id');
        INSERT INTO distribute_log VALUES ('distributed table', 'memory.simulations');
        COMMIT;
    END IF;
    LOOP
        v_done := true;
        FOR v_table IN
            SELECT c.oid::regclass
              FROM pg_catalog.pg_class AS c
              JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
             WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind IN ('r', 'p')
               AND NOT (c.oid = ANY (v_reference))
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d
                                WHERE d.logicalrelid = c.oid AND d.partmethod = 'h')
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint AS f
                                WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid
                                  AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d
                                                   WHERE d.logicalrelid = f.confrelid
                                                     AND (d.partmethod = 'h' OR d.repmodel = 't')))
             ORDER BY c.relname
        LOOP
            PERFORM pg_catalog.create_distributed_table(v_table, 'tenant_id', colocate_with => 'memory.simulations');
            INSERT INTO distribute_log VALUES ('distributed table', v_table::text);
        COMMIT;
            v_done := false;
        END LOOP;
        EXIT WHEN v_done;
    END LOOP;
    IF EXISTS (SELECT 1
                 FROM pg_catalog.pg_class AS c
                WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind IN ('r', 'p')
                  AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d
                                   WHERE d.logicalrelid = c.oid AND (d.partmethod = 'h' OR d.repmodel = 't'))) THEN
        RAISE EXCEPTION 'tables left undistributed: %',
              (SELECT pg_catalog.string_agg(c.relname, ', ')
                 FROM pg_catalog.pg_class AS c
                WHERE c.relnamespace = 'memory'::regnamespace AND c.relkind IN ('r', 'p')
                  AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d
                                   WHERE d.logicalrelid = c.oid AND (d.partmethod = 'h' OR d.repmodel = 't')))
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'see the log of memory.distribute and sql/citus/distribute.sql';
    END IF;

    -- 4. API functions by their tenant argument, colocated, delegated also inside transactions.
    --    The functions reach the workers one by one, where a SQL function's body would be
    --    checked against functions that have not arrived yet (get_edge names
    --    memory._edge_detail(memory.edges), which 4b brings): the bodies go unchecked there,
    --    as the migration created them (pgmigrate.yml: check_function_bodies = off).
    SET LOCAL citus.propagate_set_commands = 'local';
    SET LOCAL check_function_bodies = off;
    FOR v_fn IN
        SELECT p.oid::regprocedure AS fn, p.proname
          FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = 'memory'::regnamespace
           AND p.proname !~ '^_'
           AND p.pronargs >= 1
           AND p.proargnames[1] = 'p_tenant_id'
           AND p.proargtypes[0] = 'uuid'::regtype
           AND p.prokind = 'f'
           AND NOT (p.proname = ANY (c_coordinator))
           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_object AS o
                            WHERE o.classid = 'pg_catalog.pg_proc'::regclass AND o.objid = p.oid
                              AND o.distribution_argument_index = 0 AND o.colocationid =
                                  (SELECT d.colocationid FROM pg_catalog.pg_dist_partition AS d
                                    WHERE d.logicalrelid = 'memory.simulations'::regclass)
                              AND o.force_delegation)
         ORDER BY p.proname, p.oid
    LOOP
        PERFORM pg_catalog.create_distributed_function(v_fn.fn, 'p_tenant_id',
                                                   colocate_with => 'memory.simulations', force_delegation => true);
        INSERT INTO distribute_log VALUES ('distributed function', v_fn.fn::text);
    END LOOP;
    -- 4a. an API function that stays on the coordinator but was delegated by an earlier
    --    distribute (memory.sweep, until V0028) loses its distribution argument: Citus has no
    --    call to take one back, so its record goes and it is registered again without one.
    FOR v_fn IN
        SELECT p.oid::regprocedure AS fn, p.oid
          FROM pg_catalog.pg_proc AS p
          JOIN pg_catalog.pg_dist_object AS o
            ON o.classid = 'pg_catalog.pg_proc'::regclass AND o.objid = p.oid
         WHERE p.pronamespace = 'memory'::regnamespace AND p.proname = ANY (c_coordinator)
           AND o.distribution_argument_index IS NOT NULL
         ORDER BY p.proname, p.oid
    LOOP
        DELETE FROM pg_catalog.pg_dist_object AS o
         WHERE o.classid = 'pg_catalog.pg_proc'::regclass AND o.objid = v_fn.oid;
        IF EXISTS (SELECT 1 FROM pg_catalog.run_command_on_workers(pg_catalog.format(
                       'DELETE FROM pg_catalog.pg_dist_object WHERE classid = %s AND objid = %s::regprocedure',
                       'pg_catalog.pg_proc'::regclass::oid, pg_catalog.quote_literal(v_fn.fn::text))) AS w
                    WHERE NOT w.success) THEN
            RAISE EXCEPTION 'could not take the delegation of % back on every worker', v_fn.fn
                USING ERRCODE = 'connection_failure', HINT = 'check that every worker is up, and run distribute again';
        END IF;
        INSERT INTO distribute_log VALUES ('not delegated', v_fn.fn::text);
    END LOOP;
    -- 4b. every other function of the schema on every node (no distribution argument: not
    --    delegated). Citus copies a function to the workers on its own only where nothing in
    --    its signature is a table's row type; those (memory._require_attempt,
    --    memory._kind_problems, ...) run on the workers too, inside statements the coordinator
    --    sends there (validate_import, commit_import) and inside delegated calls.
    FOR v_fn IN
        SELECT p.oid::regprocedure AS fn
          FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = 'memory'::regnamespace AND p.prokind = 'f'
           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_object AS o
                            WHERE o.classid = 'pg_catalog.pg_proc'::regclass AND o.objid = p.oid)
         ORDER BY p.proname, p.oid
    LOOP
        PERFORM pg_catalog.create_distributed_function(v_fn.fn);
        INSERT INTO distribute_log VALUES ('function on every node', v_fn.fn::text);
    END LOOP;
    -- 4b, then: no routine of the schema is PUBLIC's on a worker either: a copy Citus makes there
    --    (4b) is created with PUBLIC's default EXECUTE, which the deploy's one REVOKE on the
    --    coordinator (sql/finalize/ownership.sql) did not reach (rls_audit() on a worker
    --    reports it). Idempotent, so not logged.
    FOR v_fn IN
        SELECT p.oid::regprocedure AS fn FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = 'memory'::regnamespace
         ORDER BY p.proname, p.oid
    LOOP
        -- on the coordinator, which Citus carries to every worker for a distributed function
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', v_fn.fn);
    END LOOP;
    -- 4c. custom plans only: a generic plan cannot be routed (memory._use_custom_plans, which
    --    every later deploy of the cluster runs too: sql/finalize/cluster_plans.sql).
    INSERT INTO distribute_log SELECT 'custom plans', f::text FROM memory._use_custom_plans() AS f;
    COMMIT;

    -- 5. grants (V0024): each grant's role by its OID on every node, since OIDs differ per
    --    node. memory.grant_tenant records them for a new grant; this brings the grants made
    --    before the database was distributed, or before a node was added, up to date (run
    --    distribute after citus_add_node, before moving shards to the new node). A grant whose
    --    role was dropped gets an empty map: it authorises nobody on any node. A grant
    --    ended on the cluster (its map emptied by memory._end_grant, V0028) stays ended: only
    --    memory.grant_tenant renews it. Then every grant must carry a map (a CHECK), so that
    --    none falls back to role_oid on a worker.
    --    Citus refuses volatile functions in an UPDATE of a reference table: one map a row.
    FOR v_fn IN
        SELECT g.tenant_id, g.role_oid, g.role_name, g.node_role_oids,
               EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.oid = g.role_oid) AS alive
          FROM memory.tenant_grants AS g
         WHERE g.node_role_oids IS DISTINCT FROM '{}'::jsonb
         ORDER BY g.tenant_id, g.role_oid
    LOOP
        v_map := CASE WHEN v_fn.alive THEN memory._node_role_oids(v_fn.role_oid) ELSE '{}'::jsonb END;
        IF v_map IS DISTINCT FROM v_fn.node_role_oids THEN
            UPDATE memory.tenant_grants AS g SET node_role_oids = v_map
             WHERE g.tenant_id = v_fn.tenant_id AND g.role_oid = v_fn.role_oid;
            INSERT INTO distribute_log VALUES ('grant mapped to every node', v_fn.tenant_id::text || ' ' || v_fn.role_name);
        END IF;
    END LOOP;
    -- 6. writes to the reference tables by administrators (create_tenant, grant_tenant): Citus
    --    serialises a write to a replicated table with a lock on the first worker's
    --    placement, ExclusiveLock by default, which it grants only to roles holding UPDATE,
    --    DELETE or TRUNCATE on the table (privileges administrators must not hold: see
    --    V0006); in commutative mode the lock is ROW EXCLUSIVE, which INSERT suffices for.
    --    Only the reference tables are replicated here (one placement a shard otherwise),
    --    and their writes are inserts of new keys, ON CONFLICT DO NOTHING or DO UPDATE of
    --    an ended grant's map, and the update that ends one (memory._end_grant): each
    --    idempotent.
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_db_role_setting AS s
                    WHERE s.setdatabase = (SELECT d.oid FROM pg_catalog.pg_database AS d
                                            WHERE d.datname = pg_catalog.current_database())
                      AND s.setrole = 0 AND 'citus.all_modifications_commutative=on' = ANY (s.setconfig)) THEN
        EXECUTE pg_catalog.format('ALTER DATABASE %I SET citus.all_modifications_commutative = on',
                                  pg_catalog.current_database());
        INSERT INTO distribute_log VALUES ('database setting', 'citus.all_modifications_commutative = on');
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint
                    WHERE conrelid = 'memory.tenant_grants'::regclass AND conname = 'tenant_grants_mapped_to_every_node') THEN
        ALTER TABLE memory.tenant_grants
            ADD CONSTRAINT tenant_grants_mapped_to_every_node CHECK (node_role_oids IS NOT NULL);
        INSERT INTO distribute_log VALUES ('constraint', 'memory.tenant_grants.tenant_grants_mapped_to_every_node');
    END IF;
END
$do$;

CALL pg_temp.swarm_memory_distribute();
