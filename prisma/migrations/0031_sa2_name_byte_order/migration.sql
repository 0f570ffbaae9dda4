-- A suburb's building approvals (SUBURB_MARKETS) are those of the SA2s whose name is the suburb's
-- or starts with it and " - " or " (" ("Castle Hill - North"). Matched with LIKE on a parameter,
-- which no index serves in a generic plan, every call read every approval row of the state and
-- joined each to its ASGS name: 288 rows on the sandbox, a state's whole monthly history by SA2 at
-- real scale. The statement now matches the name as an equality and two byte-order ranges, which
-- these indexes (the name in the "C" collation) answer. They replace the indexes of the same
-- columns in the database's collation, which nothing else reads.
DROP INDEX market.building_approval_name_idx;
CREATE INDEX building_approval_name_idx ON market.building_approval (dataset, state, (upper(sa2_name) COLLATE "C"));
DROP INDEX market.sa2_name_name_idx;
CREATE INDEX sa2_name_name_idx ON market.sa2_name (dataset, state, (upper(sa2_name) COLLATE "C"));
