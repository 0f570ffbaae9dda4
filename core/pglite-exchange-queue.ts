import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * The order in which PGlite's wire-protocol socket hands its clients' messages to the one
 * backend all of them share.
 *
 * pglite-socket 0.2.x queues every protocol message on its own, so one client's Parse can run
 * between another's Parse and Bind: the unnamed statement is replaced, and the Bind fails with
 * 08P01 ("bind message supplies 1 parameters, but prepared statement requires 2"). Its queue
 * also takes only the query lock, so the owning process's own queries and transactions (through
 * `PGlite.query` and `PGlite.transaction`, which take the transaction lock) can run between a
 * client's messages, or inside its open transaction.
 *
 * Here a client holds the backend for a whole exchange: from its first message until a Sync or
 * a simple Query leaves the backend outside a transaction. While it holds it, only its messages
 * run, and the owning process waits on PGlite's transaction lock like any other caller.
 */

/** The part of pglite-socket's queue its connection handlers call. */
interface SocketQueue {
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
  getQueueLength(): number;
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

interface Hold {
  handlerId: number;
  release: () => void;
}

// Message types after which the backend has answered ReadyForQuery: an exchange can end there.
const SYNC = 0x53; // 'S'
const SIMPLE_QUERY = 0x51; // 'Q'
// A startup packet begins with its length, whose first byte is 0 for any packet we accept.
const STARTUP = 0x00;
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);

function simpleQuery(sql: string): Uint8Array {
  const text = new TextEncoder().encode(`${sql}\0`);
  const message = new Uint8Array(5 + text.length);
  message[0] = SIMPLE_QUERY;
  new DataView(message.buffer).setInt32(1, 4 + text.length);
  message.set(text, 5);
  return message;
}

/** PGlite's locks, which its public API does not type: the transaction lock is the outer one. */
interface PGliteLocks {
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
}

export class ExchangeQueue implements SocketQueue {
  private queue: QueuedMessage[] = [];
  private hold: Hold | undefined;
  private processing = false;
  // Clients that disconnected; the drain ends an exchange one of them left open when it next looks.
  private readonly gone = new Set<number>();

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.drain();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.gone.add(handlerId);
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A client gone mid-exchange or mid-transaction: its exchange is ended for it, then the others run. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.gone.add(handlerId);
    // A drain under way sees `gone` once the message in hand is answered.
    await this.drain();
  }

  private next(): QueuedMessage | undefined {
    if (!this.hold) return this.queue.shift();
    const index = this.queue.findIndex((item) => item.handlerId === this.hold?.handlerId);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  /** Waits for the owning process's queries and transactions to finish, then keeps them out. */
  private async take(handlerId: number): Promise<Hold> {
    return new Promise<Hold>((taken, failed) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      (this.db as unknown as PGliteLocks)
        ._runExclusiveTransaction(async () => {
          taken({ handlerId, release });
          await released;
        })
        .catch(failed);
    });
  }

  /** Leaves the backend as a new client finds it: no half-sent exchange, no open transaction. */
  private async endHold(): Promise<void> {
    const hold = this.hold;
    if (!hold) return;
    await this.db
      .runExclusive(async () => {
        await this.db.execProtocolRaw(SYNC_MESSAGE, { syncToFs: false });
        if (this.db.isInTransaction()) await this.db.execProtocolRaw(simpleQuery('ROLLBACK'));
      })
      .catch(() => undefined);
    this.hold = undefined;
    hold.release();
  }

  private async run(item: QueuedMessage): Promise<void> {
    let bytes = 0;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(item.message, {
          onRawData: (data) => {
            bytes += data.length;
            item.onData(data);
          },
        }),
      );
      item.resolve(bytes);
    } catch (error) {
      item.reject(error);
    }
  }

  private async drain(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        if (this.hold && this.gone.has(this.hold.handlerId)) await this.endHold();
        const item = this.next();
        if (!item) break;
        if (this.gone.has(item.handlerId)) {
          item.reject(new Error('Handler disconnected'));
          continue;
        }
        if (!this.hold) {
          try {
            this.hold = await this.take(item.handlerId);
          } catch (error) {
            item.reject(error);
            continue;
          }
        }
        await this.run(item);
        const type = item.message[0];
        const exchangeEnded = type === SYNC || type === SIMPLE_QUERY || type === STARTUP;
        if (exchangeEnded && !this.db.isInTransaction() && this.hold.handlerId === item.handlerId) {
          const { release } = this.hold;
          this.hold = undefined;
          release();
        }
      }
      // Nothing of a gone client is queued or holds the backend any more.
      this.gone.clear();
    } finally {
      this.processing = false;
    }
  }
}

/**
 * Puts the exchange queue in place of the socket server's own. pglite-socket is pinned to the
 * version whose internals this reads; a version without them refuses to start rather than
 * serving clients whose statements may cross.
 */
export function serveWholeExchanges(server: PGLiteSocketServer, db: PGlite): void {
  const internals = server as unknown as { queryQueue?: unknown };
  if (typeof (internals.queryQueue as SocketQueue | undefined)?.enqueue !== 'function') {
    throw new Error(
      'pglite-socket no longer keeps a queryQueue: check core/pglite-exchange-queue.ts against its version',
    );
  }
  internals.queryQueue = new ExchangeQueue(db);
}
