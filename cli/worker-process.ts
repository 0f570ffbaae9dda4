// The entry point of the worker process `serve --distributed` spawns (cli/worker.ts spawnWorker).
import { runWorkerCommand } from './worker.ts';

process.exitCode = await runWorkerCommand(process.argv.slice(2));
