-- Trigger episodes_take_the_simulation_number (V0009): an episode takes its simulation's
-- opaque number (memory.simulations.sim_no), whatever the writer put there, so that the
-- simulation's own index (WHERE sim_no = N) holds its rows and no other tenant's. Every
-- writer fills it without knowing of it: the staged import's merge builds its INSERT from
-- the staged table's columns, which have no sim_no. The lookup runs as the writer, under
-- the policies: the call's tenant is entered, so its simulation is visible.
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

COMMENT ON FUNCTION memory._episode_sim_no() IS 'Internal (trigger): an episode takes its simulation''s opaque number';
REVOKE ALL ON FUNCTION memory._episode_sim_no() FROM PUBLIC;
