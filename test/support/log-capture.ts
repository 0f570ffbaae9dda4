import { setLogLevel } from '../../core/logger.ts';

export type LogLine = { level: string; message: string } & Record<string, unknown>;

/**
 * Collects the service's structured log lines (JSON on stderr) while a test runs, so the test
 * can assert what was logged; `restore` puts stderr and the log level back.
 */
export function captureLog(level: Parameters<typeof setLogLevel>[0] = 'info'): {
  lines: LogLine[];
  restore(): void;
} {
  const lines: LogLine[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(line) as LogLine);
        continue;
      } catch {
        // not one of ours: passed through below
      }
    }
    return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
  };
  setLogLevel(level);
  return {
    lines,
    restore() {
      process.stderr.write = original;
      setLogLevel('warn');
    },
  };
}
