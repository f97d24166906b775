-- Commit what an extractor made of a claimed episode (memory.zep_claim_episodes), whole or
-- not at all, and mark the episode processed. p_extraction:
--   {"entities": [{name, type, summary, embedding, embedding_model}],
--    "facts": [{source, target, type, fact, valid_at, invalid_at, ends: [edge_id], embedding, embedding_model}]}
-- (source and target name entities of the text or of the graph; ends names current facts,
-- from memory.zep_extraction_context, that the fact ends; a vector is of the text an
-- upsert embeds: "{type}: {name}" for an entity, the fact for a fact).
-- Entities are resolved against the graph's own (memory._zep_resolve_entity: name or alias,
-- trigram, meaning); a name found otherwise than by itself becomes an alias of the entity.
-- A new entity's id is drawn from the graph, its type and name. A fact already current
-- between the same entities with the same type and words gains the episode; otherwise it is
-- new, learned now, valid from its valid_at. A fact it ends is kept, ended: invalid_at the
-- new fact's valid_at (else the episode's time, never before the old fact began) and
-- expired_at now, as the time-aware graph keeps every ended fact. Every fact written names
-- the episode (attributes.episodes, Zep's "episodes"), and the graph's evidence is brought up
-- to date (memory.link_evidence). What does not fit the graph's ontology (an entity type or
-- edge type it does not have, a pair of entity types an edge type may not join), a fact
-- without both ends, a time that is not one, is refused: left out and recorded on the
-- episode with why ("refused"), the rest committed.
-- p_attempt is the claim's; a claim another extractor took over is 55000 and changes
-- nothing. An episode already processed answers {"status": "already"} and changes nothing.
CREATE OR REPLACE FUNCTION memory.zep_apply_extraction(p_tenant_id uuid, p_episode_uuid uuid, p_attempt integer,
                                                       p_extraction jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_ep         memory.zep_episodes;
    v_sim        uuid;
    v_model      text;
    v_etypes     text[];
    v_edge_types jsonb;
    v_names      jsonb := '{}'::jsonb;
    v_nodes      jsonb := '{}'::jsonb;
    v_edges      jsonb := '{}'::jsonb;
    v_refused    jsonb := '[]'::jsonb;
    v_counts     jsonb := '{"entities_created": 0, "entities_resolved": 0, "facts_created": 0,
                           "facts_merged": 0, "facts_ended": 0}'::jsonb;
    v_item       record;
    v_name       text;
    v_type       text;
    v_vec        public.vector;
    v_found      record;
    v_id         text;
    v_src        text;
    v_tgt        text;
    v_fact       text;
    v_valid      timestamptz;
    v_invalid    timestamptz;
    v_old        jsonb;
    v_end        text;
    v_summary    jsonb;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    SELECT * INTO v_ep FROM memory.zep_episodes AS z
     WHERE z.tenant_id = p_tenant_id AND z.episode_uuid = p_episode_uuid
     LIMIT 1 FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown episode %', p_episode_uuid USING ERRCODE = 'no_data_found';
    END IF;
    IF v_ep.status = 'succeeded' THEN
        RETURN COALESCE(v_ep.extracted, '{}'::jsonb) || '{"status": "already"}'::jsonb;
    END IF;
    IF v_ep.status <> 'processing' OR v_ep.attempts IS DISTINCT FROM p_attempt THEN
        RAISE EXCEPTION 'episode % is no longer claimed by attempt %', p_episode_uuid, p_attempt
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'its claim ran out and another extractor took it: claim again (memory.zep_claim_episodes)';
    END IF;
    IF pg_catalog.jsonb_typeof(p_extraction) IS DISTINCT FROM 'object'
       OR pg_catalog.jsonb_typeof(COALESCE(p_extraction -> 'entities', '[]')) <> 'array'
       OR pg_catalog.jsonb_typeof(COALESCE(p_extraction -> 'facts', '[]')) <> 'array' THEN
        RAISE EXCEPTION 'an extraction is {"entities": [...], "facts": [...]}, not %', memory._quote(p_extraction::text)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM memory._check_limit('batch_bytes', 'p_extraction', pg_catalog.octet_length(p_extraction::text));
    v_sim := v_ep.simulation_id;
    -- one extraction of a graph commits at a time: each resolves against the entities the
    -- one before it made
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('zep-extract/' || v_sim::text, 44));
    v_model := (memory._simulation_model(p_tenant_id, v_sim)).model;
    SELECT ARRAY(SELECT t ->> 'name' FROM pg_catalog.jsonb_array_elements(o.entity_types) AS t), o.edge_types
      INTO v_etypes, v_edge_types
      FROM memory.zep_ontologies AS o WHERE o.tenant_id = p_tenant_id AND o.simulation_id = v_sim;
    v_etypes := COALESCE(v_etypes, '{}');
    v_edge_types := COALESCE(v_edge_types, '[]');

    -- entities
    FOR v_item IN SELECT e.value AS item, e.ordinality AS ord
                    FROM pg_catalog.jsonb_array_elements(COALESCE(p_extraction -> 'entities', '[]')) WITH ORDINALITY AS e LOOP
        v_name := pg_catalog.btrim(v_item.item ->> 'name');
        v_type := COALESCE(NULLIF(pg_catalog.btrim(v_item.item ->> 'type'), ''), 'Entity');
        IF pg_catalog.jsonb_typeof(v_item.item) <> 'object' OR v_name IS NULL OR v_name = ''
           OR pg_catalog.char_length(v_name) > 200 THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('entity', v_item.ord, 'item', v_item.item,
                                                                    'why', 'no name of at most 200 characters');
            CONTINUE;
        END IF;
        IF v_type <> 'Entity' AND NOT (v_type = ANY (v_etypes)) THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('entity', v_item.ord, 'name', v_name,
                'why', pg_catalog.format('type %s is not an entity type of the ontology', memory._quote(v_type)));
            CONTINUE;
        END IF;
        CONTINUE WHEN v_names ? pg_catalog.lower(v_name);
        v_vec := CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'embedding') = 'array'
                      THEN (v_item.item -> 'embedding')::text::public.vector END;
        SELECT * INTO v_found FROM memory._zep_resolve_entity(p_tenant_id, v_sim, v_name, v_type, v_vec, v_model);
        IF v_found.node_id IS NOT NULL THEN
            v_names := v_names || pg_catalog.jsonb_build_object(pg_catalog.lower(v_name), v_found.node_id);
            v_counts := pg_catalog.jsonb_set(v_counts, '{entities_resolved}', pg_catalog.to_jsonb((v_counts ->> 'entities_resolved')::int + 1));
            IF v_found.found_by <> 'name' THEN
                -- the name it was found by becomes an alias: the next mention is found by it
                SELECT pg_catalog.jsonb_build_object('id', n.node_id, 'name', n.name, 'type', n.type, 'labels', n.labels,
                           'summary', n.summary,
                           'attributes', n.attributes || pg_catalog.jsonb_build_object('aliases',
                               COALESCE(CASE WHEN pg_catalog.jsonb_typeof(n.attributes -> 'aliases') = 'array'
                                             THEN n.attributes -> 'aliases' END, '[]') || pg_catalog.to_jsonb(v_name)),
                           'embedding', n.embedding::text::jsonb, 'embedding_model', n.embedding_model,
                           'summary_embedding', n.summary_embedding::text::jsonb)
                  INTO v_old
                  FROM memory.nodes AS n
                 WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim AND n.node_key = pg_catalog.md5(v_found.node_id)::uuid;
                v_nodes := v_nodes || pg_catalog.jsonb_build_object(v_found.node_id, pg_catalog.jsonb_strip_nulls(v_old));
            END IF;
        ELSE
            v_id := pg_catalog.md5('zep-entity/' || v_sim::text || '/' || v_type || '/' || pg_catalog.lower(v_name))::uuid::text;
            v_nodes := v_nodes || pg_catalog.jsonb_build_object(v_id, pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'id', v_id, 'name', v_name, 'type', v_type,
                'labels', CASE WHEN v_type = 'Entity' THEN '["Entity"]'::jsonb ELSE pg_catalog.jsonb_build_array('Entity', v_type) END,
                'summary', NULLIF(pg_catalog.btrim(v_item.item ->> 'summary'), ''),
                'embedding', CASE WHEN v_vec IS NOT NULL THEN v_item.item -> 'embedding' END,
                'embedding_model', CASE WHEN v_vec IS NOT NULL THEN v_item.item ->> 'embedding_model' END)));
            v_names := v_names || pg_catalog.jsonb_build_object(pg_catalog.lower(v_name), v_id);
            v_counts := pg_catalog.jsonb_set(v_counts, '{entities_created}', pg_catalog.to_jsonb((v_counts ->> 'entities_created')::int + 1));
        END IF;
    END LOOP;
    IF v_nodes <> '{}'::jsonb THEN
        PERFORM memory.upsert_nodes(p_tenant_id, v_sim,
                                    (SELECT pg_catalog.jsonb_agg(n.value ORDER BY n.key) FROM pg_catalog.jsonb_each(v_nodes) AS n));
    END IF;

    -- facts
    FOR v_item IN SELECT e.value AS item, e.ordinality AS ord
                    FROM pg_catalog.jsonb_array_elements(COALESCE(p_extraction -> 'facts', '[]')) WITH ORDINALITY AS e LOOP
        IF pg_catalog.jsonb_typeof(v_item.item) <> 'object' THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'item', v_item.item, 'why', 'not an object');
            CONTINUE;
        END IF;
        v_type := pg_catalog.btrim(v_item.item ->> 'type');
        v_fact := pg_catalog.btrim(v_item.item ->> 'fact');
        v_src := COALESCE(v_names ->> pg_catalog.lower(pg_catalog.btrim(v_item.item ->> 'source')),
                          (SELECT r.node_id FROM memory._zep_resolve_entity(p_tenant_id, v_sim, pg_catalog.btrim(v_item.item ->> 'source'),
                                                                            'Entity', NULL, NULL) AS r WHERE r.found_by = 'name'));
        v_tgt := COALESCE(v_names ->> pg_catalog.lower(pg_catalog.btrim(v_item.item ->> 'target')),
                          (SELECT r.node_id FROM memory._zep_resolve_entity(p_tenant_id, v_sim, pg_catalog.btrim(v_item.item ->> 'target'),
                                                                            'Entity', NULL, NULL) AS r WHERE r.found_by = 'name'));
        v_end := CASE
            WHEN v_fact IS NULL OR v_fact = '' THEN 'no fact'
            WHEN v_type IS NULL OR v_type = '' OR pg_catalog.char_length(v_type) > memory._label_max() THEN
                pg_catalog.format('no type of at most %s characters', memory._label_max())
            WHEN pg_catalog.jsonb_array_length(v_edge_types) > 0
                 AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(v_edge_types) AS t WHERE t ->> 'name' = v_type) THEN
                pg_catalog.format('type %s is not an edge type of the ontology', memory._quote(v_type))
            WHEN v_src IS NULL THEN
                pg_catalog.format('source %s is not an entity of the text or the graph', memory._quote(v_item.item ->> 'source'))
            WHEN v_tgt IS NULL THEN
                pg_catalog.format('target %s is not an entity of the text or the graph', memory._quote(v_item.item ->> 'target'))
            WHEN v_src = v_tgt THEN 'source and target are the same entity'
            WHEN NOT memory._zep_pair_allowed(v_edge_types, v_type,
                     (SELECT n.type FROM memory.nodes AS n WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim
                         AND n.node_key = pg_catalog.md5(v_src)::uuid),
                     (SELECT n.type FROM memory.nodes AS n WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim
                         AND n.node_key = pg_catalog.md5(v_tgt)::uuid)) THEN
                pg_catalog.format('edge type %s may not join these entity types (its source_targets)', memory._quote(v_type))
        END;
        IF v_end IS NOT NULL THEN
            v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'item', v_item.item - 'embedding', 'why', v_end);
            CONTINUE;
        END IF;
        v_valid := NULL;
        v_invalid := NULL;
        IF v_item.item ->> 'valid_at' IS NOT NULL THEN
            IF pg_catalog.pg_input_is_valid(v_item.item ->> 'valid_at', 'timestamptz') THEN
                v_valid := (v_item.item ->> 'valid_at')::timestamptz;
            ELSE
                v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'valid_at', v_item.item -> 'valid_at',
                                                                        'why', 'valid_at is not a time (the fact kept without it)');
            END IF;
        END IF;
        IF v_item.item ->> 'invalid_at' IS NOT NULL THEN
            IF pg_catalog.pg_input_is_valid(v_item.item ->> 'invalid_at', 'timestamptz')
               AND (v_valid IS NULL OR (v_item.item ->> 'invalid_at')::timestamptz >= v_valid) THEN
                v_invalid := (v_item.item ->> 'invalid_at')::timestamptz;
            ELSE
                v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'invalid_at', v_item.item -> 'invalid_at',
                                                                        'why', 'invalid_at is not a time after valid_at (the fact kept without it)');
            END IF;
        END IF;
        -- the same fact, current between the same entities: it gains this episode
        SELECT memory._zep_edge_item(e) INTO v_old
          FROM memory.edges AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
           AND e.source_key = pg_catalog.md5(v_src)::uuid AND e.target_key = pg_catalog.md5(v_tgt)::uuid
           AND e.type = v_type AND pg_catalog.lower(e.fact) = pg_catalog.lower(v_fact)
           AND memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, pg_catalog.now()) = 'current'
         ORDER BY e.edge_id LIMIT 1;
        v_old := COALESCE(v_edges -> (v_old ->> 'id'), v_old);
        IF v_old ->> 'invalid_at' IS NOT NULL OR v_old ->> 'expired_at' IS NOT NULL THEN
            v_old := NULL;  -- ended by a fact of this same text
        END IF;
        IF v_old IS NOT NULL THEN
            v_edges := v_edges || pg_catalog.jsonb_build_object(v_old ->> 'id',
                pg_catalog.jsonb_set(v_old, '{attributes,episodes}',
                    (SELECT pg_catalog.jsonb_agg(DISTINCT x) FROM pg_catalog.jsonb_array_elements(
                         COALESCE(v_old -> 'attributes' -> 'episodes', '[]') || pg_catalog.to_jsonb(p_episode_uuid::text)) AS x)));
            v_counts := pg_catalog.jsonb_set(v_counts, '{facts_merged}', pg_catalog.to_jsonb((v_counts ->> 'facts_merged')::int + 1));
            v_id := v_old ->> 'id';
        ELSE
            v_id := pg_catalog.md5('zep-fact/' || v_sim::text || '/' || p_episode_uuid::text || '/' || v_item.ord)::uuid::text;
            v_edges := v_edges || pg_catalog.jsonb_build_object(v_id, pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'id', v_id, 'type', v_type, 'source_id', v_src, 'target_id', v_tgt, 'fact', v_fact,
                'attributes', pg_catalog.jsonb_build_object('episodes', pg_catalog.jsonb_build_array(p_episode_uuid::text)),
                'valid_at', v_valid, 'invalid_at', v_invalid, 'learned_at', pg_catalog.now(),
                'embedding', CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'embedding') = 'array' THEN v_item.item -> 'embedding' END,
                'embedding_model', CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'embedding') = 'array'
                                        THEN v_item.item ->> 'embedding_model' END)));
            v_counts := pg_catalog.jsonb_set(v_counts, '{facts_created}', pg_catalog.to_jsonb((v_counts ->> 'facts_created')::int + 1));
        END IF;
        -- the current facts of its entities that it ends
        FOR v_end IN SELECT x FROM pg_catalog.jsonb_array_elements_text(
                         CASE WHEN pg_catalog.jsonb_typeof(v_item.item -> 'ends') = 'array' THEN v_item.item -> 'ends' ELSE '[]' END) AS x LOOP
            SELECT memory._zep_edge_item(e) INTO v_old
              FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.edge_key = pg_catalog.md5(v_end)::uuid
               AND e.edge_id <> v_id
               AND (e.source_key IN (pg_catalog.md5(v_src)::uuid, pg_catalog.md5(v_tgt)::uuid)
                    OR e.target_key IN (pg_catalog.md5(v_src)::uuid, pg_catalog.md5(v_tgt)::uuid));
            v_old := COALESCE(v_edges -> v_end, v_old);
            IF v_old IS NULL OR v_old ->> 'invalid_at' IS NOT NULL OR v_old ->> 'expired_at' IS NOT NULL
               OR (v_old ->> 'valid_at')::timestamptz > pg_catalog.now() THEN
                v_refused := v_refused || pg_catalog.jsonb_build_object('fact', v_item.ord, 'ends', v_end,
                    'why', 'not a current fact of its source or target');
                CONTINUE;
            END IF;
            v_edges := v_edges || pg_catalog.jsonb_build_object(v_end, v_old || pg_catalog.jsonb_build_object(
                'invalid_at', GREATEST((v_old ->> 'valid_at')::timestamptz, COALESCE(v_valid, v_ep.created_at)),
                'expired_at', pg_catalog.now()));
            v_counts := pg_catalog.jsonb_set(v_counts, '{facts_ended}', pg_catalog.to_jsonb((v_counts ->> 'facts_ended')::int + 1));
        END LOOP;
    END LOOP;
    IF v_edges <> '{}'::jsonb THEN
        PERFORM memory.upsert_edges(p_tenant_id, v_sim,
                                    (SELECT pg_catalog.jsonb_agg(e.value ORDER BY e.key) FROM pg_catalog.jsonb_each(v_edges) AS e));
        PERFORM memory.link_evidence(p_tenant_id, v_sim);
    END IF;

    v_summary := v_counts || pg_catalog.jsonb_build_object('refused', pg_catalog.jsonb_array_length(v_refused));
    UPDATE memory.zep_episodes AS z
       SET status = 'succeeded', processed_at = pg_catalog.now(), claimed_until = NULL, next_attempt_at = NULL,
           last_error = NULL, extracted = v_summary, refused = NULLIF(v_refused, '[]'::jsonb)
     WHERE z.tenant_id = p_tenant_id AND z.simulation_id = v_sim AND z.episode_uuid = p_episode_uuid;
    RETURN v_summary || '{"status": "succeeded"}'::jsonb;
END
$fn$;

COMMENT ON FUNCTION memory.zep_apply_extraction(uuid, uuid, integer, jsonb) IS 'Commit an episode''s extraction whole: entities resolved, facts added or merged, ended facts kept ended, evidence, processed';
GRANT EXECUTE ON FUNCTION memory.zep_apply_extraction(uuid, uuid, integer, jsonb) TO memory_writer;
