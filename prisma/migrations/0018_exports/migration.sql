-- Bulk export (spec 4.7, docs/notes-export.md). The export job itself is a platform.job of kind
-- 'export'; these tables hold what is the export's own: its selection resolved to a numbered list
-- of targets (so a resumed job reads the same rows in the same order), the credits of the layers
-- it read (its manifest), and what it charges against the key's monthly row allowance.

-- The key's monthly export row allowance; NULL: the configured default (LANDGRAPH_EXPORT_ROWS_MONTHLY).
ALTER TABLE platform.api_key ADD COLUMN export_rows_monthly integer CHECK (export_rows_monthly IS NULL OR export_rows_monthly >= 0);

CREATE TABLE platform.export (
  job_id          text PRIMARY KEY REFERENCES platform.job (id) ON DELETE CASCADE,
  account_id      text NOT NULL,
  key_id          text NOT NULL,
  -- the allowance month (YYYY-MM, UTC) the export counts in: the month it was submitted
  month           text NOT NULL,
  -- the selection as given (its type, name and state, or the polygon; an address list is in export_target)
  selection       jsonb NOT NULL,
  layers          text[] NOT NULL,
  layers_omitted  text[] NOT NULL DEFAULT '{}',
  header          text[] NOT NULL,
  requested_rows  integer NOT NULL CHECK (requested_rows > 0),
  -- rows charged to the allowance: all requested rows at submit; the rows delivered once it fails
  charged_rows    integer NOT NULL CHECK (charged_rows >= 0),
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX export_key_month_idx ON platform.export (key_id, month);

-- The rows an export will write, numbered from 1: a G-NAF PID, or for an address list the text as
-- given (matched when the job reaches it). Deleted when the job finishes.
CREATE TABLE platform.export_target (
  job_id         text NOT NULL REFERENCES platform.export (job_id) ON DELETE CASCADE,
  n              integer NOT NULL CHECK (n > 0),
  gnaf_pid       text,
  input_address  text,
  PRIMARY KEY (job_id, n)
);

-- The credits of every layer answer the export read, for its manifest: one line per distinct
-- credit, with the oldest and newest snapshot date seen. Upserted per batch (idempotent, so a
-- batch read again after a crash adds nothing new).
CREATE TABLE platform.export_credit (
  job_id          text NOT NULL REFERENCES platform.export (job_id) ON DELETE CASCADE,
  layer           text NOT NULL,
  attribution     text NOT NULL,
  license         text NOT NULL,
  source          text NOT NULL,
  freshness_min   text,
  freshness_max   text,
  PRIMARY KEY (job_id, layer, attribution, license, source)
);
