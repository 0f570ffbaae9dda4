import { setTimeout as sleep } from 'node:timers/promises';
import { logger } from '../core/logger.ts';

const POLL_MS = 200;
/** How long one /health call may take before the service counts as not answering this round. */
const HEALTH_TIMEOUT_MS = 2_000;
/** A worker still waiting names the services it waits for this often, so a wrong port shows in the log. */
const REPORT_EVERY_MS = 30_000;

/** Whether the subgraph service behind `graphqlUrl` answers its open /health route. */
export async function answersHealth(graphqlUrl: string): Promise<boolean> {
  try {
    const response = await fetch(graphqlUrl.replace(/\/graphql$/, '/health'), {
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    // not listening yet
    return false;
  }
}

/**
 * Resolves once every subgraph service answers /health, or when `signal` aborts (false then).
 * A distributed worker waits here before it claims a job: a job run while a service is still
 * starting would not fail, it would succeed with that layer `unavailable` in every row. No
 * deadline: services that never come are named in the log every REPORT_EVERY_MS, and the worker
 * claims nothing meanwhile.
 */
export async function waitForSubgraphServices(
  urls: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<boolean> {
  let waiting = Object.entries(urls);
  let reportedAt = 0;
  for (;;) {
    const answers = await Promise.all(waiting.map(([, url]) => answersHealth(url)));
    waiting = waiting.filter((_, i) => !answers[i]);
    if (waiting.length === 0) {
      if (reportedAt) logger.info('the subgraph services answer; claiming jobs');
      return true;
    }
    if (signal.aborted) return false;
    if (Date.now() - reportedAt >= REPORT_EVERY_MS) {
      (reportedAt ? logger.warn : logger.info)('waiting for the subgraph services before claiming jobs', {
        waiting: waiting.map(([name]) => name),
      });
      reportedAt = Date.now();
    }
    // an abort ends the pause at once, and the next round returns
    await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}
