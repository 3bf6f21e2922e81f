/**
 * Stopping: one path closes everything, then exits with the code the caller
 * gives (each transport documents its own per signal). Only the first stop
 * counts; a close that hangs is cut short so a supervisor is never kept
 * waiting.
 */
const CLOSE_TIMEOUT_MS = 10_000;
/** How long a stop waits for the calls in flight to answer. */
const DRAIN_MS = 5_000;

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

/** Resolves once the calls in flight have answered (or DRAIN_MS passed), and their answers were handed to the transport. */
export async function drained(runtime: { idle(): Promise<void> }): Promise<void> {
  await Promise.race([runtime.idle(), new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
  await new Promise((resolve) => setImmediate(resolve)); // the last answers reach their streams
}
