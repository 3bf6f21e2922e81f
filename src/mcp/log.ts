/**
 * The tool-call log: one JSON object per line (`tool_call`, `tool_result`,
 * `tool_error`), appended to --log-file (the dashboard's usage view reads it back). Written synchronously so a line is
 * never lost when the process exits right after a call; a failing disk is
 * reported once on stderr and never fails the call. It never holds the token:
 * nothing here sees request headers.
 */
import fs from 'node:fs';

export interface ToolLog {
  call(tool: string, args: unknown): void;
  result(tool: string, fields: { returned: number; est_tokens: number; ms: number; reads_replaced_tokens?: number; status?: string }): void;
  error(tool: string, error: string, ms: number): void;
  close(): void;
}

const NO_LOG: ToolLog = { call() {}, result() {}, error() {}, close() {} };

export function openToolLog(file: string | undefined, warn: (message: string) => void): ToolLog {
  if (!file) return NO_LOG;
  let fd: number | null = fs.openSync(file, 'a');
  const write = (event: string, fields: Record<string, unknown>) => {
    if (fd === null) return;
    try {
      fs.writeSync(fd, JSON.stringify({ ts: new Date().toISOString(), event, ...fields }) + '\n');
    } catch (err) {
      warn(`cannot write the log file ${file}: ${(err as Error).message}; tool calls are no longer logged`);
      fd = null;
    }
  };
  return {
    call: (tool, args) => write('tool_call', { tool, args }),
    result: (tool, fields) => write('tool_result', { tool, ...fields }),
    error: (tool, error, ms) => write('tool_error', { tool, error, ms }),
    close: () => {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}
