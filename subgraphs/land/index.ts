// Distributed mode: the land subgraph as its own HTTP service.
import { runSubgraphProcess } from '../process.ts';

await runSubgraphProcess('land');
