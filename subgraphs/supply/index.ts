// Distributed mode: the supply subgraph as its own HTTP service.
import { runSubgraphProcess } from '../process.ts';

await runSubgraphProcess('supply');
