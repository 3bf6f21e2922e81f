/**
 * Stopping on a signal: one path closes everything, then exits with the code
 * the transport documents for that signal. A second signal while closing is
 * ignored; a close that hangs is cut short so a supervisor is never kept
 * waiting.
 */
const CLOSE_TIMEOUT_MS = 10_000;

export type ExitCodes = Record<'SIGINT' | 'SIGTERM', number>;

export function exitOnSignals(codes: ExitCodes, close: () => Promise<void> | void, warn: (message: string) => void): void {
  let stopping = false;
  for (const signal of Object.keys(codes) as (keyof ExitCodes)[]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      const code = codes[signal];
      setTimeout(() => process.exit(code), CLOSE_TIMEOUT_MS).unref();
      Promise.resolve()
        .then(close)
        .catch((err) => warn(`while stopping: ${(err as Error).message}`))
        .finally(() => process.exit(code));
    });
  }
}
