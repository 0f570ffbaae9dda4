-- ASGS SA2 names by code (the ABS allocation file), so building approvals loaded from a
-- code-only ABS export are named, and tied to the suburb whose name they carry, like those of a
-- labelled export. A reload replaces a code's name (ASGS editions rename some SA2s).
CREATE TABLE market.sa2_name (
  dataset       text NOT NULL,
  sa2_code      text NOT NULL,
  sa2_name      text NOT NULL,
  state         text NOT NULL,
  -- the ASGS edition the names are of, e.g. 2021
  asgs_edition  text NOT NULL,
  attribution   text NOT NULL,
  license       text NOT NULL,
  PRIMARY KEY (dataset, sa2_code)
);
CREATE INDEX sa2_name_name_idx ON market.sa2_name (dataset, state, upper(sa2_name));
