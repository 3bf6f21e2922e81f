/**
 * Stopping: one path closes everything, then exits with the code the caller
 * gives (each transport documents its own per signal). Only the first stop
 * counts; a close that hangs is cut short so a supervisor is never kept
 * waiting.
 */
const CLOSE_TIMEOUT_MS = 10_000;

export type Stop = (code: number) => void;

export function stopper(close: () => Promise<void> | void, warn: (message: string) => void): Stop {
  let stopping = false;
  return (code) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(code), CLOSE_TIMEOUT_MS).unref();
    Promise.resolve()
      .then(close)
      .catch((err) => warn(`while stopping: ${(err as Error).message}`))
      .finally(() => process.exit(code));
  };
}

/** Stops on SIGINT and SIGTERM with the given exit codes. */
export function stopOnSignals(stop: Stop, codes: Record<'SIGINT' | 'SIGTERM', number>): void {
  process.on('SIGINT', () => stop(codes.SIGINT));
  process.on('SIGTERM', () => stop(codes.SIGTERM));
}
