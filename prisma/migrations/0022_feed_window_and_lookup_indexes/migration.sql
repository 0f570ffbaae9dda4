-- Indexes found missing by the P7 bench at 1,000,000 development applications
-- (docs/benchmarks.md "Development pipeline at 1,000,000 DAs"), and two the market and land-value
-- statements were reading whole tables without.

-- The feed's keyset index carries each application's point, so a window's page is decided in the
-- index (an index-only scan) and only its own rows are read from the table. Without it, the feed
-- read the table row of every id it passed over while looking for rows inside the window: with
-- rows in no physical order, about 10,000 random reads for a page of a window holding 2% of the
-- feed, and PostgreSQL's generic plan of the named statement chose a bitmap scan and a sort of
-- every row in the window instead (250 ms and more for a city's 2° window).
DROP INDEX development.application_feed_idx;
CREATE INDEX application_feed_idx ON development.application (dataset, received_at, id) INCLUDE (geom);

-- A state's newest sale (NEWEST_SALE, and every state's in the market overview) is max() of this
-- expression: with the index it is one backward index step, without it a scan of the state's sales
-- (300 ms over a million NSW sales).
CREATE INDEX sale_date_idx ON market.sale (dataset, state, (coalesce(contract_date, settlement_date)));

-- The sales and land-value ingests match each row to the parcel its SPI names: a nested loop of
-- index probes instead of a hash join over the whole cadastre per batch (1.6 s per 500 rows over
-- a million parcels, 19 ms with it).
CREATE INDEX parcel_spi_idx ON cadastre.parcel (dataset, state, parcel_spi);
