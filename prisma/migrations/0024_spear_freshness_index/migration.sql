-- The SPEAR layer's freshness, the newest receipt in the dataset, is max(received_at) over the
-- dataset in every statement the layer runs (each property graph call, /api/spear/*): with this
-- index one backward index step, without it a scan of the whole table. At a million sandbox parcels
-- (41,060 applications, 63 MB) that scan was 45 to 56 ms of each property graph call.
CREATE INDEX spear_application_received_idx ON development.spear_application (dataset, received_at);
