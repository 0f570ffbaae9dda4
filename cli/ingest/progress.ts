/**
 * Progress of a long load on stderr: rows done and the rate, with the share of the file read
 * when its size is known. On a terminal one line is redrawn in place a few times a second; in a
 * log (CI, a pipe, a file) a plain line is written every `everyMs` and once at the end, so the
 * log stays short however long the load runs.
 */

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface ProgressOptions {
  /** Milliseconds between plain lines when the stream is not a terminal. */
  everyMs?: number;
  now?: () => number;
}

export interface TaskProgress {
  /** `rows` done so far; `fraction` of the input read, when known. */
  update(rows: number, fraction?: number): void;
  /** The final line for the task. */
  done(rows: number, note?: string): void;
}

const REDRAW_MS = 200;
const integer = (n: number) => Math.round(n).toLocaleString('en-AU');

export function rate(rows: number, ms: number): string {
  return `${integer(ms > 0 ? (rows * 1000) / ms : 0)} rows/s`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export class Progress {
  private readonly tty: boolean;
  private readonly everyMs: number;
  private readonly now: () => number;

  constructor(
    private readonly stream: ProgressStream,
    options: ProgressOptions = {},
  ) {
    this.tty = stream.isTTY === true;
    this.everyMs = options.everyMs ?? 10_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** A task named `label` (a file); its lines start with the label. */
  task(label: string): TaskProgress {
    const started = this.now();
    let last = started;
    const line = (rows: number, fraction?: number) => {
      const ms = this.now() - started;
      const share = fraction === undefined ? '' : `  ${String(Math.min(100, Math.floor(fraction * 100))).padStart(3)}%`;
      return `${label}  ${integer(rows)} rows  ${rate(rows, ms)}${share}  ${seconds(ms)}`;
    };
    return {
      update: (rows, fraction) => {
        const at = this.now();
        if (at - last < (this.tty ? REDRAW_MS : this.everyMs)) return;
        last = at;
        this.stream.write(this.tty ? `\r\x1b[K${line(rows, fraction)}` : `${line(rows, fraction)}\n`);
      },
      done: (rows, note) => {
        const text = `${line(rows)}${note ? `  ${note}` : ''}`;
        this.stream.write(this.tty ? `\r\x1b[K${text}\n` : `${text}\n`);
      },
    };
  }

  /** A line of its own (a step that reports no rows as it goes). */
  note(text: string): void {
    this.stream.write(this.tty ? `\r\x1b[K${text}\n` : `${text}\n`);
  }
}
