-- A lot/plan lookup (PARCELS_BY_LOT_PLAN: /api/lots by lot and plan, and a parcel named by its SPI)
-- asks for the SPI OR the plan number (with the lot when given). parcel_spi_idx (0022) serves one
-- side of the OR only, so PostgreSQL read the whole cadastre: 177 ms at 1,016,935 parcels. With
-- both sides indexed it is a BitmapOr of two probes: 0.07 ms by plan and lot, 1.5 ms with the SPI.
CREATE INDEX parcel_plan_idx ON cadastre.parcel (dataset, state, parcel_plan_number, parcel_lot_number);
