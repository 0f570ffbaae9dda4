// Distributed mode: the development subgraph as its own HTTP service.
import { runSubgraphProcess } from '../process.ts';

await runSubgraphProcess('development');
