-- V0026 (issue 13, item 1): search that holds on clumpy swarm data.
--
-- Social runs repeat themselves: reposts copy a post exactly and agents echo a few viral
-- posts with small changes, so a simulation holds clumps of thousands of near-copies
-- (cosine > 0.99) of a few posts. In an HNSW index such a clump breaks the search: its
-- members are nearly equidistant from one another, so the graph gives the search no
-- direction inside it, copies fill the candidates, and ordinary posts next to a clump are
-- missed (bench/README.md, "Search on clumpy swarm data": recall@10 0.867 at 200,000
-- episodes). So `swarm-memory index` now also finds each indexed simulation's clumps
-- (memory._clump_build) and builds a second HNSW index over the simulation's
-- representatives only: every distinct vector outside the clumps, once. memory.search_episodes
-- searches that index and reads the clumps near its tenth best candidate whole, exactly.
-- Nothing here is written by a tenant role: memory._clump_build (SECURITY DEFINER, owned by
-- memory_owner, called by memory_admin) replaces a simulation's rows in one transaction;
-- tenant roles read their own. Each row belongs to one build of one simulation.
--
-- A build is stale once the simulation changes (memory._clump_state: a change of its
-- episodes or embeddings in the feed after the build's): search_episodes then searches as
-- before (the simulation's own index of every episode, or exactly) until the next
-- `swarm-memory index` builds again.

-- 1. memory.search_builds: one row per simulation whose clumps were found (a build in
--    progress adds its row beside the old one and removes the old one before it commits).
--    build_no is the build's opaque number: the name and predicate of its index
--    (memory.search_points_ann_<sim_no>_<build_no> WHERE build_no = <build_no>) carry only
--    numbers. change_id: the last change of the simulation in the feed when the build read
--    it (NULL: none). indexed: whether the simulation has clumps or copies enough to be
--    searched through its representatives (otherwise the build only records that it
--    looked, and the simulation is searched through its own index of every episode).
CREATE TABLE memory.search_builds (
    tenant_id       uuid        NOT NULL,
    simulation_id   uuid        NOT NULL,
    build_no        bigint      NOT NULL GENERATED ALWAYS AS IDENTITY,
    sim_no          bigint      NOT NULL,
    change_id       bigint,
    episodes        bigint      NOT NULL,
    points          bigint      NOT NULL,
    clumps          integer     NOT NULL,
    clumped         bigint      NOT NULL,
    indexed         boolean     NOT NULL,
    m               integer     NOT NULL,
    ef_construction integer     NOT NULL,
    built_at        timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CONSTRAINT search_builds_pkey PRIMARY KEY (tenant_id, simulation_id, build_no),
    CONSTRAINT search_builds_simulation_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no)
        REFERENCES memory.simulations (tenant_id, simulation_id, sim_no) ON DELETE CASCADE,
    CONSTRAINT search_builds_counts_check CHECK (episodes >= 0 AND points >= 0 AND clumps >= 0 AND clumped >= 0)
);
COMMENT ON TABLE memory.search_builds IS
    'What swarm-memory index found in a simulation for search_episodes: its clumps and representatives, and the change it saw (memory._clump_build)';

-- 2. memory.search_points: the representatives, each distinct vector of the simulation
--    outside its clumps once, with the keys (episode_key) of every episode holding exactly
--    that vector, in episode_id order. The simulation's HNSW index is over these rows
--    (half precision, as the vectors are stored: the exact ranking reads memory.episodes).
CREATE TABLE memory.search_points (
    tenant_id     uuid               NOT NULL,
    simulation_id uuid               NOT NULL,
    build_no      bigint             NOT NULL,
    point_no      integer            NOT NULL,
    embedding     public.halfvec(384) NOT NULL,
    keys          uuid[]             NOT NULL,
    CONSTRAINT search_points_pkey PRIMARY KEY (tenant_id, simulation_id, build_no, point_no),
    CONSTRAINT search_points_build_fkey FOREIGN KEY (tenant_id, simulation_id, build_no)
        REFERENCES memory.search_builds (tenant_id, simulation_id, build_no) ON DELETE CASCADE,
    CONSTRAINT search_points_keys_check CHECK (pg_catalog.cardinality(keys) >= 1)
);
COMMENT ON TABLE memory.search_points IS
    'The representatives of an indexed simulation: each distinct vector outside its clumps once, with the episodes holding it';

-- 3. memory.search_clumps: a simulation's clumps, each the episodes within cosine 0.99 of
--    its leader (the normalised mean of a dense spot of a sample), with what
--    search_episodes needs without reading its members: how many episodes and distinct
--    vectors it holds and its agents (p_collapse counts them).
CREATE TABLE memory.search_clumps (
    tenant_id     uuid               NOT NULL,
    simulation_id uuid               NOT NULL,
    build_no      bigint             NOT NULL,
    clump_no      integer            NOT NULL,
    leader        public.halfvec(384) NOT NULL,
    members       integer            NOT NULL,
    vectors       integer            NOT NULL,
    agent_ids     integer[]          NOT NULL,
    CONSTRAINT search_clumps_pkey PRIMARY KEY (tenant_id, simulation_id, build_no, clump_no),
    CONSTRAINT search_clumps_build_fkey FOREIGN KEY (tenant_id, simulation_id, build_no)
        REFERENCES memory.search_builds (tenant_id, simulation_id, build_no) ON DELETE CASCADE,
    CONSTRAINT search_clumps_counts_check CHECK (members >= vectors AND vectors >= 1)
);
COMMENT ON TABLE memory.search_clumps IS
    'The clumps of near-copies (cosine > 0.99 of a leader) of an indexed simulation, read whole by search_episodes when near a question';

-- 4. memory.search_clump_chunks: a clump's distinct vectors, a few to a row, so that reading
--    a clump whole costs a heap row per few vectors (measured at 200,000 episodes: its
--    largest clump, 9,154 distinct vectors, in 4.3 ms against 13.5 ms a row each). A row
--    stays in its page (toast_tuple_target, STORAGE MAIN: no TOAST fetch per row).
--    embeddings[i]'s episodes are keys[key_ends[i-1] + 1 .. key_ends[i]] (key_ends[0] = 0),
--    each in episode_id order.
CREATE TABLE memory.search_clump_chunks (
    tenant_id     uuid                 NOT NULL,
    simulation_id uuid                 NOT NULL,
    build_no      bigint               NOT NULL,
    clump_no      integer              NOT NULL,
    chunk_no      integer              NOT NULL,
    embeddings    public.halfvec(384)[] NOT NULL,
    keys          uuid[]               NOT NULL,
    key_ends      integer[]            NOT NULL,
    CONSTRAINT search_clump_chunks_pkey PRIMARY KEY (tenant_id, simulation_id, build_no, clump_no, chunk_no),
    CONSTRAINT search_clump_chunks_clump_fkey FOREIGN KEY (tenant_id, simulation_id, build_no, clump_no)
        REFERENCES memory.search_clumps (tenant_id, simulation_id, build_no, clump_no) ON DELETE CASCADE,
    CONSTRAINT search_clump_chunks_shape_check CHECK (
        pg_catalog.cardinality(embeddings) >= 1
        AND pg_catalog.cardinality(key_ends) = pg_catalog.cardinality(embeddings)
        AND key_ends[pg_catalog.cardinality(key_ends)] = pg_catalog.cardinality(keys))
) WITH (toast_tuple_target = 8160);
ALTER TABLE memory.search_clump_chunks ALTER COLUMN embeddings SET STORAGE MAIN;
COMMENT ON TABLE memory.search_clump_chunks IS
    'The distinct vectors of a clump, a few to a row, and the episodes holding each: what search_episodes reads to rank a clump exactly';

ALTER TABLE memory.search_builds ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.search_builds FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.search_points ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.search_points FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.search_clumps ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.search_clumps FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.search_clump_chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.search_clump_chunks FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.search_builds, memory.search_points, memory.search_clumps, memory.search_clump_chunks FROM PUBLIC;
GRANT SELECT ON memory.search_builds, memory.search_points, memory.search_clumps, memory.search_clump_chunks TO memory_reader;
