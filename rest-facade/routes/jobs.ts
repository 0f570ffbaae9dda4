import { z } from 'zod';
import { cancelJob, JOB_STATES, jobOfAccount, jobView, listJobs, MAX_JOB_PAGE } from '../../platform/jobs/engine.ts';
import { textParam } from '../params.ts';
import { defineRoute } from '../route.ts';

/** A job id as the engine makes them (`job_` and 16 base62 characters); anything else is simply not found. */
export const jobId = textParam('id', 64);

export const jobStatus = defineRoute({
  method: 'get',
  path: '/v1/jobs/:id',
  tag: 'Jobs',
  summary: "A job of the caller's account: its state, progress (rows done of total), attempts and result.",
  access: 'key',
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    // Another account's job answers 404 exactly as a missing one: its existence is not revealed.
    const job = await jobOfAccount(runtime.db, key!.accountId, q.id);
    return { body: { success: true, job: jobView(job) } };
  },
});

const limitMessage = `limit must be a whole number from 1 to ${MAX_JOB_PAGE}.`;

export const jobList = defineRoute({
  method: 'get',
  path: '/v1/jobs',
  tag: 'Jobs',
  summary: "The caller's account's jobs, newest first; `state` keeps one state, `before` pages on from a job id.",
  access: 'key',
  metered: false,
  query: z.object({
    limit: z.coerce
      .number({ error: limitMessage })
      .int({ error: limitMessage })
      .min(1, { error: limitMessage })
      .max(MAX_JOB_PAGE, { error: limitMessage })
      .optional()
      .describe(`Jobs per page, 1 to ${MAX_JOB_PAGE} (default 20).`),
    state: z
      .enum(JOB_STATES, { error: `state must be one of ${JOB_STATES.join(', ')}.` })
      .optional()
      .describe(`Only jobs in this state: ${JOB_STATES.join(', ')}.`),
    before: jobId.optional().describe('A job id of the account: the page starts after it (next_before of a page).'),
  }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    const limit = q.limit ?? 20;
    const jobs = await listJobs(runtime.db, key!.accountId, { limit, state: q.state, before: q.before });
    const last = jobs.length === limit ? jobs[jobs.length - 1] : undefined;
    return { body: { success: true, jobs: jobs.map(jobView), next_before: last?.id ?? null } };
  },
});

export const jobCancel = defineRoute({
  method: 'post',
  path: '/v1/jobs/:id/cancel',
  tag: 'Jobs',
  summary: "Cancels a job of the caller's account that has not finished; a running job stops at its next batch.",
  access: 'key',
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    // 404 for another account's job, as for a missing one; 409 once the job has finished
    const job = await cancelJob(runtime.db, q.id, key!.accountId, runtime.config.jobRetentionHours);
    return { body: { success: true, job: jobView(job) } };
  },
});
