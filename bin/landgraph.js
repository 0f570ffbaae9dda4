#!/usr/bin/env node
// The `landgraph` command. It runs the compiled build in dist/ (bin/build.js) when that was built
// from the sources as they are, so a production start compiles nothing; otherwise (a checkout
// being edited, an install without dev dependencies) it runs the TypeScript sources through tsx.
import { pathToFileURL } from 'node:url';
import { compiledEntry } from './build.js';

const compiled = compiledEntry();
if (!compiled) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { main } = await import(compiled ? pathToFileURL(compiled).href : '../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
