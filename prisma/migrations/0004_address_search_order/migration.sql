-- Autocomplete wants the first few keys of a prefix in key order. A text_pattern_ops index
-- finds the range but cannot return it in ORDER BY order, so every key of a short prefix
-- ("76 D") was read and sorted; a "C"-collated index gives the range already in byte order,
-- and the scan stops at the limit.
DROP INDEX IF EXISTS address.address_detail_search_key_idx;
CREATE INDEX address_detail_search_key_idx ON address.address_detail (dataset, (search_key COLLATE "C"));
