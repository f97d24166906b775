-- V0009: no tenant or simulation id in the catalog.
--
-- A simulation's own approximate-nearest-neighbour index was named after an md5 of its
-- tenant and simulation and carried both uuids as literals in its predicate, which every
-- role reads from pg_indexes and the statistics views. Each simulation now has an opaque
-- number (memory.simulations.sim_no, drawn from a sequence, unique across tenants); its
-- episodes carry it (memory.episodes.sim_no, filled by a trigger from the simulation, so no
-- writer chooses it); the index is memory.episodes_ann_<sim_no> WHERE sim_no = <sim_no>.
-- A number says how many simulations were created before it, nothing about whose it is.

ALTER TABLE memory.simulations ADD COLUMN sim_no bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE memory.simulations ADD CONSTRAINT simulations_sim_no_key UNIQUE (sim_no);
COMMENT ON COLUMN memory.simulations.sim_no IS
    'Opaque number of the simulation: the only thing index names and predicates name';

ALTER TABLE memory.episodes ADD COLUMN sim_no bigint;
COMMENT ON COLUMN memory.episodes.sim_no IS
    'The simulation''s opaque number (memory.simulations.sim_no), set by trigger episodes_take_the_simulation_number';

-- The rows written so far. Row-level security is forced on the owner as well; a deploy by a
-- role with the owner's privileges (managed PostgreSQL) would update nothing through it, so
-- it is lifted for this transaction, which holds both tables in ACCESS EXCLUSIVE mode since
-- the ALTERs above: no other session sees the tables meanwhile.
ALTER TABLE memory.simulations NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.episodes NO FORCE ROW LEVEL SECURITY;
UPDATE memory.episodes AS e SET sim_no = s.sim_no
  FROM memory.simulations AS s
 WHERE s.tenant_id = e.tenant_id AND s.simulation_id = e.simulation_id;
ALTER TABLE memory.episodes ALTER COLUMN sim_no SET NOT NULL;

-- The indexes built under the old names: rebuilt under the new name and predicate, with
-- their parameters, then dropped (an index of a simulation that is gone is just dropped).
DO $ann$
DECLARE
    v_old record;
    v_no  bigint;
BEGIN
    FOR v_old IN
        SELECT c.relname, pg_catalog.array_to_string(c.reloptions, ', ') AS options,
               pg_catalog.substring(pg_catalog.pg_get_expr(i.indpred, i.indrelid),
                                    'tenant_id = ''([0-9a-f-]{36})''')::uuid AS tenant_id,
               pg_catalog.substring(pg_catalog.pg_get_expr(i.indpred, i.indrelid),
                                    'simulation_id = ''([0-9a-f-]{36})''')::uuid AS simulation_id
          FROM pg_catalog.pg_index AS i
          JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
         WHERE i.indrelid = 'memory.episodes'::regclass
           AND c.relname LIKE 'episodes\_ann\_%'
           AND pg_catalog.pg_get_expr(i.indpred, i.indrelid) LIKE '%simulation_id%'
    LOOP
        SELECT s.sim_no INTO v_no FROM memory.simulations AS s
         WHERE s.tenant_id = v_old.tenant_id AND s.simulation_id = v_old.simulation_id;
        EXECUTE pg_catalog.format('DROP INDEX memory.%I', v_old.relname);
        IF v_no IS NOT NULL THEN
            EXECUTE pg_catalog.format(
                'CREATE INDEX %I ON memory.episodes USING hnsw ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)%s WHERE sim_no = %s',
                'episodes_ann_' || v_no,
                CASE WHEN v_old.options <> '' THEN ' WITH (' || v_old.options || ')' ELSE '' END,
                v_no);
        END IF;
    END LOOP;
END
$ann$;
ALTER TABLE memory.simulations FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.episodes FORCE ROW LEVEL SECURITY;

-- Every episode written from now on takes its simulation's number, whatever the writer
-- put there. sql/functions/_episode_sim_no.sql is the function's home (re-applied on every
-- deploy); it is created here too so that the trigger exists from this version on.
CREATE OR REPLACE FUNCTION memory._episode_sim_no() RETURNS trigger
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    NEW.sim_no := (SELECT s.sim_no FROM memory.simulations AS s
                    WHERE s.tenant_id = NEW.tenant_id AND s.simulation_id = NEW.simulation_id);
    RETURN NEW;
END
$fn$;
REVOKE ALL ON FUNCTION memory._episode_sim_no() FROM PUBLIC;
CREATE TRIGGER episodes_take_the_simulation_number
    BEFORE INSERT OR UPDATE OF tenant_id, simulation_id, sim_no ON memory.episodes
    FOR EACH ROW EXECUTE FUNCTION memory._episode_sim_no();

-- The helpers that named and searched the old indexes.
DROP FUNCTION IF EXISTS memory._ann_index_name(uuid, uuid);
DROP FUNCTION IF EXISTS memory._search_episodes_ann(uuid, uuid, public.vector, integer, integer, real);
