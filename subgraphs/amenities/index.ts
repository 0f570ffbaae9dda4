// Distributed mode: the amenities subgraph as its own HTTP service.
import { runSubgraphProcess } from '../process.ts';

await runSubgraphProcess('amenities');
