import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { monthOf } from '../../platform/usage.ts';
import { defineRoute } from '../route.ts';

const CHANGELOG_FILE = new URL('../../CHANGELOG.md', import.meta.url);

export const usage = defineRoute({
  method: 'get',
  path: '/v1/usage',
  tag: 'Platform',
  summary: "The calling key's own metered usage for a month, by route group.",
  access: 'key',
  metered: false,
  query: z.object({
    month: z
      .string({ error: 'month must be a single value like 2026-11.' })
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'month must look like 2026-11.' })
      .optional(),
  }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    const owner = key!;
    const month = q.month ?? monthOf(new Date());
    const lines = await runtime.meter.usage(owner.id, month);
    const total = lines.reduce((sum, line) => sum + line.calls, 0);
    const view = await runtime.keys.show(owner.id);
    return {
      body: {
        success: true,
        key: { id: owner.id, name: owner.name, kind: owner.kind },
        month,
        usage: lines,
        total,
        monthly_quota: owner.monthlyQuota,
        billing_review: view.billingReview,
      },
    };
  },
});

export const changelog = defineRoute({
  method: 'get',
  path: '/changelog',
  tag: 'Platform',
  summary: 'The public changelog: new routes, deprecations and sunsets (spec 9.2).',
  access: 'open',
  metered: false,
  query: z.object({}),
  errorStyle: 'plain',
  async handle() {
    const content = await readFile(CHANGELOG_FILE, 'utf8');
    return { body: {}, raw: { contentType: 'text/markdown; charset=utf-8', content } };
  },
});
