-- A suburb's rents (SUBURB_MARKETS: Property.market_trends and the suburb routes) are matched by
-- the suburb's name in upper case, or by its postcode where the publisher keys by postcode. The
-- postcode side probes the primary key; the name side had no index, so every call read all of a
-- state's rent rows: 0.45 of the 1.1 ms the rents took per suburb on the sandbox, and a state's
-- whole bond history at real scale. With both sides indexed it is a BitmapOr of two probes.
CREATE INDEX rent_bond_suburb_idx ON market.rent_bond (dataset, state, upper(area)) WHERE area_kind = 'suburb';
