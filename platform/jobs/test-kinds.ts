import { setTimeout as sleep } from 'node:timers/promises';
import type { JobHandler } from './worker.ts';

/**
 * Test-only job kinds, registered only when LANDGRAPH_TEST_JOB_KINDS=1 (the crash-recovery e2e
 * and test/jobs.test.ts): `test.rows` writes rows 1..input.rows, `input.batch` at a time, waiting
 * `input.delayMs` before each batch, and resumes after the last committed row.
 */
export const TEST_ROWS_KIND = 'test.rows';

export const testRowsHandler: JobHandler = {
  kind: TEST_ROWS_KIND,
  async run(job, ctx) {
    const total = Number(job.input.rows ?? 0);
    const batch = Math.max(1, Number(job.input.batch ?? 1));
    const delayMs = Number(job.input.delayMs ?? 0);
    if (job.input.fail === true) throw new Error('asked to fail');
    let done = job.rowsDone;
    while (done < total) {
      if (delayMs > 0) await sleep(delayMs, undefined, { signal: ctx.signal }).catch(() => undefined);
      await ctx.checkpoint();
      const rows = [];
      for (let n = done + 1; n <= Math.min(total, done + batch); n++) rows.push({ n, square: n * n, by: process.pid });
      done = await ctx.commitRows(rows, total);
    }
    return { rows: done, location: `platform.job_row?job_id=${job.id}` };
  },
};
