import { COST_UNITS_PER_TOKEN, OPERATION_LIMITS } from '../../core/operation-limits.ts';

const { depth, aliases, rootFields, fields, cost } = OPERATION_LIMITS;

/** The /graphql rules for the document's description, written from the constants the gate enforces. */
export const GRAPHQL_DOCS = `**GraphQL.** \`/graphql\` serves the composed graph with the same keys, scopes and rate limits. Only a
browser's plain GET of the page (no operation, HTML preferred) is keyless: it opens Apollo Sandbox, where
introspection is open to keyed callers. Automatic persisted queries are off: send the whole operation
(a hash-only request is a 400 \`PERSISTED_QUERY_NOT_SUPPORTED\`). Before anything runs, an operation is
measured and refused with a 400 naming the limit when it passes one: depth ${depth} (introspection aside),
${aliases} aliases, ${rootFields} root fields, ${fields} selected fields (fragments counted where spread), cost ${cost}.
Its cost: 1 per root field (each alias counts) and, for each \`Property\` selected, 1 per layer selected
(an object field such as \`planning\` or \`terrain\`) and 1 per further subgraph its fields come from;
scalar fields are free, so \`propertyAt { cadastre { status } planning { status } }\` costs 4. An operation
takes ceil(cost / ${COST_UNITS_PER_TOKEN}) tokens of the key's bucket (at least 1, at most the whole bucket), reported in
\`X-Query-Cost\` (units) and \`X-Query-Tokens\` (tokens taken).`;
