import { describe, expect, it } from 'vitest';
import { testRuntime } from './support/runtime.ts';

describe('the embedded database (PGlite)', () => {
  it('keeps 32 MB of shared buffers, not the 128 MB PostgreSQL defaults to, held in its WebAssembly memory', async (ctx) => {
    const { runtime } = await testRuntime();
    if (runtime.db.kind !== 'pglite') ctx.skip();
    const [row] = await runtime.db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(row?.shared_buffers).toBe('32MB');
  });

  it('offers postgis alone of the PostGIS extensions: the cut bundle is the one loaded', async (ctx) => {
    const { runtime } = await testRuntime();
    if (runtime.db.kind !== 'pglite') ctx.skip();
    const rows = await runtime.db.query<{ name: string }>(
      "SELECT name FROM pg_available_extensions WHERE name LIKE 'postgis%' ORDER BY name",
    );
    expect(rows.map((r) => r.name)).toEqual(['postgis']);
  });
});
