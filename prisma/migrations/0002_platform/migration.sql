-- The platform: accounts, API keys, metered usage and the audit log. Only SHA-256 hashes of
-- key secrets are stored; a lost secret cannot be recovered, only rotated.
CREATE SCHEMA IF NOT EXISTS platform;

CREATE TABLE platform.account (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE platform.api_key (
  id                    text PRIMARY KEY,
  account_id            text NOT NULL REFERENCES platform.account (id),
  name                  text NOT NULL,
  kind                  text NOT NULL CHECK (kind IN ('live', 'test')),
  -- the first characters of the secret, shown in listings so a person can tell keys apart
  secret_prefix         text NOT NULL,
  secret_hash           text NOT NULL UNIQUE,
  scopes                text[] NOT NULL,
  capabilities          text[] NOT NULL DEFAULT '{}',
  rate_limit_per_minute integer NOT NULL DEFAULT 60 CHECK (rate_limit_per_minute > 0),
  monthly_quota         integer CHECK (monthly_quota IS NULL OR monthly_quota > 0),
  -- a per-day cap on metered calls (the public demo key); null means none
  daily_cap             integer CHECK (daily_cap IS NULL OR daily_cap > 0),
  embed_allow_list      text[] NOT NULL DEFAULT '{}',
  audit_retention_days  integer NOT NULL DEFAULT 90,
  terms_version         text NOT NULL,
  status                text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'revoked')),
  billing_review        boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL DEFAULT now(),
  rotated_at            timestamptz,
  revoked_at            timestamptz
);
CREATE INDEX api_key_account_idx ON platform.api_key (account_id);

-- Metered calls per key, month (YYYY-MM) and route group, added to in batches.
CREATE TABLE platform.usage_monthly (
  key_id       text NOT NULL REFERENCES platform.api_key (id),
  month        text NOT NULL,
  route_group  text NOT NULL,
  calls        bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, month, route_group)
);

CREATE TABLE platform.audit_log (
  id          bigserial PRIMARY KEY,
  key_id      text,
  action      text NOT NULL,
  detail      jsonb NOT NULL DEFAULT '{}',
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_key_idx ON platform.audit_log (key_id, at);
