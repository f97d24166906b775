-- A model of another dimension (issue 14): WordLlama l2_supercat, 256 dimensions, computed
-- by the wordllama wheel from the weights and tokenizer it ships (no download at run time).
--
-- The vector columns stay vector(384) (memory._stored_dimensions() reads their type): a
-- model narrower than them is stored zero-padded, as swarm_memory.embed.padded() writes it.
-- Appending zeros changes no dot product and no norm, so cosine similarity between two
-- padded vectors is the model's own, every per-simulation index and search serves it
-- unchanged, and a re-embed moves a simulation between the 384- and the 256-dimensional
-- model online through the same columns (memory.switch_model), in either direction. The
-- cost is the padding's space: 384 stored values for 256 of the model. A model wider than
-- the columns needs a migration of its own that widens them (and rebuilds every vector
-- index); until then memory._reembed_model refuses it with 0A000.
-- No role writes memory.embedding_models: the row goes in under a policy of the deploying
-- role for this migration only, as V0022's did.
CREATE POLICY v0027_seed ON memory.embedding_models AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
INSERT INTO memory.embedding_models (model, dimensions, normalized, query_prefix, passage_prefix, package, languages, note)
VALUES ('wordllama/l2_supercat-256', 256, true, '', '', 'wordllama==0.4.0.post1', '{en}',
        'WordLlama static token embeddings (LLaMA 2 vocabulary), 256 dimensions, stored zero-padded to the 384-dimensional columns; fast, English-centred')
ON CONFLICT (model) DO NOTHING;
DROP POLICY v0027_seed ON memory.embedding_models;
