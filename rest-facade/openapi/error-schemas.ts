import type { SchemaObject } from './types.ts';

const nullableString: SchemaObject = { type: ['string', 'null'] };

const retryable: SchemaObject = {
  const: true,
  description: 'Present on a 502 or 503 only: the failure may pass by itself; retry after Retry-After seconds.',
};

/** Error bodies, one per error style of rest-facade/errors.ts, and the 401 body of DESIGN.md §4. */
export const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  EnvelopeError: {
    type: 'object',
    description: 'The cadastre envelope (spec 2.4, 7) of a failed request.',
    properties: {
      success: { const: false },
      source: { type: 'null' },
      data: { type: 'null' },
      error: { type: 'string', description: 'What went wrong.' },
      hint: { ...nullableString, description: 'What to do about it.' },
      retryable,
    },
    required: ['success', 'source', 'data', 'error', 'hint'],
  },
  FeatureCollectionError: {
    type: 'object',
    description: 'An empty FeatureCollection (spec 2.5) carrying the error.',
    properties: {
      type: { const: 'FeatureCollection' },
      features: { type: 'array', maxItems: 0 },
      source: { type: 'null' },
      hint: { ...nullableString, description: 'What to do about it.' },
      success: { const: false },
      error: { type: 'string', description: 'What went wrong.' },
      attribution: { type: 'null', description: 'No data, so no credit.' },
      license: { type: 'null', description: 'No data, so no licence.' },
      retryable,
    },
    required: ['type', 'features', 'source', 'hint', 'success', 'error', 'attribution', 'license'],
  },
  PlainError: {
    type: 'object',
    properties: {
      success: { const: false },
      error: { type: 'string', description: 'What went wrong.' },
      hint: { type: 'string', description: 'What to do about it; absent when there is nothing to add.' },
      retryable,
    },
    required: ['success', 'error'],
  },
  Unauthorized: {
    type: 'object',
    properties: {
      success: { const: false },
      error: { enum: ['Missing API key', 'Invalid API key'] },
      hint: { type: 'string', description: 'What to do about it.' },
    },
    required: ['success', 'error'],
  },
};
