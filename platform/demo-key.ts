import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_SCOPES } from '../core/scopes.ts';
import type { KeyStore } from './keys.ts';

/** A few lookups a day (spec 1.6, §8); address suggestions do not count against it. */
export const DEMO_DAILY_CAP = 5;
const DEMO_KEY_FILE = 'demo-key.json';

/**
 * The public demo key of the embedded default: read-only, test kind (sandbox data only),
 * capped per day. Its secret is public by design, so it is kept in the data folder and
 * printed at every start rather than shown once like every other key.
 */
export async function ensureDemoKey(keys: KeyStore, dataDir: string): Promise<string> {
  const file = join(dataDir, DEMO_KEY_FILE);
  if (existsSync(file)) {
    const { secret } = JSON.parse(readFileSync(file, 'utf8')) as { secret: string };
    const key = await keys.authenticate(secret);
    if (key?.status === 'active') return secret;
  }
  const { key, secret } = await keys.create({
    name: 'public-demo',
    kind: 'test',
    scopes: [...DEMO_SCOPES],
    dailyCap: DEMO_DAILY_CAP,
    account: 'demo',
  });
  writeFileSync(file, JSON.stringify({ id: key.id, secret }, null, 2), { mode: 0o600 });
  return secret;
}
