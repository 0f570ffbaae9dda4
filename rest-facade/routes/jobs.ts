import { z } from 'zod';
import { jobOfAccount, jobView } from '../../platform/jobs/engine.ts';
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
