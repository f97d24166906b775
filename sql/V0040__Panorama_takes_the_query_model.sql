-- V0040: memory.panorama takes the model of its query vector (p_model, appended with DEFAULT
-- NULL, passed to memory.recall as its option model). A query vector that names no model is
-- now taken as the default model's (memory._check_query_model), so without the argument a
-- panorama over a simulation of another model could only be asked without a vector. A
-- function's arguments cannot change in place: the old one goes and the re-applied file
-- creates the new.
DROP FUNCTION IF EXISTS memory.panorama(uuid, uuid, text, public.vector, integer);
