/**
 * The benchmark's peer: @graphql-hive/gateway 2.15.1 (installed apart, in bench/peer/node_modules)
 * serving the supergraph the bench composed for the running subgraph services, in one process
 * as our facade is, on PORT. Every subgraph request it sends is signed with the shared secret
 * (bench/peer-signing.ts). It carries no product features: no keys, limits, metering or field
 * withholding. Run by bench/graph-compare.ts: `node --import tsx bench/peer/gateway.ts`.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { PeerFetchInit } from '../peer-signing.ts';
import { peerSubgraphHeaders } from '../peer-signing.ts';

/** The little of the hive gateway's API used here; its own types live in bench/peer/node_modules. */
type OnFetch = (payload: { url: string; options: PeerFetchInit; setOptions: (options: PeerFetchInit) => void }) => void;
type HiveRuntime = ((req: IncomingMessage, res: ServerResponse) => void) & { dispose(): Promise<void> | void };
type HiveGateway = {
  createGatewayRuntime(config: {
    supergraph: string;
    logging: string;
    graphiql: boolean;
    landingPage: boolean;
    plugins: () => Array<{ onFetch: OnFetch }>;
  }): HiveRuntime;
};

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`bench/peer/gateway.ts needs ${name}`);
  return value;
};

const secret = env('LANDGRAPH_INTERNAL_SECRET');
const supergraph = readFileSync(env('PEER_SUPERGRAPH'), 'utf8');
const port = Number(env('PORT'));
// a variable specifier: the package is installed on demand, so the project's typecheck must not need it
const specifier = '@graphql-hive/gateway';
const hive = (await import(specifier)) as HiveGateway;

let calls = 0;
const gateway = hive.createGatewayRuntime({
  supergraph,
  logging: 'error',
  graphiql: false,
  landingPage: false,
  plugins: () => [
    {
      onFetch({ url, options, setOptions }) {
        calls += 1;
        setOptions({ ...options, headers: peerSubgraphHeaders(secret, url, options, `peer-${calls}`) });
      },
    },
  ],
});
const server = createServer(gateway);
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => process.stdout.write(`peer gateway listening on http://127.0.0.1:${port}\n`));
const stop = () => {
  server.close();
  void Promise.resolve(gateway.dispose()).finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
