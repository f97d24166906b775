-- V0003: the row type of an episode search hit, so that a search can hold the results of
-- its approximate path and check them before returning (memory.search_episodes).
CREATE TYPE memory.episode_hit AS (
    episode_id   text,
    agent_id     integer,
    agent_name   text,
    platform     text,
    round        integer,
    action_type  text,
    content      text,
    occurred_at  timestamptz,
    similarity   double precision
);
COMMENT ON TYPE memory.episode_hit IS 'One result row of memory.search_episodes';
