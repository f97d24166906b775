-- 002_policies: the row-level security policies of every table, by name, command and role.
-- Data tables (everything but tenants and tenant_grants: the simulation data, import attempts
-- and staging) admit a row only for the granted tenant of the current call.
BEGIN;
SELECT plan(460);  -- owner changes in 5 report tables (2 x 5); V0043: api_keys (1 + 2 x 4); V0038: tenant_quotas (1 + 2 x 5); V0026: 4 tables (38); 159 + 11 report and prediction tables x 13 + row_history (V0015) 9 + edge_evidence (V0016) 9 + embedding_models (V0022) 3 + tenant_models (V0022) 13 + changes, change_heads, retention_rules, episode_clumps (V0021) 4 + 2 x 19

CREATE TEMP TABLE fx_policies (table_name name, policy name, cmd text, roles name[]) ON COMMIT DROP;
INSERT INTO fx_policies VALUES
    ('tenants',       'admins_manage_all_tenants',            'ALL',    '{memory_admin}'),
    ('tenants',       'readers_see_the_granted_call_tenant',  'SELECT', '{memory_reader}'),
    ('tenant_grants', 'admins_manage_all_grants',             'ALL',    '{memory_admin}'),
    ('tenant_grants', 'roles_see_their_own_grants',           'SELECT', '{memory_reader}'),
    -- V0043: the keys of swarm-memory serve, administrators' alone (no tenant role sees one)
    ('api_keys',      'admins_manage_all_keys',               'ALL',    '{memory_admin}'),
    ('api_keys',      'roles_see_their_own_keys',             'SELECT', '{memory_reader}');
INSERT INTO fx_policies
SELECT t.table_name, p.policy, p.cmd, p.roles
  FROM (VALUES ('simulations'), ('nodes'), ('edges'), ('episodes'), ('profiles'), ('import_attempts'),
               ('staged_nodes'), ('staged_edges'), ('staged_episodes'), ('staged_profiles'),
               -- V0014: reports and predictions
               ('reports'), ('report_sections'), ('report_chunks'), ('report_log'), ('predictions'),
               ('prediction_outcomes'), ('staged_reports'), ('staged_report_sections'),
               ('staged_report_chunks'), ('staged_report_log'), ('staged_predictions'),
               -- V0022: the model of a tenant's new simulations
               ('tenant_models')) AS t(table_name)
 CROSS JOIN (VALUES
    ('readers_see_rows_of_the_granted_call_tenant',    'SELECT', '{memory_reader}'::name[]),
    ('writers_add_rows_to_the_granted_call_tenant',    'INSERT', '{memory_writer}'::name[]),
    ('writers_change_rows_of_the_granted_call_tenant', 'UPDATE', '{memory_writer}'::name[]),
    ('writers_remove_rows_of_the_granted_call_tenant', 'DELETE', '{memory_writer}'::name[])) AS p(policy, cmd, roles);
-- memory.row_history (V0015): readers see; memory_owner adds (the definer trigger), below.
INSERT INTO fx_policies VALUES
    ('row_history', 'readers_see_rows_of_the_granted_call_tenant', 'SELECT', '{memory_reader}');
-- memory.edge_evidence (V0016): the same; memory._link_evidence (definer) writes it.
INSERT INTO fx_policies VALUES
    ('edge_evidence', 'readers_see_rows_of_the_granted_call_tenant', 'SELECT', '{memory_reader}');
-- memory.word_postings (V0020): the same; the trigger memory._index_words (definer) writes it.
INSERT INTO fx_policies VALUES
    ('word_postings', 'readers_see_rows_of_the_granted_call_tenant', 'SELECT', '{memory_reader}');
-- V0021: the change feed, its heads, retention rules and episode clumps: readers see;
-- memory_owner's definer functions write them (below).
INSERT INTO fx_policies
SELECT t.table_name, 'readers_see_rows_of_the_granted_call_tenant', 'SELECT', '{memory_reader}'
  FROM (VALUES ('changes'), ('change_heads'), ('retention_rules'), ('episode_clumps'),
               -- V0038: the tenants' quotas
               ('tenant_quotas')) AS t(table_name);
-- V0026: the clump builds of indexed simulations: readers see; memory._clump_build writes
-- them (below).
INSERT INTO fx_policies
SELECT t.table_name, 'readers_see_rows_of_the_granted_call_tenant', 'SELECT', '{memory_reader}'
  FROM (VALUES ('search_builds'), ('search_points'), ('search_clumps'), ('search_clump_chunks')) AS t(table_name);
-- The vector cache is append-only: readers see, writers add.
INSERT INTO fx_policies VALUES
    ('vector_cache', 'readers_see_rows_of_the_granted_call_tenant', 'SELECT', '{memory_reader}'),
    ('vector_cache', 'writers_add_rows_to_the_granted_call_tenant', 'INSERT', '{memory_writer}');
-- memory_owner runs the SECURITY DEFINER functions that delete: it sees and removes the rows
-- of the entered call tenant only, on every table.
INSERT INTO fx_policies
SELECT t.table_name, p.policy, p.cmd, '{memory_owner}'::name[]
  FROM (SELECT DISTINCT f.table_name FROM fx_policies AS f) AS t
 CROSS JOIN (VALUES ('owner_sees_rows_of_the_entered_call_tenant', 'SELECT'),
                    ('owner_removes_rows_of_the_entered_call_tenant', 'DELETE')) AS p(policy, cmd);
INSERT INTO fx_policies VALUES
    ('row_history', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}');
-- memory.route_rules (V0018): the installation's routing phrases, read by every role, changed
-- by memory_owner in memory.set_route_rule.
INSERT INTO fx_policies VALUES
    ('route_rules', 'roles_read_every_rule', 'SELECT', '{memory_admin,memory_reader}'),
    ('route_rules', 'owner_manages_every_rule', 'ALL', '{memory_owner}');
-- memory.embedding_models (V0022): the installation's models, read by every role, changed by
-- migrations only.
INSERT INTO fx_policies VALUES
    ('embedding_models', 'roles_read_every_model', 'SELECT', '{memory_admin,memory_reader}');
INSERT INTO fx_policies VALUES
    -- V0021: the feed is only added to; heads, rules and clumps change as well
    ('changes', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}'),
    ('change_heads', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}'),
    ('change_heads', 'owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', '{memory_owner}'),
    ('retention_rules', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}'),
    ('retention_rules', 'owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', '{memory_owner}'),
    ('episode_clumps', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}'),
    ('episode_clumps', 'owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', '{memory_owner}'),
    -- V0038: memory.set_quota sets caps, memory._enforce_quota locks the one it checks
    ('tenant_quotas', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}'),
    ('tenant_quotas', 'owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', '{memory_owner}');
INSERT INTO fx_policies VALUES
    ('edge_evidence', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}'),
    ('word_postings', 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}');
-- V0026: a build adds its rows and fills in its own row's counts.
INSERT INTO fx_policies
SELECT t.table_name, 'owner_adds_rows_to_the_entered_call_tenant', 'INSERT', '{memory_owner}'
  FROM (VALUES ('search_builds'), ('search_points'), ('search_clumps'), ('search_clump_chunks')) AS t(table_name);
INSERT INTO fx_policies VALUES
    ('search_builds', 'owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', '{memory_owner}');
-- A forget replaces the forgotten texts where a report quotes them (memory._forget_reports).
INSERT INTO fx_policies
SELECT t.table_name, 'owner_changes_rows_of_the_entered_call_tenant', 'UPDATE', '{memory_owner}'
  FROM (VALUES ('reports'), ('report_sections'), ('report_chunks'), ('report_log'), ('predictions')) AS t(table_name);

-- policies_are per table (24)
SELECT policies_are('memory', t.table_name, ARRAY(SELECT p.policy FROM fx_policies AS p WHERE p.table_name = t.table_name),
                    'memory.' || t.table_name || ' has exactly its policies')
  FROM (SELECT DISTINCT table_name FROM fx_policies) AS t ORDER BY t.table_name;

-- policy_cmd_is per policy (138)
SELECT policy_cmd_is('memory', p.table_name, p.policy, p.cmd,
                     pg_catalog.format('policy %s on memory.%s is for %s', p.policy, p.table_name, p.cmd))
  FROM fx_policies AS p ORDER BY p.table_name, p.policy;

-- policy_roles_are per policy (138)
SELECT policy_roles_are('memory', p.table_name, p.policy, p.roles,
                        pg_catalog.format('policy %s on memory.%s applies to %s', p.policy, p.table_name,
                                          pg_catalog.array_to_string(p.roles, ', ')))
  FROM fx_policies AS p ORDER BY p.table_name, p.policy;

-- What the data-table policies compare (2)
SELECT is_empty($$
    SELECT c.relname || '.' || pol.polname
      FROM pg_catalog.pg_policy AS pol
      JOIN pg_catalog.pg_class AS c ON c.oid = pol.polrelid
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE n.nspname = 'memory'
       AND c.relname NOT IN ('tenants', 'tenant_grants', 'api_keys', 'route_rules', 'embedding_models')
       AND ((pol.polcmd IN ('r', 'w', 'd')
             AND COALESCE(pg_catalog.pg_get_expr(pol.polqual, pol.polrelid), '')
                 NOT LIKE '%tenant_id = ( SELECT memory.\_current\_tenant\_id()%')
         OR (pol.polcmd IN ('a', 'w')
             AND COALESCE(pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid), '')
                 NOT LIKE '%tenant_id = ( SELECT memory.\_current\_tenant\_id()%'))
$$, 'every data-table policy admits only tenant_id = memory._current_tenant_id() in USING and WITH CHECK');
SELECT is_empty($$
    SELECT c.relname || '.' || pol.polname
      FROM pg_catalog.pg_policy AS pol
      JOIN pg_catalog.pg_class AS c ON c.oid = pol.polrelid
      JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
     WHERE n.nspname = 'memory' AND (0::oid = ANY (pol.polroles) OR NOT pol.polpermissive)
$$, 'no policy of schema memory applies to PUBLIC, and none is restrictive (the set above is complete)');

SELECT * FROM finish();
ROLLBACK;
