-- What stands between an import attempt and its commit, one row per problem (none: it can
-- commit): a count other than declared ('count_mismatch'), an edge whose endpoint is not
-- among the attempt's nodes ('dangling_edge'; not a problem when the attempt skips dangling
-- edges, then listed as 'skipped_edge'), a row staged without embedding whose content hash
-- matches no committed row ('missing_embedding'); memory._kind_problems finds them, kind by
-- kind.
CREATE OR REPLACE FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (problem text, kind text, item_id text, detail text)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
SET enable_nestloop = off  -- rows without statistics yet (a new attempt's): hash joins, never a quadratic loop
AS $fn$
    SELECT p.problem, k.kind, p.item_id, p.detail
      FROM memory._require_attempt(p_tenant_id, p_attempt_id, true) AS a
     CROSS JOIN memory._record_kinds() AS k
     CROSS JOIN LATERAL memory._kind_problems(k.kind, a) AS p
     ORDER BY 1, 2, 3
$fn$;

COMMENT ON FUNCTION memory.validate_import(uuid, uuid) IS 'Problems that stop an import attempt from committing: count mismatches, dangling edges, missing embeddings';
GRANT EXECUTE ON FUNCTION memory.validate_import(uuid, uuid) TO memory_writer;
