export class DeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

/**
 * Settles with `work`, or rejects once `ms` have passed. The work itself is not cancelled; its
 * late result or error is dropped (Promise.race keeps listening, so nothing goes unhandled).
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
