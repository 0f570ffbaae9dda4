-- The durable job engine and webhooks (platform module, DESIGN.md §2). A job, its input, its
-- progress and its result rows live here, so a restart loses nothing and never doubles a row.
--
-- Lifecycle (docs/p9-notes-jobs.md): awaiting_approval -> queued | cancelled | expired;
-- queued -> running | cancelled; running -> succeeded | failed | cancelled | queued (a retry
-- after a failed attempt); a running job whose lease ran out is claimed again while running;
-- succeeded | failed | cancelled -> expired (the sweeper drops its rows after the retention).
CREATE TABLE platform.job (
  id            text PRIMARY KEY,
  kind          text NOT NULL,
  account_id    text NOT NULL,
  key_id        text,
  input         jsonb NOT NULL DEFAULT '{}',
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN
                  ('awaiting_approval', 'queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired')),
  -- jobs sharing a queue key run one at a time in seq order (webhook deliveries of one endpoint)
  queue_key     text,
  seq           bigserial NOT NULL,
  rows_done     integer NOT NULL DEFAULT 0 CHECK (rows_done >= 0),
  rows_total    integer CHECK (rows_total IS NULL OR rows_total >= 0),
  attempts      integer NOT NULL DEFAULT 0,
  max_attempts  integer NOT NULL DEFAULT 3 CHECK (max_attempts > 0),
  run_after     timestamptz NOT NULL DEFAULT now(),
  -- the claim holding the job: a random token per claim, and when the claim lapses unless renewed
  lease_token   text,
  lease_until   timestamptz,
  heartbeat_at  timestamptz,
  -- where the result is (e.g. {"rows": "platform.job_row"}) and its summary
  result        jsonb,
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz,
  expires_at    timestamptz
);
CREATE INDEX job_claim_idx ON platform.job (run_after, seq) WHERE state IN ('queued', 'running');
-- the unfinished jobs of each queue, walked queue by queue to find each queue's head (engine.ts claimJob)
CREATE INDEX job_queue_idx ON platform.job (queue_key, seq)
  WHERE queue_key IS NOT NULL AND state IN ('queued', 'running', 'awaiting_approval');
CREATE INDEX job_account_idx ON platform.job (account_id, created_at);
CREATE INDEX job_expiry_idx ON platform.job (expires_at) WHERE expires_at IS NOT NULL;

-- A job's result rows: written in committed batches together with the job's progress, each row once.
CREATE TABLE platform.job_row (
  job_id  text NOT NULL REFERENCES platform.job (id) ON DELETE CASCADE,
  row_no  integer NOT NULL CHECK (row_no > 0),
  data    jsonb NOT NULL,
  PRIMARY KEY (job_id, row_no)
);

CREATE TABLE platform.webhook_endpoint (
  id                 text PRIMARY KEY,
  account_id         text NOT NULL,
  url                text NOT NULL CHECK (url LIKE 'https://%'),
  description        text NOT NULL DEFAULT '',
  events             text[] NOT NULL,
  -- optional filters of development_application.updated: {"lga_code": "...", "bbox": [w,s,e,n]}
  filters            jsonb NOT NULL DEFAULT '{}',
  -- the signing secret, AES-256-GCM under the configured key (or the data folder's key)
  secret_ciphertext  text NOT NULL,
  secret_prefix      text NOT NULL,
  status             text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'failing', 'disabled')),
  created_at         timestamptz NOT NULL DEFAULT now(),
  rotated_at         timestamptz,
  deleted_at         timestamptz,
  last_delivery_at   timestamptz,
  last_success_at    timestamptz,
  disabled_at        timestamptz
);
CREATE INDEX webhook_endpoint_account_idx ON platform.webhook_endpoint (account_id);

-- Every delivery attempt, kept after an endpoint is disabled or deleted.
CREATE TABLE platform.webhook_delivery (
  id           bigserial PRIMARY KEY,
  endpoint_id  text NOT NULL REFERENCES platform.webhook_endpoint (id),
  job_id       text,
  event_id     text NOT NULL,
  event_type   text NOT NULL,
  attempt      integer NOT NULL,
  status       text NOT NULL CHECK (status IN ('delivered', 'failed', 'given_up')),
  http_status  integer,
  error        text,
  duration_ms  integer,
  at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_delivery_endpoint_idx ON platform.webhook_delivery (endpoint_id, id);
