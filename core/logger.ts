type Level = 'silent' | 'error' | 'warn' | 'info' | 'debug';
const order: Record<Level, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

let threshold: Level = (process.env.LANDGRAPH_LOG_LEVEL as Level | undefined) ?? 'info';
if (!(threshold in order)) threshold = 'info';

export function setLogLevel(level: Level): void {
  threshold = level;
}

function write(level: Exclude<Level, 'silent'>, message: string, fields?: Record<string, unknown>): void {
  if (order[level] > order[threshold]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  process.stderr.write(`${line}\n`);
}

/** Structured log lines on stderr, so stdout stays clean for CLI output such as JSON. */
export const logger = {
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
};
