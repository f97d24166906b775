-- Zep's batch.create: a draft batch of the caller's tenant, to be filled with items
-- (memory.zep_batch_add) and processed (memory.zep_batch_process). p_metadata: a JSON object
-- the caller finds the batch by again (batch.list answers it); p_ignore_roles: message roles
-- Zep skips in thread_message items, kept as given (no thread_message item is served).
CREATE OR REPLACE FUNCTION memory.zep_batch_create(p_tenant_id uuid, p_metadata jsonb DEFAULT NULL,
                                                   p_ignore_roles text[] DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_batch memory.zep_batches;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_metadata IS NOT NULL AND pg_catalog.jsonb_typeof(p_metadata) NOT IN ('object', 'null') THEN
        RAISE EXCEPTION 'metadata must be a JSON object, not %', pg_catalog.jsonb_typeof(p_metadata)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass {"operation_id": "..."} or nothing';
    END IF;
    IF pg_catalog.octet_length(p_metadata::text) > memory._limit('object_bytes') THEN
        RAISE EXCEPTION 'metadata is % bytes, more than %', pg_catalog.octet_length(p_metadata::text),
                        memory._limit('object_bytes')
            USING ERRCODE = 'program_limit_exceeded', HINT = 'keep a batch''s metadata small; nothing was written';
    END IF;
    -- Zep's RoleType
    PERFORM memory._one_of('role', r.role, ARRAY['norole', 'system', 'assistant', 'user', 'function', 'tool'],
                           'ignore_roles takes Zep''s message roles')
       FROM pg_catalog.unnest(p_ignore_roles) AS r (role);
    INSERT INTO memory.zep_batches (tenant_id, metadata, ignore_roles)
    VALUES (p_tenant_id, COALESCE(NULLIF(p_metadata, 'null'::jsonb), '{}'::jsonb), COALESCE(p_ignore_roles, '{}'))
    RETURNING * INTO v_batch;
    RETURN memory._zep_batch_json(pg_catalog.to_jsonb(v_batch));
END
$fn$;

COMMENT ON FUNCTION memory.zep_batch_create(uuid, jsonb, text[]) IS 'Zep batch.create: a draft batch, its metadata and ignore_roles';
GRANT EXECUTE ON FUNCTION memory.zep_batch_create(uuid, jsonb, text[]) TO memory_writer;
