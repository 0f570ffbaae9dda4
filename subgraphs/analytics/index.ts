// Distributed mode: the analytics subgraph as its own HTTP service.
import { runSubgraphProcess } from '../process.ts';

await runSubgraphProcess('analytics');
