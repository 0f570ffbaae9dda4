// `landgraph serve` from the TypeScript sources (run with `node --import tsx`), whether or not
// dist/ is current: the start phase's --start-entry sources, to set the build against.
import { main } from '../cli/main.ts';

process.exitCode = await main(['serve']);
