-- The SPEAR lookup by parcel (`parcel_pfis @> ARRAY[pfi]`) reads this GIN index. By default GIN
-- queues new entries in a pending list that every search reads whole until a VACUUM merges it;
-- the embedded database has no autovacuum at all, and a bulk load (the sandbox seed, an ingest)
-- left every row in the list: 242 buffers and 6 ms a lookup at a million parcels against 0.006 ms
-- once merged (docs/benchmarks.md). Entries now go straight into the index, and what is already
-- pending is merged here.
ALTER INDEX development.spear_application_pfis_idx SET (fastupdate = off);
SELECT gin_clean_pending_list('development.spear_application_pfis_idx'::regclass);
