-- On a Citus cluster, the walk, facts and the words' and graph's arms plan each call
-- (memory._use_custom_plans): the functions were just re-created with their one-node settings.
-- Runs before ownership.sql, while the deploying role owns the functions it created.
SELECT pg_catalog.count(*) FROM memory._use_custom_plans();
