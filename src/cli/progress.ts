/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal;
 * silent otherwise so logs and pipes stay clean.
 */
import type { IndexProgress } from '../engine/index.js';

const WIDTH = 28;

export function progressBar(stream: NodeJS.WriteStream = process.stderr): { update: (p: IndexProgress) => void; done: () => void } {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  let drawn = false;
  const update = (p: IndexProgress) => {
    const now = Date.now();
    if (now - last < 80 && p.phase !== 'done') return;
    last = now;
    const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
    const filled = Math.round(ratio * WIDTH);
    const bar = '█'.repeat(filled) + '░'.repeat(WIDTH - filled);
    const count = p.total > 0 ? ` ${p.done}/${p.total} files` : '';
    stream.write(`\r\x1b[2Kindexing ${bar} ${p.phase}${count}`);
    drawn = true;
  };
  const done = () => {
    if (drawn) stream.write('\r\x1b[2K');
  };
  return { update, done };
}
