/**
 * Where chunk text is kept: once per file, the file's chunk texts one after
 * another as one brotli stream (`file_texts`), each chunk row holding where
 * its text starts and how long it is (in UTF-16 code units of the unpacked
 * string). One stream per file compresses code 3–4×, a third better than one
 * per chunk, and a read unpacks each file once rather than each chunk.
 */
import zlib from 'node:zlib';
import type { Db } from './db.js';
import { slot, type Memo } from './memo.js';

export interface TextSpan {
  at: number;
  length: number;
}

const { BROTLI_PARAM_MODE, BROTLI_MODE_TEXT, BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
/** Quality 6 of 11: within 2 % of the best size here, at a tenth of its time. */
const QUALITY = 6;

/** One file's chunk texts packed together, and where each one lies in the unpacked string. */
export function packTexts(texts: readonly string[]): { packed: Buffer; spans: TextSpan[] } {
  const spans: TextSpan[] = [];
  let at = 0;
  for (const t of texts) {
    spans.push({ at, length: t.length });
    at += t.length;
  }
  const raw = Buffer.from(texts.join(''), 'utf8');
  const params = { [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT, [BROTLI_PARAM_QUALITY]: QUALITY, [BROTLI_PARAM_SIZE_HINT]: raw.length };
  return { packed: zlib.brotliCompressSync(raw, { params }), spans };
}

export function unpackTexts(packed: Uint8Array): string {
  return zlib.brotliDecompressSync(packed).toString('utf8');
}

/**
 * Unpacked texts of one index version, the least recently read evicted first
 * once they hold more than `budget` UTF-16 code units. A question reads the
 * chunks of a hundred files or so, and the next question mostly the same
 * files: unpacking and decoding whole files anew each time was most of a
 * gated search's cost.
 */
class UnpackedTexts {
  private readonly texts = new Map<number, string>();
  private held = 0;

  constructor(private readonly budget: number) {}

  get(fileId: number): string | undefined {
    const text = this.texts.get(fileId);
    if (text !== undefined) {
      this.texts.delete(fileId); // refresh recency
      this.texts.set(fileId, text);
    }
    return text;
  }

  keep(fileId: number, text: string): string {
    if (text.length > this.budget || this.texts.has(fileId)) return text;
    this.texts.set(fileId, text);
    this.held += text.length;
    for (const [id, old] of this.texts) {
      if (this.held <= this.budget) break;
      this.texts.delete(id);
      this.held -= old.length;
    }
    return text;
  }
}

const UNPACKED = slot<UnpackedTexts>('unpacked file texts');
/** Code units of unpacked text kept per connection (~16 MiB of one-byte strings): a mid-sized tree's whole source. */
export const UNPACKED_TEXT_BUDGET = 16 << 20;

/** Reads files' packed texts; with a memo, what it unpacks is kept for the index version at hand. */
export class FileTexts {
  private readonly read;

  constructor(
    db: Db,
    private readonly kept?: { memo: Memo; version: () => string; budget?: number },
  ) {
    this.read = db.prepare('SELECT packed FROM file_texts WHERE file_id = ?').pluck();
  }

  packed(fileId: number): Buffer | undefined {
    return this.read.get(fileId) as Buffer | undefined;
  }

  /** The file's chunk texts unpacked ('' for a file without chunks). */
  textOf(fileId: number): string {
    return this.lookup()(fileId)();
  }

  /**
   * For many reads of the index version at hand (asked for once): each
   * file's text as a function that unpacks it on first call. Its packed
   * bytes are read now, so the text is this version's whenever it is
   * unpacked; rankers read many chunk rows and show the text of few.
   */
  lookup(): (fileId: number) => () => string {
    const texts = this.kept && this.kept.memo.derived(UNPACKED, this.kept.version(), () => new UnpackedTexts(this.kept!.budget ?? UNPACKED_TEXT_BUDGET));
    const files = new Map<number, () => string>();
    return (fileId) => {
      let text = files.get(fileId);
      if (!text) {
        const held = texts?.get(fileId);
        const packed = held === undefined ? this.packed(fileId) : undefined;
        let unpacked = held;
        text = () => (unpacked ??= packed ? (texts ? texts.keep(fileId, unpackTexts(packed)) : unpackTexts(packed)) : '');
        files.set(fileId, text);
      }
      return text;
    };
  }

  /** The file's chunk texts unpacked and not kept: for a scan over every file, which would only churn what is kept. */
  readOnce(fileId: number): string {
    const packed = this.packed(fileId);
    return packed ? unpackTexts(packed) : '';
  }
}

export function sliceSpan(text: string, span: TextSpan): string {
  return text.slice(span.at, span.at + span.length);
}
