-- Hybrid recall in one call: the arms that search by meaning (episodes, facts and entities
-- by the query vector; agents: the episodes of each agent the question names, by the same
-- vector), by words (memory.search_words' work, memory._search_words) and through the graph
-- (the entities the question names, their current facts, their neighbours and the episodes
-- that name them) each rank their candidates; the entities the question names
-- (memory._name_candidates) are found once for the words and the graph arms. Reciprocal
-- rank fusion adds weight / (k + rank) over the arms that found a candidate, a words row's
-- weight scaled by the square of the share of the question it explains. Ties fall to kind,
-- then id: the same data always gives the same answer. The defaults (k 10, the weights,
-- the agents arm, the words' cover) were chosen on LoCoMo's development conversations and
-- a Chinese run in MiroFish's formats, beside BM25 and exact dense search (bench/README.md).
--
-- p_options (every key optional, any other key 22023):
--   arms        the arms to run, of episodes, agents, facts, entities, words, graph, context;
--               without it the route decides (memory.route), and every route reaches the
--               episodes: graph -> graph, facts, entities, words, episodes, agents, context;
--               vector -> episodes, agents, facts, entities, words, context; hybrid -> all
--   weights     {"arm": weight >= 0}; by default words 3, graph 0.5, context 0 (the turns
--               before and after the best episodes, each ranked as the episode it surrounds:
--               for a conversation, {"context": 0.5}), the others 1
--   k           the fusion's constant (> 0), 10 by default
--   candidates  how many candidates each arm ranks (1..100), 50 by default
--   depth       how far the graph arm walks from a named entity (1 or 2), 1 by default
--   as_of       the world time of the facts the arms read (memory.facts), now by default
--   round       a round of the simulation instead of as_of: the facts as they stood when it
--               ended (memory._read_clock), and the episodes of rounds up to it
--   snapshot    a name from memory.create_snapshot: the episodes and facts as the memory
--               held them at its record time (memory._search_episodes_known,
--               memory._search_facts_known: exact scans), at its round unless as_of or
--               round says otherwise, so a report re-run against it gets the same answers
--               whatever was imported since. Only the episodes and facts arms read a
--               snapshot: the others read the memory as it is now (the words' postings,
--               the names, the graph, the neighbouring turns), so the route's arms are cut
--               to those two, arms naming another are 22023, and so are like and a
--               question without its vector; an unknown or dropped snapshot is P0002
--   model       the model that made p_query_vector: another than the simulation's is 22023
--               (memory._check_query_model); absent, the vector is taken as the default
--               model's, so on a simulation of another model it is refused
--   kinds       the kinds of rows to answer with, of episode, fact, entity (all by default):
--               the fused rows of other kinds are left out before the top p_top_k are taken
--               (quick search over facts: {"kinds": ["fact"]})
--   collapse    true by default: an episode whose text is another's word for word (a
--               slogan posted by many, a repost's text) joins the best-ranked of them, whose
--               row counts them (copies) and their distinct agents (agents); false keeps each
--   like        an episode id: more like it, by its own stored vector (no p_query_vector,
--               no model to name), the episode and its copies left out
-- A NULL vector runs the arms that need none (words, graph), so any SQL client recalls by
-- text; a NULL (or blank) text runs the arms of meaning alone; both NULL: 22023; a text over
-- memory._limit('question_bytes') (4 KB) 54000, before any arm runs. Each row:
-- kind (episode, fact, entity), id, text, fused score, each arm's rank and raw score
-- (ranks; a words row's trust too: the factor on its weight), why: the arms that found it, the entities or agents that led there, and the
-- route taken; for an episode, copies and agents (the copies among the arms' candidates,
-- itself included).
CREATE OR REPLACE FUNCTION memory.recall(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query_text text,
    p_query_vector public.vector,
    p_top_k integer DEFAULT 10,
    p_options jsonb DEFAULT '{}')
RETURNS TABLE (kind text, id text, text text, score double precision, ranks jsonb, why text,
               copies integer, agents integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_arms_all text[] := ARRAY['episodes', 'agents', 'facts', 'entities', 'words', 'graph', 'context'];
    v_options  jsonb := COALESCE(p_options, '{}'::jsonb);
    -- blank: nothing but white space of any kind (tabs, new lines, U+3000 ...), as the
    -- words arm reads it (memory._words_prepare)
    v_text     text := CASE WHEN p_query_text OPERATOR(pg_catalog.~) '[^[:space:]]' THEN pg_catalog.btrim(p_query_text) END;
    v_vec      public.vector := p_query_vector;
    v_arms     text[];
    v_route    text;
    v_signals  jsonb := '[]';
    v_k        double precision;
    v_cand     integer;
    v_pool     integer;
    v_kinds    text[];
    v_depth    integer;
    v_as_of    timestamptz;
    v_round    integer;
    v_snapshot text;
    v_known    timestamptz;
    v_bad      text;
    v_hits     memory.recall_hit[] := '{}';
    -- one arm's rows before the actions that said nothing are left out
    v_arm      memory.recall_hit[];
    v_name_keys uuid[];
    v_name_sims real[];
    v_why_route text;
    v_agent    record;
    v_collapse boolean := true;
    v_like     text;
    v_like_text text;
    v_weights  jsonb;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    -- the question's size first, whatever the arms: the route and the words and graph arms
    -- read every word and name in it (memory._limit('question_bytes'), 54000)
    PERFORM memory._check_limit('question_bytes', 'p_query_text', pg_catalog.octet_length(p_query_text));
    IF pg_catalog.jsonb_typeof(v_options) <> 'object' THEN
        RAISE EXCEPTION 'p_options must be a JSON object, not %', pg_catalog.jsonb_typeof(v_options)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass {} or an object of arms, weights, k, candidates, depth, as_of, round, model, kinds, collapse, like, snapshot';
    END IF;
    SELECT pg_catalog.string_agg(pg_catalog.quote_literal(memory._quote(o.key)), ', ' ORDER BY o.key) INTO v_bad
      FROM pg_catalog.jsonb_object_keys(v_options) AS o(key)
     WHERE o.key NOT IN ('arms', 'weights', 'k', 'candidates', 'depth', 'as_of', 'round', 'model', 'kinds', 'collapse', 'like', 'snapshot');
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'unknown option %', v_bad
            USING ERRCODE = 'invalid_parameter_value', HINT = 'options are arms, weights, k, candidates, depth, as_of, round, model, kinds, collapse, like, snapshot';
    END IF;
    IF v_options ? 'collapse' THEN
        IF pg_catalog.jsonb_typeof(v_options -> 'collapse') <> 'boolean' THEN
            RAISE EXCEPTION 'option collapse must be true or false, not %', memory._quote(v_options ->> 'collapse')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'collapse: false answers every copy of a post';
        END IF;
        v_collapse := (v_options ->> 'collapse')::boolean;
    END IF;
    -- more like this: the episode's own stored vector (its simulation's model, whatever the
    -- caller's), and the episode and its copies left out of the answer
    IF v_options ? 'like' THEN
        IF pg_catalog.jsonb_typeof(v_options -> 'like') <> 'string' THEN
            RAISE EXCEPTION 'option like must be an episode id, not %', memory._quote(v_options ->> 'like')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'like: "ep-17" answers the episodes most like it';
        END IF;
        v_like := v_options ->> 'like';
        IF p_query_vector IS NOT NULL THEN
            RAISE EXCEPTION 'pass either a query vector or the option like, not both'
                USING ERRCODE = 'invalid_parameter_value', HINT = 'like takes the episode''s own vector';
        END IF;
        v_vec := memory.episode_vector(p_tenant_id, p_simulation_id, v_like);
        SELECT e.content INTO v_like_text FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = pg_catalog.md5(v_like)::uuid;
        IF v_vec IS NULL THEN
            RAISE EXCEPTION 'episode % has no vector: nothing is like it by meaning', memory._quote(v_like)
                USING ERRCODE = 'invalid_parameter_value', HINT = 'actions without text of their own are stored without a vector';
        END IF;
        v_options := v_options - 'model';
    END IF;
    -- arms, and weights for known arms only, each a number >= 0
    v_arms := memory._recall_list(v_options, 'arms', v_arms_all, 'arm');
    IF v_arms IS NOT NULL THEN
        v_route := 'as the caller chose';
    END IF;
    IF v_options ? 'weights' THEN
        SELECT pg_catalog.string_agg(pg_catalog.quote_literal(memory._quote(w.key)), ', ' ORDER BY w.key) INTO v_bad
          FROM pg_catalog.jsonb_each(CASE WHEN pg_catalog.jsonb_typeof(v_options -> 'weights') = 'object'
                                          THEN v_options -> 'weights' ELSE '{"": null}' END) AS w(key, value)
         WHERE NOT w.key = ANY (v_arms_all) OR pg_catalog.jsonb_typeof(w.value) <> 'number'
            OR (w.value #>> '{}')::numeric < 0
            OR NOT pg_catalog.pg_input_is_valid(w.value #>> '{}', 'double precision');
        IF v_bad IS NOT NULL THEN
            RAISE EXCEPTION 'weights must map arms to numbers >= 0 (a double precision): %', v_bad
                USING ERRCODE = 'invalid_parameter_value', HINT = 'weights: {"words": 2, "graph": 1.5}';
        END IF;
    END IF;
    -- each arm's weight: the caller's, else words 3, graph 0.5, context 0 (asked for by
    -- weight: it helps a conversation, where a reply follows what it answers, and harms a
    -- social run, where the next action is another agent's on another topic), the others 1
    v_weights := '{"words": 3, "graph": 0.5, "context": 0}'::jsonb || COALESCE(v_options -> 'weights', '{}'::jsonb);
    v_kinds := memory._recall_list(v_options, 'kinds', ARRAY['episode', 'fact', 'entity'], 'kind');
    v_k := memory._recall_option(v_options, 'k', 10, 0, NULL);
    v_cand := memory._recall_option(v_options, 'candidates', 50, 1, 100);
    -- the arms of meaning's pool and breadth: two a candidate, at least 100 (see below)
    v_pool := GREATEST(2 * v_cand, 100);
    v_depth := memory._recall_option(v_options, 'depth', 1, 1, 2);
    IF v_options ? 'as_of' THEN
        IF NOT pg_catalog.pg_input_is_valid(v_options ->> 'as_of', 'timestamptz') THEN
            RAISE EXCEPTION 'option as_of must be a timestamp, not %', memory._quote(v_options ->> 'as_of')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'as_of: an ISO 8601 time, or infinity';
        END IF;
        v_as_of := (v_options ->> 'as_of')::timestamptz;
    END IF;
    IF v_options ? 'round' THEN
        IF pg_catalog.jsonb_typeof(v_options -> 'round') <> 'number'
           OR NOT pg_catalog.pg_input_is_valid(v_options ->> 'round', 'integer') THEN
            RAISE EXCEPTION 'option round must be an integer, not %', memory._quote(v_options ->> 'round')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'round: a round of the simulation, such as 3';
        END IF;
        v_round := (v_options ->> 'round')::integer;
    END IF;
    IF v_options ? 'snapshot' THEN
        IF pg_catalog.jsonb_typeof(v_options -> 'snapshot') <> 'string' THEN
            RAISE EXCEPTION 'option snapshot must be a snapshot''s name, not %', memory._quote(v_options ->> 'snapshot')
                USING ERRCODE = 'invalid_parameter_value', HINT = 'memory.snapshots() names a simulation''s snapshots';
        END IF;
        IF v_like IS NOT NULL THEN
            RAISE EXCEPTION 'the option like is not read at a snapshot'
                USING ERRCODE = 'invalid_parameter_value', HINT = 'like reads the episode as the memory holds it now';
        END IF;
        IF v_vec IS NULL THEN
            RAISE EXCEPTION 'recall at a snapshot needs the question''s vector'
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'the arms that read a snapshot search by meaning; the words and the graph read the memory as it is now';
        END IF;
        v_snapshot := v_options ->> 'snapshot';
    END IF;
    IF v_round IS NOT NULL OR v_snapshot IS NOT NULL THEN
        SELECT c.as_of, c.known_at, c.round INTO v_as_of, v_known, v_round
          FROM memory._read_clock(p_tenant_id, p_simulation_id, v_as_of, NULL, v_round, v_snapshot) AS c;
        -- a snapshot taken in this transaction: the memory it reads is the memory now
        v_known := CASE WHEN v_known < pg_catalog.now() THEN v_known END;
    END IF;
    IF v_text IS NULL AND v_vec IS NULL AND v_like IS NULL THEN
        RAISE EXCEPTION 'recall needs a question: p_query_text is empty and p_query_vector is NULL'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass the question as text, as its embedding, or both (memory.episode_vector is NULL for an episode stored without a vector)';
    END IF;
    IF v_vec IS NOT NULL AND v_like IS NULL THEN
        PERFORM memory._check_query_vector(v_vec);
        IF pg_catalog.jsonb_typeof(v_options -> 'model') NOT IN ('string', 'null') THEN
            RAISE EXCEPTION 'option model must be a model name, not %', v_options -> 'model'
                USING ERRCODE = 'invalid_parameter_value', HINT = 'memory.list_models() names the models';
        END IF;
        PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, v_options ->> 'model');
    END IF;

    -- the route, when the caller chose no arms
    IF v_arms IS NULL THEN
        IF v_text IS NULL THEN
            v_route := 'vector';
        ELSE
            SELECT r.target, r.signals INTO v_route, v_signals FROM memory.route(v_text) AS r;
        END IF;
        -- every route reaches the episodes (and the named agents' episodes): a simulation
        -- without a graph, or a question about something it never names, still gets what
        -- its agents said
        v_arms := CASE v_route WHEN 'graph' THEN ARRAY['graph', 'facts', 'entities', 'words', 'episodes', 'agents', 'context']
                               WHEN 'vector' THEN ARRAY['episodes', 'agents', 'facts', 'entities', 'words', 'context']
                               ELSE v_arms_all END;
    END IF;
    -- at a snapshot, the arms that read it: the route's cut to them, the caller's refused
    IF v_snapshot IS NOT NULL THEN
        SELECT pg_catalog.string_agg(a, ', ' ORDER BY a) INTO v_bad
          FROM pg_catalog.unnest(v_arms) AS a WHERE a NOT IN ('episodes', 'facts');
        IF v_bad IS NOT NULL AND v_route = 'as the caller chose' THEN
            RAISE EXCEPTION 'arms % do not read a snapshot', v_bad
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'at a snapshot recall reads the episodes and facts arms alone: {"arms": ["episodes", "facts"]}';
        END IF;
        v_arms := ARRAY(SELECT a FROM pg_catalog.unnest(v_arms) AS a WHERE a IN ('episodes', 'facts'));
    END IF;

    -- the arms of meaning, each searching no more widely than the fusion needs: the episodes
    -- re-ranked from a pool of two a candidate, at least 100 (memory.search_episodes takes 20
    -- a hit), and the facts' index searched that broadly too (memory._search_facts'
    -- p_breadth, where memory.search_facts searches wider). On the bench's simulations recall's
    -- rows were the same with the pool and the facts' breadth from 50 to 400, and the smaller
    -- cost less (bench/README.md).
    -- The episodes' index is searched twice as broadly as the pool, at least 200 (not 400:
    -- memory._episodes_breadth: the same rows on the bench's questions). The
    -- entities are compared by meaning (V0036: the summary's vector, the name's for an
    -- entity without a summary; a name is found by the words and the graph arms), through
    -- the summaries' index of the pair (V0035), searched as broadly as memory.search_nodes
    -- searches it: at 100, clustered synthetic questions got a top 50 overlapping the exact
    -- one less than tests/test_ann_entities.py asks.
    -- the episodes by meaning, and an arm of their own for each agent the question names
    -- (that agent's episodes by the same vector), so that "what did Caroline say about ..."
    -- ranks Caroline's actions twice: one search each, the arm named by what it searched
    IF v_vec IS NOT NULL THEN
        FOR v_agent IN SELECT 'episodes' AS arm, NULL::integer AS agent_id, NULL::text AS agent_name
                        WHERE 'episodes' = ANY (v_arms)
                       UNION ALL
                       SELECT 'agents', a.agent_id, a.agent_name
                         FROM memory._named_agents(p_tenant_id, p_simulation_id, v_text, 3) AS a
                        WHERE v_text IS NOT NULL AND 'agents' = ANY (v_arms) LOOP
            IF v_known IS NOT NULL THEN
                v_hits := v_hits || ARRAY(
                    SELECT ROW(v_agent.arm, 'episode', h.episode_id, h.content, h.similarity,
                               pg_catalog.row_number() OVER (ORDER BY h.similarity DESC, h.episode_id), v_agent.agent_name, NULL)::memory.recall_hit
                      FROM memory._search_episodes_known(p_tenant_id => p_tenant_id,
                                                         p_simulation_id => p_simulation_id, p_query => v_vec,
                                                         p_top_k => LEAST(v_cand, 100), p_agent_id => v_agent.agent_id,
                                                         p_round_from => NULL, p_round_to => v_round, p_from => NULL,
                                                         p_to => NULL, p_known_at => v_known) AS h);
                CONTINUE;
            END IF;
            v_hits := v_hits || ARRAY(
                SELECT ROW(v_agent.arm, 'episode', h.episode_id, h.content, h.similarity,
                           pg_catalog.row_number() OVER (ORDER BY h.similarity DESC, h.episode_id), v_agent.agent_name, NULL)::memory.recall_hit
                  FROM memory._search_episodes(p_tenant_id => p_tenant_id,
                                               p_simulation_id => p_simulation_id, p_query => v_vec,
                                               p_top_k => LEAST(v_cand, 100), p_agent_id => v_agent.agent_id,
                                               p_round_from => NULL, p_round_to => v_round, p_from => NULL,
                                               p_to => NULL, p_collapse => false, p_model => NULL,
                                               p_pool => v_pool) AS h);
        END LOOP;
    END IF;
    IF v_vec IS NOT NULL AND 'facts' = ANY (v_arms) AND v_known IS NOT NULL THEN
        v_hits := v_hits || ARRAY(
            SELECT ROW('facts', 'fact', f.edge_id, f.fact, f.similarity,
                       pg_catalog.row_number() OVER (ORDER BY f.similarity DESC, f.edge_id), NULL, NULL)::memory.recall_hit
              FROM memory._search_facts_known(p_tenant_id => p_tenant_id,
                                              p_simulation_id => p_simulation_id, p_query => v_vec,
                                              p_top_k => LEAST(v_cand, 100), p_state => 'current',
                                              p_as_of => v_as_of, p_known_at => v_known) AS f);
    ELSIF v_vec IS NOT NULL AND 'facts' = ANY (v_arms) THEN
        v_hits := v_hits || ARRAY(
            SELECT ROW('facts', 'fact', f.edge_id, f.fact, f.similarity,
                       pg_catalog.row_number() OVER (ORDER BY f.similarity DESC, f.edge_id), NULL, NULL)::memory.recall_hit
              FROM memory._search_facts(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_query => v_vec,
                                        p_top_k => LEAST(v_cand, 100), p_state => 'current',
                                        p_as_of => v_as_of, p_breadth => v_pool) AS f);
    END IF;
    IF v_vec IS NOT NULL AND 'entities' = ANY (v_arms) THEN
        v_hits := v_hits || ARRAY(
            SELECT ROW('entities', 'entity', n.node_id, n.name || COALESCE(': ' || n.summary, ''), n.similarity,
                       pg_catalog.row_number() OVER (ORDER BY n.similarity DESC, n.node_id), NULL, NULL)::memory.recall_hit
              FROM memory._search_nodes(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_query => v_vec,
                                        p_top_k => LEAST(v_cand, 100), p_type => NULL,
                                        p_by => 'meaning', p_breadth => NULL) AS n);
    END IF;

    -- the entities the question names, found once for the words and the graph arms (the
    -- graph takes the best five: found for ten, they are the same five)
    IF v_text IS NOT NULL AND ('words' = ANY (v_arms) OR 'graph' = ANY (v_arms)) THEN
        PERFORM memory._words_prepare(v_text, 'p_query_text');
        IF v_cand >= 5 THEN
            SELECT COALESCE(pg_catalog.array_agg(c.node_key), '{}'), COALESCE(pg_catalog.array_agg(c.similarity), '{}')
              INTO v_name_keys, v_name_sims
              FROM memory._name_candidates(p_tenant_id, p_simulation_id, v_text, LEAST(v_cand, 10)) AS c;
        END IF;
    END IF;

    -- The words and the graph arms answer only actions that said something, and at a round
    -- only its episodes and earlier ones (memory._said_hits): the arms of meaning never see
    -- the others (such actions carry no vector, or the liked post's).
    -- the words, each row trusted as far as it explains the question: its weight is scaled
    -- by the square of its cover (memory._search_words: its words' idf over the question's;
    -- an entity found by name explains it all), so rows that match a question only in
    -- passing (an English question over Chinese posts matching a place name every English
    -- post holds, a word or two of a long question) do not outvote meaning
    IF v_text IS NOT NULL AND 'words' = ANY (v_arms) THEN
        v_arm := ARRAY(
            SELECT ROW('words', w.kind, w.id, w.text, w.score,
                       pg_catalog.row_number() OVER (ORDER BY w.score DESC, w.kind, w.id), NULL,
                       w.cover * w.cover)::memory.recall_hit
              FROM memory._search_words(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_query_text => v_text,
                                        p_top_k => v_cand, p_kinds => NULL,
                                        p_name_keys => v_name_keys,
                                        p_name_sims => v_name_sims) AS w);
        v_hits := v_hits || memory._said_hits(p_tenant_id, p_simulation_id, v_arm, v_round);
    END IF;

    -- the graph: the entities the question names, their facts, neighbours and episodes
    IF v_text IS NOT NULL AND 'graph' = ANY (v_arms) THEN
        v_arm := ARRAY(
            SELECT ROW(g.arm, g.kind, g.id, g.body, g.raw, g.rank, g.matched, g.trust)::memory.recall_hit
              FROM memory._recall_graph(
                       p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_text => v_text,
                       p_candidates => v_cand, p_depth => v_depth, p_as_of => v_as_of,
                       p_name_keys => v_name_keys, p_name_sims => v_name_sims) AS g);
        v_hits := v_hits || memory._said_hits(p_tenant_id, p_simulation_id, v_arm, v_round);
    END IF;

    -- the context: the turns around the best episodes found so far (the one before and the
    -- one after in the same round of the same platform, by time), ranked as the episode
    -- they surround is ranked: an answer often lies in the reply to what matched, or in what
    -- it replies to, which share none of the question's words
    IF 'context' = ANY (v_arms) AND (v_weights ->> 'context')::double precision > 0
       AND (v_kinds IS NULL OR 'episode' = ANY (v_kinds)) THEN
        v_hits := v_hits || ARRAY(
            WITH pre AS (
                SELECT x.id, pg_catalog.row_number() OVER (ORDER BY pg_catalog.sum(COALESCE((v_weights ->> x.arm)::double precision, 1)
                                                                                   * COALESCE(x.trust, 1) / (v_k + x.rank)) DESC, x.id) AS rank
                  FROM pg_catalog.unnest(v_hits) AS x
                 WHERE x.kind = 'episode'
                 GROUP BY x.id
                 ORDER BY 2
                 LIMIT 2 * memory._top_k(p_top_k)
            )
            SELECT ROW('context', 'episode', n.episode_id, n.content, NULL, p.rank, p.id, NULL)::memory.recall_hit
              FROM pre AS p
              JOIN memory.episodes AS e
                ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.episode_key = pg_catalog.md5(p.id)::uuid AND e.occurred_at IS NOT NULL
             CROSS JOIN LATERAL (
                 (SELECT b.episode_id, b.content FROM memory.episodes AS b
                   WHERE b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id
                     AND b.occurred_at < e.occurred_at AND b.round IS NOT DISTINCT FROM e.round
                     AND b.platform IS NOT DISTINCT FROM e.platform
                   ORDER BY b.occurred_at DESC LIMIT 1)
                 UNION ALL
                 (SELECT a.episode_id, a.content FROM memory.episodes AS a
                   WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id
                     AND a.occurred_at > e.occurred_at AND a.round IS NOT DISTINCT FROM e.round
                     AND a.platform IS NOT DISTINCT FROM e.platform
                   ORDER BY a.occurred_at LIMIT 1)) AS n);
    END IF;

    -- The fusion: each row's score over the arms that found it, then the top k, and only
    -- for those the text, the ranks and the why: the rows the arms find but the fusion drops
    -- never pay for them (the same rows, every column alike).
    v_why_route := '; route ' || v_route
        || CASE WHEN pg_catalog.jsonb_array_length(v_signals) > 0
                THEN ' (' || (SELECT pg_catalog.string_agg(x.value ->> 'phrase', ', ')
                                FROM pg_catalog.jsonb_array_elements(v_signals) AS x(value)) || ')'
                ELSE '' END
        || COALESCE('; snapshot ' || v_snapshot, '');
    RETURN QUERY
    WITH h AS MATERIALIZED (
        SELECT x.* FROM pg_catalog.unnest(v_hits) AS x
         WHERE (v_kinds IS NULL OR x.kind = ANY (v_kinds))
           AND (v_like IS NULL OR x.kind <> 'episode' OR (x.id <> v_like AND x.body IS DISTINCT FROM v_like_text))
    ), fused AS MATERIALIZED (
        SELECT x.kind, x.id, pg_catalog.min(x.body) AS body,
               pg_catalog.sum(COALESCE((v_weights ->> x.arm)::double precision, 1)
                              * COALESCE(x.trust, 1) / (v_k + x.rank)) AS score
          FROM h AS x
         GROUP BY x.kind, x.id
    ), grouped AS MATERIALIZED (
        -- copies: an episode whose text is another's, word for word, joins the best of them
        -- (the text a viral post's reposts and copies share); collapse false keeps each
        SELECT f.kind, f.id, f.score,
               CASE WHEN v_collapse AND f.kind = 'episode' AND f.body IS NOT NULL
                    THEN pg_catalog.first_value(f.id) OVER (PARTITION BY f.kind, f.body ORDER BY f.score DESC, f.id)
                    ELSE f.id END AS lead
          FROM fused AS f
         WHERE f.score > 0
    ), top AS MATERIALIZED (
        SELECT g.kind, g.lead AS id, pg_catalog.max(g.score) AS score,
               pg_catalog.count(*)::integer AS copies, pg_catalog.array_agg(g.id) AS members
          FROM grouped AS g
         GROUP BY g.kind, g.lead
         ORDER BY 3 DESC, 1, 2
         LIMIT memory._top_k(p_top_k)
    ), known AS MATERIALIZED (
        -- at a snapshot, its episodes' agents (read only when a row asks, so never without)
        SELECT e.episode_key, e.agent_id
          FROM memory._known(NULL::memory.episodes, p_tenant_id, p_simulation_id, v_known) AS e
         WHERE v_known IS NOT NULL
    )
    SELECT t.kind, t.id, d.body, t.score, d.ranks, d.arms || COALESCE('; via ' || d.matched, '') || v_why_route,
           CASE WHEN t.kind = 'episode' THEN t.copies END,
           CASE WHEN t.kind = 'episode' AND v_known IS NULL THEN
               (SELECT pg_catalog.count(DISTINCT e.agent_id)::integer FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                   AND e.episode_key = ANY (ARRAY(SELECT pg_catalog.md5(m)::uuid FROM pg_catalog.unnest(t.members) AS m)))
                WHEN t.kind = 'episode' THEN
               (SELECT pg_catalog.count(DISTINCT e.agent_id)::integer FROM known AS e
                 WHERE e.episode_key = ANY (ARRAY(SELECT pg_catalog.md5(m)::uuid FROM pg_catalog.unnest(t.members) AS m))) END
      FROM top AS t
     CROSS JOIN LATERAL (
         SELECT pg_catalog.min(x.body) AS body,
                pg_catalog.jsonb_object_agg(x.arm, pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object('rank', x.rank, 'score', x.raw, 'trust', x.trust))) AS ranks,
                pg_catalog.string_agg(x.arm || ' #' || x.rank, ', ' ORDER BY x.rank, x.arm) AS arms,
                pg_catalog.string_agg(DISTINCT x.matched, ', ') AS matched
           FROM (SELECT DISTINCT ON (y.arm) y.* FROM h AS y
                  WHERE y.kind = t.kind AND y.id = ANY (t.members)
                  ORDER BY y.arm, y.rank, y.id) AS x) AS d
     ORDER BY t.score DESC, t.kind, t.id;
END
$fn$;

COMMENT ON FUNCTION memory.recall(uuid, uuid, text, public.vector, integer, jsonb) IS 'Hybrid recall: episodes, named agents'' episodes, facts and entities by meaning, words and the graph, fused by reciprocal rank, copies folded, with each arm''s rank and why';
GRANT EXECUTE ON FUNCTION memory.recall(uuid, uuid, text, public.vector, integer, jsonb) TO memory_reader;
