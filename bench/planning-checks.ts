/**
 * Every request the planning phase will measure is sent once and its answer checked first, so a
 * route that answers fast but wrong (a 404, another parcel, the conservative default for a
 * residential lot, an envelope no smaller than the lot) stops the run instead of winning it.
 */
import { FALLBACK_REGIME } from '../subgraphs/planning/provisions/index.ts';
import type { Headers } from './api-key.ts';
import type { Fetched } from './checked-fetch.ts';
import { at, brief, eachLimited, getJson, pct, share } from './checked-fetch.ts';
import type { PlanningQueries, PlanningQuery, PlanningRouteName } from './planning-queries.ts';
import { PLANNING_ROUTES } from './planning-queries.ts';

/** Below this share of correct answers a route is broken, not slow: the run stops before measuring. */
export const MIN_CORRECT = 0.99;
const CHECK_CONCURRENCY = 8;
const EXAMPLES = 3;

export type RouteCheck = {
  route: PlanningRouteName;
  total: number;
  /** 200 for the expected parcel, its state's residential code, and (envelope) an envelope inside the lot. */
  ok: number;
  /** Wrong answers by what was wrong: "404 at stage address", "another parcel", ... */
  problems: Map<string, number>;
  examples: string[];
};

export type PlanningChecks = Record<PlanningRouteName, RouteCheck>;

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** What is wrong with a non-200 answer: its status, and for envelope-by-address the stage that failed. */
function statusProblem(answer: Fetched): string {
  if (answer.status === 0) return 'no answer';
  const stage = at(answer.body, 'stage');
  return typeof stage === 'string' ? `${answer.status} at stage ${stage}` : `${answer.status}`;
}

function provisionsProblem(q: PlanningQuery, answer: Fetched): string | undefined {
  if (answer.status !== 200) return statusProblem(answer);
  if (at(answer.body, 'property', 'parcel_pfi') !== q.lot.parcel_pfi) return 'another parcel';
  if (at(answer.body, 'data', 'regime') === FALLBACK_REGIME) return 'the conservative default';
  return undefined;
}

function envelopeProblem(q: PlanningQuery, answer: Fetched): string | undefined {
  if (answer.status !== 200) return statusProblem(answer);
  if (at(answer.body, 'property', 'parcel_pfi') !== q.lot.parcel_pfi) return 'another parcel';
  if (at(answer.body, 'provisions', 'regime') === FALLBACK_REGIME) return 'the conservative default';
  const area = num(at(answer.body, 'envelope', 'properties', 'area_m2'));
  const parcelArea = num(at(answer.body, 'envelope', 'properties', 'parcel_area_m2'));
  if (area === undefined || parcelArea === undefined || !(area > 0 && area < parcelArea))
    return 'an envelope not inside the lot';
  return undefined;
}

const PROBLEM_OF: Record<PlanningRouteName, (q: PlanningQuery, answer: Fetched) => string | undefined> = {
  provisions: provisionsProblem,
  'envelope-by-address': envelopeProblem,
};

/** What a reader needs to reproduce a wrong answer: the lot asked about, and the answer. */
function example(q: PlanningQuery, problem: string, answer: Fetched): string {
  const lot = `${q.lot.state} ${q.lot.parcel_pfi} (${q.lot.zone_code}, '${q.lot.formatted_address}')`;
  return `${q.path} for ${lot}: ${problem}: ${brief(answer.body)}`;
}

async function checkRoute(
  url: string,
  headers: Headers,
  route: PlanningRouteName,
  queries: readonly PlanningQuery[],
): Promise<RouteCheck> {
  const check: RouteCheck = { route, total: queries.length, ok: 0, problems: new Map(), examples: [] };
  const answers = await eachLimited(queries, CHECK_CONCURRENCY, (q) => getJson(`${url}${q.path}`, headers));
  for (const [i, q] of queries.entries()) {
    const answer = answers[i];
    if (!answer) continue;
    const problem = PROBLEM_OF[route](q, answer);
    if (problem === undefined) {
      check.ok += 1;
      continue;
    }
    check.problems.set(problem, (check.problems.get(problem) ?? 0) + 1);
    if (check.examples.length < EXAMPLES) check.examples.push(example(q, problem, answer));
  }
  return check;
}

const WHAT_IS_CHECKED: Record<PlanningRouteName, string> = {
  provisions: "answered 200 for the lot's parcel with its state's residential code",
  'envelope-by-address':
    "answered 200 for the address's parcel with its state's residential code and an envelope of positive area smaller than the lot",
};

/** A line per route, for stdout and the docs. */
export function describePlanningChecks(checks: PlanningChecks): string[] {
  return PLANNING_ROUTES.map((route) => {
    const c = checks[route];
    const wrong = [...c.problems.entries()].map(([problem, n]) => `${n} ${problem}`).join(', ');
    return `${route}: ${c.ok.toLocaleString('en-AU')} of ${c.total.toLocaleString('en-AU')} (${pct(c.ok, c.total)}) ${WHAT_IS_CHECKED[route]}${wrong ? ` (${wrong})` : ''}`;
  });
}

/** Checks every request of both routes and throws, with examples, when a route is broken rather than slow. */
export async function checkPlanningRoutes(
  url: string,
  headers: Headers,
  queries: PlanningQueries,
): Promise<PlanningChecks> {
  const checks: PlanningChecks = {
    provisions: await checkRoute(url, headers, 'provisions', queries.routes.provisions),
    'envelope-by-address': await checkRoute(url, headers, 'envelope-by-address', queries.routes['envelope-by-address']),
  };
  const broken = PLANNING_ROUTES.filter((route) => share(checks[route].ok, checks[route].total) < MIN_CORRECT);
  if (broken.length > 0) {
    const examples = broken.flatMap((route) => checks[route].examples.map((e) => `  ${route}: ${e}`));
    throw new Error(
      `The planning routes are broken, not measured (below ${MIN_CORRECT * 100}% correct: ${broken.join(', ')}):\n${describePlanningChecks(checks).join('\n')}\n${examples.join('\n')}`,
    );
  }
  return checks;
}
