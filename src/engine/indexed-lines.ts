/** Lines of indexed files, read from their stored chunks (never from disk), one file load per request. */
import type { Store, StoredChunk } from '../store/index.js';
import { numberedLine } from './snippet.js';

export class LineReader {
  private readonly chunks = new Map<number, StoredChunk[]>();

  constructor(private readonly store: Store) {}

  /** The text of one line as indexed, or null if no chunk holds it. */
  line(fileId: number, lineNo: number): string | null {
    let list = this.chunks.get(fileId);
    if (!list) {
      list = this.store.chunks.ofFileId(fileId);
      this.chunks.set(fileId, list);
    }
    const chunk = list.find((c) => c.startLine <= lineNo && lineNo <= c.endLine);
    return chunk ? (chunk.text.split('\n')[lineNo - chunk.startLine] ?? null) : null;
  }

  /** "12: the line", trimmed; undefined when the line is not indexed. */
  numbered(fileId: number, lineNo: number): string | undefined {
    const text = this.line(fileId, lineNo);
    return text === null ? undefined : numberedLine(lineNo, text.trim());
  }
}
