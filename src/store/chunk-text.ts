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
import { isCasedName, mayHoldName, nameFilter, UNICODE_VERSION } from './name-filter.js';
import { NAMES_UNICODE } from './schema.js';

export interface TextSpan {
  at: number;
  length: number;
}

const { BROTLI_PARAM_MODE, BROTLI_MODE_TEXT, BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT } = zlib.constants;
/**
 * Quality 5 of 11 (every pass packs every file it writes): on sphinx's
 * sources 4.36× smaller in 204 ms, where 6 is 4.38× in 315 ms and 4 is 4.05×.
 */
const QUALITY = 5;

/** One file's chunk texts packed together, where each one lies in the unpacked string, and the names they hold (name-filter.ts). */
export interface PackedTexts {
  packed: Uint8Array;
  spans: TextSpan[];
  names: Uint8Array;
}

/** Packs a file's chunk texts; run where the file is prepared (an index worker), not on the thread that writes. */
export function packTexts(texts: readonly string[]): PackedTexts {
  const spans: TextSpan[] = [];
  let at = 0;
  for (const t of texts) {
    spans.push({ at, length: t.length });
    at += t.length;
  }
  const raw = Buffer.from(texts.join(''), 'utf8');
  const params = { [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT, [BROTLI_PARAM_QUALITY]: QUALITY, [BROTLI_PARAM_SIZE_HINT]: raw.length };
  return { packed: zlib.brotliCompressSync(raw, { params }), spans, names: nameFilter(texts) };
}

export function unpackTexts(packed: Uint8Array): string {
  return zlib.brotliDecompressSync(packed).toString('utf8');
}

/** A file's packed chunk texts as read, and unpacked once something asked for them. */
interface FileText {
  fileId: number;
  packed: Buffer | undefined;
  text?: string;
  /** False once the index moved on: the file's packed bytes are read again and compared before the text is trusted. */
  current: boolean;
}

/**
 * Files' texts, packed and (once read) unpacked, the
 * least recently used evicted first once they hold more than `budget` bytes
 * and UTF-16 code units together. A question reads the chunk rows of a
 * hundred files or so and the text of a few dozen; the next question mostly
 * the same files: reading and unpacking them anew each time was most of a
 * gated search's cost.
 */
class KeptTexts {
  private readonly files = new Map<number, FileText>();
  private held = 0;

  constructor(private budget: number) {}

  get(fileId: number, read: () => Buffer | undefined): FileText {
    const file = this.files.get(fileId);
    if (!file) return this.add(fileId, read());
    if (!file.current) {
      // Kept from an earlier index version: still this file's text if its packed bytes are the same.
      const packed = read();
      if (packed !== file.packed && !(packed && file.packed?.equals(packed))) {
        this.drop(file);
        return this.add(fileId, packed);
      }
      file.current = true;
    }
    this.files.delete(fileId); // refresh recency
    this.files.set(fileId, file);
    return file;
  }

  private add(fileId: number, packed: Buffer | undefined): FileText {
    const file = { fileId, packed, current: true };
    this.files.set(fileId, file);
    this.grew(packed?.length ?? 0);
    return file;
  }

  /**
   * These texts, for the next index version: each is checked against its file's packed bytes
   * when first asked for, and kept when they are unchanged. An edit under `watch` leaves most
   * files as they were, and unpacking them all again made the next question ~100 ms slower.
   */
  renewed(budget: number): KeptTexts {
    for (const file of this.files.values()) file.current = false;
    this.budget = budget;
    this.grew(0);
    return this;
  }

  private drop(file: FileText): void {
    this.files.delete(file.fileId);
    this.held -= (file.packed?.length ?? 0) + (file.text?.length ?? 0);
  }

  /** `file`'s text, unpacked on the first call. */
  text(file: FileText): string {
    if (file.text === undefined) {
      file.text = file.packed ? unpackTexts(file.packed) : '';
      if (this.files.get(file.fileId) === file) this.grew(file.text.length); // not if evicted meanwhile
    }
    return file.text;
  }

  private grew(size: number): void {
    this.held += size;
    for (const old of this.files.values()) {
      if (this.held <= this.budget || this.files.size === 1) break;
      this.drop(old);
    }
  }
}

const KEPT = slot<KeptTexts>('file texts');
const NAMES_TRUSTED = slot<boolean>('names filters trusted');
/** Bytes and code units of file text kept per connection unless told otherwise (~16 MiB): a mid-sized tree's whole source. */
const KEPT_TEXT_BUDGET = 16 << 20;

/** Reads files' packed texts; with a memo, what it reads and unpacks is kept, and checked again once the index moved on. */
export class FileTexts {
  private readonly read;
  private readonly readNames;
  private readonly readNamesUnicode;

  constructor(
    db: Db,
    private readonly kept?: { memo: Memo; version: () => string; budget?: number },
  ) {
    this.read = db.prepare('SELECT packed FROM file_texts WHERE file_id = ?').pluck();
    // One prepared statement for any number of files (json_each), as ChunkTable.byIds reads rows.
    this.readNames = db.prepare('SELECT file_id, names FROM file_texts WHERE file_id IN (SELECT value FROM json_each(?))').raw();
    this.readNamesUnicode = db.prepare(`SELECT value FROM meta WHERE key = '${NAMES_UNICODE}'`).pluck();
  }

  /**
   * The files among `fileIds` whose chunk texts may hold `name` as a whole word, case and all: told
   * by their names filters, without unpacking them. For a name that is not one cased run of identifier
   * characters, or filters built under another Unicode version than this process's (until the next
   * pass builds them again), that is every file given. Else a file without chunk texts holds nothing,
   * and one written before the filter existed may hold anything.
   */
  filesMayHoldName(fileIds: Iterable<number>, name: string): Set<number> {
    if (!isCasedName(name) || !this.namesTrusted()) return new Set(fileIds);
    const may = new Set<number>();
    for (const [fileId, names] of this.readNames.all(JSON.stringify([...fileIds])) as [number, Buffer | null][]) {
      if (names === null || mayHoldName(names, name)) may.add(fileId);
    }
    return may;
  }

  /** Whether the names filters were built under this process's Unicode version: asked once per index version. */
  private namesTrusted(): boolean {
    const trusted = () => this.readNamesUnicode.get() === UNICODE_VERSION;
    return this.kept ? this.kept.memo.derived(NAMES_TRUSTED, this.kept.version(), trusted) : trusted();
  }

  /** What is kept from the next index version on, in bytes and code units (config/memory.ts). */
  keepWithin(units: number): void {
    if (this.kept) this.kept.budget = units;
  }

  packed(fileId: number): Buffer | undefined {
    return this.read.get(fileId) as Buffer | undefined;
  }

  /**
   * For many reads of the index version at hand (asked for once): each
   * file's chunk texts as a function that unpacks them on first call ('' for
   * a file without chunks). Its packed
   * bytes are read now, so the text is this version's whenever it is
   * unpacked; rankers read many chunk rows and show the text of few.
   */
  lookup(): (fileId: number) => () => string {
    if (!this.kept) {
      return (fileId) => {
        const packed = this.packed(fileId);
        let text: string | undefined;
        return () => (text ??= packed ? unpackTexts(packed) : '');
      };
    }
    const { memo, version, budget = KEPT_TEXT_BUDGET } = this.kept;
    const kept = memo.derived(KEPT, version(), () => memo.peek(KEPT)?.renewed(budget) ?? new KeptTexts(budget));
    return (fileId) => {
      const file = kept.get(fileId, () => this.packed(fileId));
      return () => kept.text(file);
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
