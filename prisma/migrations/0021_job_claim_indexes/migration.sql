-- The claim (platform/jobs/engine.ts claimJobs) finds keyed jobs through job_queue_idx (each queue's
-- head, then the run behind it) and unkeyed jobs through this index. The old job_claim_idx held
-- every queued or running job, keyed ones included, so the unkeyed candidates were read past a
-- whole webhook backlog on every claim (and, without planner statistics on the embedded
-- database, the keyed heads were joined against all of it); every queued -> running ->
-- succeeded move of a delivery also wrote an entry to it.
DROP INDEX platform.job_claim_idx;
CREATE INDEX job_unkeyed_claim_idx ON platform.job (run_after, seq)
  WHERE queue_key IS NULL AND state IN ('queued', 'running');
