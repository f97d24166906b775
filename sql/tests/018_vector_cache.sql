-- 018_vector_cache: a tenant's vectors cached by (embedding model, content hash) (issue 10,
-- point 5). cache_vectors adds, idempotently (a cached hash keeps its first vector), and
-- cached_vectors returns the hits of the caller's tenant only; another tenant's cache, the
-- table read with a forged tenant setting and the functions called for another tenant give
-- nothing. Bad arguments are refused by SQLSTATE before anything is written; the table is
-- append-only for tenant roles.
BEGIN;
\ir _fixtures.psql
SELECT plan(34);

CREATE FUNCTION fx.h(p_k integer) RETURNS bytea LANGUAGE sql IMMUTABLE
    AS $$ SELECT pg_catalog.sha256(p_k::text::bytea) $$;
-- Rows of a tenant in the cache, counted as the superuser (no RLS).
CREATE FUNCTION fx.cached(p_tenant_id uuid) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$ SELECT pg_catalog.count(*) FROM memory.vector_cache WHERE tenant_id = p_tenant_id $$;

-- Adding (6)
SET LOCAL ROLE app_a;
SELECT is(memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(1), fx.h(2)], ARRAY[fx.vec(1), fx.vec(2)]), 2::bigint,
          'cache_vectors returns the rows it added');
SELECT is(memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(1), fx.h(2)], ARRAY[fx.vec(1), fx.vec(2)]), 0::bigint,
          'the same call again adds nothing');
SELECT is(memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(2), fx.h(3)], ARRAY[fx.vec(9), fx.vec(3)]), 1::bigint,
          'an overlapping call adds only the new hash');
SELECT is(memory.cache_vectors(fx.tenant_a(), 'm', '{}', '{}'), 0::bigint, 'empty arrays add nothing');
SELECT is(memory.cache_vectors(fx.tenant_a(), 'other-model', ARRAY[fx.h(1)], ARRAY[fx.vec(7)]), 1::bigint,
          'the same hash under another model is another row');
SELECT is(memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(4), fx.h(4)], ARRAY[fx.vec(4), fx.vec(5)]), 1::bigint,
          'a hash twice in one call is added once');

-- Reading (5)
SELECT set_eq($$SELECT content_hash, embedding::text FROM memory.cached_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(1), fx.h(2), fx.h(3), fx.h(99)])$$,
              $$VALUES (fx.h(1), fx.vec(1)::text), (fx.h(2), fx.vec(2)::text), (fx.h(3), fx.vec(3)::text)$$,
              'cached_vectors returns the hits, each with its first vector (h2 kept vec(2)); a miss is left out');
SELECT set_eq($$SELECT content_hash, embedding::text FROM memory.cached_vectors(fx.tenant_a(), 'other-model', ARRAY[fx.h(1), fx.h(2)])$$,
              $$VALUES (fx.h(1), fx.vec(7)::text)$$, 'the model is part of the key');
SELECT is_empty($$SELECT * FROM memory.cached_vectors(fx.tenant_a(), 'm', '{}')$$, 'no hash asked, no row');
-- A writer may INSERT into the table directly (its tenant only): a vector that cannot be
-- compared is a miss, never a hit.
SELECT lives_ok($$INSERT INTO memory.vector_cache (tenant_id, embedding_model, content_hash, embedding)
                  VALUES (fx.tenant_a(), 'm', fx.h(5), pg_catalog.array_fill(0::real, ARRAY[384])::public.vector)$$,
                'a writer inserts a zero vector for its call tenant directly');
SELECT is_empty($$SELECT * FROM memory.cached_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(5)])$$,
                'cached_vectors leaves out a cached vector memory._vector_problem refuses');
RESET ROLE;

-- Isolation (8)
SET LOCAL ROLE app_b;
SELECT is_empty($$SELECT * FROM memory.cached_vectors(fx.tenant_b(), 'm', ARRAY[fx.h(1), fx.h(2), fx.h(3)])$$,
                'B''s cache holds nothing of A''s, whatever the hashes');
SELECT throws_ok($$SELECT * FROM memory.cached_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(1)])$$, '42501', NULL,
                 'B''s writer may not read A''s cache');
SELECT throws_ok($$SELECT memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(8)], ARRAY[fx.vec(8)])$$, '42501', NULL,
                 'B''s writer may not add to A''s cache');
SELECT is(memory.cache_vectors(fx.tenant_b(), 'm', ARRAY[fx.h(1)], ARRAY[fx.vec(6)]), 1::bigint,
          'B caches the same hash as a row of its own');
SELECT set_eq($$SELECT content_hash, embedding::text FROM memory.cached_vectors(fx.tenant_b(), 'm', ARRAY[fx.h(1)])$$,
              $$VALUES (fx.h(1), fx.vec(6)::text)$$, 'B reads its own vector for the hash');
DO $$ BEGIN PERFORM pg_catalog.set_config('memory.tenant_id', fx.tenant_a()::text, true); END $$;
SELECT is_empty($$SELECT * FROM memory.vector_cache WHERE tenant_id = fx.tenant_a()$$,
                'B''s writer with memory.tenant_id forged to A reads no row of A''s cache');
SELECT throws_ok($$INSERT INTO memory.vector_cache (tenant_id, embedding_model, content_hash, embedding)
                   VALUES (fx.tenant_a(), 'm', fx.h(8), fx.vec(8))$$, '42501', NULL,
                 'nor adds one to it');
RESET ROLE;
SELECT results_eq($$SELECT fx.cached(fx.tenant_a()), fx.cached(fx.tenant_b())$$, $$VALUES (6::bigint, 1::bigint)$$,
                  'A holds its six rows, B its one');

-- Append-only and who may call (5)
SET LOCAL ROLE app_a;
SELECT throws_ok($$UPDATE memory.vector_cache SET embedding = fx.vec(9)$$, '42501', NULL, 'a writer may not UPDATE the cache');
SELECT throws_ok($$DELETE FROM memory.vector_cache$$, '42501', NULL, 'a writer may not DELETE from the cache');
SELECT throws_ok($$LOCK TABLE memory.vector_cache IN SHARE MODE$$, '42501', NULL, 'a writer may not LOCK the cache IN SHARE MODE');
RESET ROLE;
SET LOCAL ROLE reader_a;
SELECT throws_ok($$SELECT * FROM memory.cached_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(1)])$$, '42501', NULL,
                 'a reader may not call cached_vectors (an importer''s call: memory_writer)');
SELECT throws_ok($$SELECT memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(8)], ARRAY[fx.vec(8)])$$, '42501', NULL,
                 'a reader may not call cache_vectors');
RESET ROLE;

-- Refusals by SQLSTATE, nothing written (10)
SET LOCAL ROLE app_a;
SELECT throws_ok($$SELECT memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(8), fx.h(9)], ARRAY[fx.vec(8)])$$, '22023', NULL,
                 'arrays of different lengths are 22023');
SELECT throws_ok($$SELECT memory.cache_vectors(NULL, 'm', ARRAY[fx.h(8)], ARRAY[fx.vec(8)])$$, '22004', NULL,
                 'a NULL tenant is 22004');
SELECT throws_ok($$SELECT * FROM memory.cached_vectors(fx.tenant_a(), NULL, ARRAY[fx.h(8)])$$, '22004', NULL,
                 'a NULL model is 22004');
SELECT throws_ok($$SELECT memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(8), NULL], ARRAY[fx.vec(8), fx.vec(9)])$$, '22004', NULL,
                 'a NULL hash is 22004');
SELECT throws_ok($$SELECT memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(8)], ARRAY[pg_catalog.array_fill(0::real, ARRAY[384])::public.vector])$$,
                 '22023', NULL, 'the zero vector is 22023');
SELECT throws_ok($$SELECT memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[fx.h(8)], ARRAY['[1,2,3]'::public.vector])$$, '22023', NULL,
                 'a vector of 3 dimensions is 22023');
SELECT throws_ok($$SELECT memory.cache_vectors(fx.tenant_a(), 'm', ARRAY[pg_catalog.sha512('x') || '\x00'::bytea], ARRAY[fx.vec(8)])$$,
                 '22023', NULL, 'a hash of 65 bytes is 22023');
SELECT throws_ok($$SELECT * FROM memory.cached_vectors(fx.tenant_a(), '', ARRAY[fx.h(8)])$$, '22023', NULL, 'an empty model is 22023');
SELECT throws_ok($$SELECT * FROM memory.cached_vectors(fx.tenant_a(), 'm', pg_catalog.array_fill('\x01'::bytea, ARRAY[memory._limit('cache_hashes')::integer + 1]))$$,
                 '54000', NULL, 'more hashes than memory._limit(''cache_hashes'') in one call is 54000');
RESET ROLE;
SELECT is(fx.cached(fx.tenant_a()), 6::bigint, 'the refused calls cached nothing');

SELECT * FROM finish();
ROLLBACK;
