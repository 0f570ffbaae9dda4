#!/usr/bin/env node
// The `landgraph` command. The project runs as TypeScript through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
