-- Zep's graph.add and graph.add_batch: episodes added to a graph of the caller's tenant,
-- each committed with the call and searchable when it returns (an ordinary episode of the
-- simulation, its episode_id the episode's uuid: words at once, meaning by the vector the
-- caller passes), and queued for extraction (memory.zep_episodes; memory.zep_claim_episodes).
-- p_episodes: a JSON array of at most memory._zep_batch_max() items
--   {data, type: text|json|message, created_at, source_description, embedding, embedding_model}
-- (Zep's EpisodeData, with the vector of data). Zep gives every add a new uuid: so does this,
-- except for an item with created_at, whose uuid is drawn from the graph, created_at, source
-- and data, so a retried add of it changes nothing. All items or none. Returns the episodes as
-- Zep's API sends them, in the order given.
CREATE OR REPLACE FUNCTION memory.zep_add_episodes(p_tenant_id uuid, p_graph_id text, p_episodes jsonb,
                                                   p_batch_id uuid DEFAULT NULL)
RETURNS SETOF jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_sim     uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
    v_items   jsonb;
    v_added   jsonb;
    v_problem text;
BEGIN
    IF pg_catalog.jsonb_typeof(p_episodes) IS DISTINCT FROM 'array' OR pg_catalog.jsonb_array_length(p_episodes) = 0 THEN
        RAISE EXCEPTION 'p_episodes must be a non-empty JSON array of episodes'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass [{"data": "...", "type": "text"}]';
    END IF;
    IF pg_catalog.jsonb_array_length(p_episodes) > memory._zep_batch_max() THEN
        RAISE EXCEPTION 'at most % episodes a call, not %', memory._zep_batch_max(), pg_catalog.jsonb_array_length(p_episodes)
            USING ERRCODE = 'program_limit_exceeded', HINT = 'split the batch; nothing was written';
    END IF;
    SELECT p.problem || pg_catalog.format(' (episode %s)', p.ordinality)
      INTO v_problem
      FROM (SELECT memory._zep_episode_problem(e.value) AS problem, e.ordinality
              FROM pg_catalog.jsonb_array_elements(p_episodes) WITH ORDINALITY AS e) AS p
     WHERE p.problem IS NOT NULL
     ORDER BY p.ordinality LIMIT 1;
    IF v_problem IS NOT NULL THEN
        RAISE EXCEPTION 'bad episode: %', v_problem
            USING ERRCODE = 'invalid_parameter_value', HINT = 'an episode is {"data": "...", "type": "text"}; nothing was written';
    END IF;

    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'ord', e.ordinality,
               'episode_uuid', CASE WHEN e.value ->> 'created_at' IS NULL THEN pg_catalog.gen_random_uuid()
                                    ELSE pg_catalog.md5(pg_catalog.concat_ws(E'\x1f', v_sim::text,
                                             (e.value ->> 'created_at')::timestamptz::text,
                                             e.value ->> 'source_description', e.value ->> 'data'))::uuid END,
               'content', e.value ->> 'data', 'source', COALESCE(e.value ->> 'type', 'text'),
               'source_description', e.value ->> 'source_description',
               'created_at', COALESCE((e.value ->> 'created_at')::timestamptz, pg_catalog.now()),
               'embedding', NULLIF(e.value -> 'embedding', 'null'::jsonb), 'embedding_model', e.value ->> 'embedding_model'))
      INTO v_added
      FROM pg_catalog.jsonb_array_elements(p_episodes) WITH ORDINALITY AS e;

    -- the searchable episode: an ordinary one of the simulation (words, meaning, evidence)
    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
               'id', a.episode_uuid::text, 'action_type', pg_catalog.upper(a.source), 'content', a.content,
               'occurred_at', a.created_at,
               'metadata', pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                   'zep_source', a.source, 'source_description', a.source_description)),
               'embedding', a.embedding, 'embedding_model', a.embedding_model)) ORDER BY a.ord)
      INTO v_items
      FROM pg_catalog.jsonb_to_recordset(v_added) AS a (ord bigint, episode_uuid uuid, content text, source text,
               source_description text, created_at timestamptz, embedding jsonb, embedding_model text)
     WHERE NOT EXISTS (SELECT 1 FROM memory.zep_episodes AS z
                        WHERE z.tenant_id = p_tenant_id AND z.simulation_id = v_sim AND z.episode_uuid = a.episode_uuid);
    IF v_items IS NOT NULL THEN
        PERFORM memory.upsert_episodes(p_tenant_id, v_sim, v_items);
    END IF;
    INSERT INTO memory.zep_episodes (tenant_id, simulation_id, episode_uuid, content, source, source_description,
                                     created_at, batch_id)
    SELECT p_tenant_id, v_sim, a.episode_uuid, a.content, a.source, a.source_description, a.created_at, p_batch_id
      FROM pg_catalog.jsonb_to_recordset(v_added) AS a (ord bigint, episode_uuid uuid, content text, source text,
               source_description text, created_at timestamptz, embedding jsonb, embedding_model text) ORDER BY a.ord
    ON CONFLICT (tenant_id, simulation_id, episode_uuid) DO NOTHING;

    RETURN QUERY
    SELECT memory._zep_episode(pg_catalog.to_jsonb(z))
      FROM pg_catalog.jsonb_to_recordset(v_added) AS a (ord bigint, episode_uuid uuid, content text, source text,
               source_description text, created_at timestamptz, embedding jsonb, embedding_model text)
      JOIN memory.zep_episodes AS z
        ON z.tenant_id = p_tenant_id AND z.simulation_id = v_sim AND z.episode_uuid = a.episode_uuid
     ORDER BY a.ord;
END
$fn$;

COMMENT ON FUNCTION memory.zep_add_episodes(uuid, text, jsonb, uuid) IS 'Zep graph.add / add_batch: episodes committed, searchable and queued for extraction; all or none';
GRANT EXECUTE ON FUNCTION memory.zep_add_episodes(uuid, text, jsonb, uuid) TO memory_writer;
