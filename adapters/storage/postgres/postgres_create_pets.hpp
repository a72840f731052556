#pragma once
// Schema version 3's migration (postgres_schema.cpp), in a file of its own for its length.

namespace petstore::adapters::storage::postgres {

// create_pets_migration, from schema version 2 to 3. A batch holds the counter row only for its
// ids, its pets' insert and its COMMIT, not for its idempotency records and prune
// (docs/decisions/postgres-counter-row-locked-last.md). Version 2's create_pet stays, for
// instances of the previous binary still running during an upgrade.
inline constexpr const char* create_pets_migration = R"sql(
CREATE FUNCTION petstore.create_pets(p_names text[], p_category_ids bigint[], p_statuses text[],
    p_scopes text[], p_keys text[], p_created_at_ns bigint[], p_expired_before_ns bigint[],
    p_prune_before_ns bigint, p_prune_limit bigint)
RETURNS TABLE (r_id bigint, r_name text, r_category_id bigint, r_status text, r_created boolean)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
  v_count integer := coalesce(cardinality(p_names), 0);
  -- v_from[i]: 0 when create i stores a new pet; j > 0 when it replays create j of this batch;
  -- -1 when it replays a stored pet, whose columns are then in v_id, v_name, ...
  v_from integer[] := array_fill(0, ARRAY[v_count]);
  v_offset bigint[] := array_fill(NULL::bigint, ARRAY[v_count]);
  v_id bigint[] := array_fill(NULL::bigint, ARRAY[v_count]);
  v_name text[] := p_names;
  v_category bigint[] := p_category_ids;
  v_status text[] := p_statuses;
  v_new bigint := 0;
  v_first bigint;
  v_claimed bigint;
  v_found bigint;
  r record;
  v_pet_id bigint;
  v_pet_name text;
  v_pet_category bigint;
  v_pet_status text;
BEGIN
  -- Idempotency records first, without the counter row: a claimed record names its create by
  -- -ordinal until ids exist. In (scope, key) order, so that two batches that wait for each
  -- other's uncommitted records cannot deadlock.
  FOR r IN SELECT s.scope, s.key, s.created_at_ns, s.expired_before_ns, s.ord::integer AS ord
      FROM unnest(p_scopes, p_keys, p_created_at_ns, p_expired_before_ns)
        WITH ORDINALITY AS s(scope, key, created_at_ns, expired_before_ns, ord)
      WHERE s.key IS NOT NULL ORDER BY s.scope, s.key, s.ord LOOP
    v_claimed := NULL;
    INSERT INTO petstore.idempotency_keys AS k (scope, key, pet_id, created_at_ns)
      VALUES (r.scope, r.key, -r.ord, r.created_at_ns)
      ON CONFLICT (scope, key) DO UPDATE
        SET pet_id = EXCLUDED.pet_id, created_at_ns = EXCLUDED.created_at_ns
        WHERE k.created_at_ns < r.expired_before_ns
      RETURNING k.pet_id INTO v_claimed;
    IF v_claimed IS NULL THEN
      -- An unexpired record exists: committed (perhaps by another instance a moment ago, whose
      -- commit the insert waited for), or claimed by an earlier create of this batch.
      SELECT k.pet_id INTO v_found FROM petstore.idempotency_keys k
        WHERE k.scope = r.scope AND k.key = r.key;
      IF v_found < 0 THEN
        v_from[r.ord] := -v_found::integer;
      ELSE
        v_from[r.ord] := -1;
        SELECT p.id, p.name, p.category_id, p.status
          INTO v_pet_id, v_pet_name, v_pet_category, v_pet_status
          FROM petstore.pets p WHERE p.id = v_found;
        v_id[r.ord] := v_pet_id;
        v_name[r.ord] := v_pet_name;
        v_category[r.ord] := v_pet_category;
        v_status[r.ord] := v_pet_status;
      END IF;
    END IF;
  END LOOP;
  FOR i IN 1 .. v_count LOOP
    IF v_from[i] = 0 THEN
      v_offset[i] := v_new;
      v_new := v_new + 1;
    END IF;
  END LOOP;
  -- Expired records, a bounded number, skipping those another batch holds: no wait, so no
  -- deadlock, and pruning needs no serialising.
  DELETE FROM petstore.idempotency_keys WHERE (scope, key) IN (
    SELECT k.scope, k.key FROM petstore.idempotency_keys k WHERE k.created_at_ns < p_prune_before_ns
      ORDER BY k.created_at_ns LIMIT p_prune_limit FOR UPDATE SKIP LOCKED);
  IF v_new > 0 THEN
    -- Only now the counter row, held until COMMIT, which comes right after this statement: ids
    -- are taken in the order batches commit, and the lock is held for this block and the
    -- commit only.
    SELECT c.next_id INTO v_first FROM petstore.id_counter c FOR UPDATE;
    IF v_first IS NULL OR v_first - 1 > 9223372036854775807 - v_new THEN
      RAISE EXCEPTION 'no pet ids are left' USING ERRCODE = 'PS001';
    END IF;
    UPDATE petstore.id_counter
      SET next_id = CASE WHEN v_first - 1 = 9223372036854775807 - v_new THEN NULL
                         ELSE v_first + v_new END,
          pet_count = pet_count + v_new;
    INSERT INTO petstore.pets (id, name, category_id, status)
      SELECT v_first + v_offset[s.ord], s.name, s.category_id, s.status
        FROM unnest(p_names, p_category_ids, p_statuses) WITH ORDINALITY
          AS s(name, category_id, status, ord)
        WHERE v_from[s.ord] = 0;
    UPDATE petstore.idempotency_keys k SET pet_id = v_first + v_offset[s.ord]
      FROM unnest(p_scopes, p_keys) WITH ORDINALITY AS s(scope, key, ord)
      WHERE s.key IS NOT NULL AND v_from[s.ord] = 0
        AND k.scope = s.scope AND k.key = s.key AND k.pet_id = -s.ord;
  END IF;
  RETURN QUERY SELECT
      CASE WHEN v_from[s.ord] = -1 THEN v_id[s.ord]
           ELSE v_first + v_offset[CASE WHEN v_from[s.ord] = 0 THEN s.ord ELSE v_from[s.ord] END]
      END,
      v_name[CASE WHEN v_from[s.ord] > 0 THEN v_from[s.ord] ELSE s.ord END],
      v_category[CASE WHEN v_from[s.ord] > 0 THEN v_from[s.ord] ELSE s.ord END],
      v_status[CASE WHEN v_from[s.ord] > 0 THEN v_from[s.ord] ELSE s.ord END],
      v_from[s.ord] = 0
    FROM generate_series(1, v_count) AS s(ord) ORDER BY s.ord;
END
$fn$;
)sql";

}  // namespace petstore::adapters::storage::postgres
