-- memory.route_rules: the installation's routing phrases, not a tenant's data. Readers and
-- administrators read every rule; memory_owner changes them, in memory.set_route_rule, after
-- checking that its caller is an administrator.
DROP POLICY IF EXISTS roles_read_every_rule ON memory.route_rules;
CREATE POLICY roles_read_every_rule ON memory.route_rules
    AS PERMISSIVE FOR SELECT TO memory_admin, memory_reader
    USING (true);

DROP POLICY IF EXISTS owner_manages_every_rule ON memory.route_rules;
CREATE POLICY owner_manages_every_rule ON memory.route_rules
    AS PERMISSIVE FOR ALL TO memory_owner
    USING (true) WITH CHECK (true);
