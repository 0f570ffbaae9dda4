-- Enrich uploads (spec 4.7): the rows of a submitted CSV, kept beside its job rather than in
-- platform.job.input, so the job's status and the job list never read up to 2 MB per job. Kept
-- until the job finishes (its result rows then carry every input cell) and dropped with the job.
CREATE TABLE platform.enrich_upload (
  job_id      text PRIMARY KEY REFERENCES platform.job (id) ON DELETE CASCADE,
  -- the header, as written (trimmed), and the data rows: arrays of strings
  columns     jsonb NOT NULL,
  rows        jsonb NOT NULL,
  bytes       integer NOT NULL CHECK (bytes >= 0),
  created_at  timestamptz NOT NULL DEFAULT now()
);
