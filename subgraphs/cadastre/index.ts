// Distributed mode: the cadastre subgraph as its own HTTP service.
import { runSubgraphProcess } from '../process.ts';

await runSubgraphProcess('cadastre');
