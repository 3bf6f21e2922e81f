/** Lines of indexed files, read from their stored chunks (never from disk), for the index version at hand. */
import type { Store } from '../store/index.js';
import { numberedLine } from './snippet.js';

export class LineReader {
  private readonly read: (fileId: number, lineNo: number) => string | null;

  constructor(store: Store) {
    this.read = store.chunks.lineReader();
  }

  /** The text of one line as indexed, or null if no chunk holds it. */
  line(fileId: number, lineNo: number): string | null {
    return this.read(fileId, lineNo);
  }

  /** "12: the line", trimmed; undefined when the line is not indexed. */
  numbered(fileId: number, lineNo: number): string | undefined {
    const text = this.line(fileId, lineNo);
    return text === null ? undefined : numberedLine(lineNo, text.trim());
  }
}
