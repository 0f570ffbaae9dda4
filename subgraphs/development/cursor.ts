import { createHash } from 'node:crypto';
import { badRequest } from '../../core/errors.ts';
import type { FeedFilter } from './sql.ts';

/**
 * The feed's cursor: the place of the last row of a page in the feed's order (when our copy
 * changed, to the microsecond, and the row's id) and a digest of the query it belongs to, as
 * base64url JSON. Opaque to callers: its form may change without notice.
 */
type CursorBody = { v: 1; at: string; id: string; q: string };

/** The largest id a bigint holds: a forged larger one must be refused here, not by the database. */
const MAX_ID = 9_223_372_036_854_775_807n;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The query a cursor is bound to: a cursor of one LGA's feed does not page another's. */
export function queryDigest(filter: Pick<FeedFilter, 'lgaCode' | 'bbox' | 'since'>): string {
  const canonical = JSON.stringify([filter.lgaCode, filter.bbox, filter.since]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function encodeCursor(at: string, id: string, digest: string): string {
  const body: CursorBody = { v: 1, at, id, q: digest };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const refuse = () =>
  badRequest(
    'cursor is not a cursor this feed issued.',
    'Pass next_cursor from the previous page unchanged, with the same lga_code or bbox and updated_since.',
  );

export function decodeCursor(cursor: string, digest: string): { at: string; id: string } {
  let body: Partial<CursorBody>;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
  } catch {
    throw refuse();
  }
  if (
    body?.v !== 1 ||
    typeof body.at !== 'string' ||
    !INSTANT.test(body.at) ||
    typeof body.id !== 'string' ||
    !/^\d{1,19}$/.test(body.id) ||
    BigInt(body.id) > MAX_ID ||
    !Number.isFinite(Date.parse(body.at)) ||
    new Date(Date.parse(body.at)).toISOString().slice(0, 19) !== body.at.slice(0, 19)
  ) {
    throw refuse();
  }
  if (body.q !== digest) {
    throw badRequest(
      'cursor belongs to a feed query with other filters.',
      'Page with the lga_code or bbox and updated_since the cursor was issued for, or start again without a cursor.',
    );
  }
  return { at: body.at, id: body.id };
}
