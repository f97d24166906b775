-- memory.word_postings: the words index (V0020). Readers of the call's tenant see its rows;
-- no tenant role writes them. The trigger memory._index_words (SECURITY DEFINER) adds and
-- removes them as memory_owner, for the tenant of the call whose write fired it.
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.word_postings;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.word_postings
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.word_postings;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.word_postings
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_adds_rows_to_the_entered_call_tenant ON memory.word_postings;
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.word_postings
    AS PERMISSIVE FOR INSERT TO memory_owner
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.word_postings;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.word_postings
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
