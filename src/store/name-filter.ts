/**
 * A file's names, case kept, as a Bloom filter: every maximal run of
 * identifier characters (letters, digits, `_`, `$`) in its chunk texts. It
 * tells `locate` which files can hold a name exactly as written before their
 * texts are unpacked. The lexical index folds case, so `Documented` leads to
 * every file that says "documented" (sphinx: 145 files, 9 MB to unpack, 100 ms
 * of brotli) when 5 of them hold the name; the filter rules out the rest.
 *
 * Sized at 10 bits per distinct name with 7 probes: about 1 % false
 * positives, never a false negative.
 */

const BITS_PER_NAME = 10;
const PROBES = 7;
const MIN_BYTES = 8;

/** The Unicode version whose letters and digits `\p{L}` and `\p{N}` read here: filters built under another may differ. */
export const UNICODE_VERSION = process.versions.unicode ?? 'unknown';

/** An identifier character, as `locate`'s whole-word test reads one: `[\p{L}\p{N}_$]`. */
const WORD = /[\p{L}\p{N}_$]/u;
/** The same test for ASCII, by table: most of any source file. */
const ASCII_WORD = new Uint8Array(128).map((_, code) => (WORD.test(String.fromCharCode(code)) ? 1 : 0));

/** A name the filter can answer for: one run of identifier characters, nothing around it. */
export function isWholeName(name: string): boolean {
  return /^[\p{L}\p{N}_$]+$/u.test(name);
}

/** FNV-1a over UTF-16 code units, continued from `hash`. */
function fnv(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

const FNV_START = 0x811c9dc5;

/** Each distinct run's hash, computed as the texts are read: no run becomes a string. */
function nameHashes(texts: readonly string[]): Set<number> {
  const hashes = new Set<number>();
  for (const text of texts) {
    let hash = FNV_START;
    let inRun = false;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let units = 1;
      let word: boolean;
      if (unit < 128) {
        word = ASCII_WORD[unit] === 1;
      } else {
        const code = text.codePointAt(i)!;
        if (code > 0xffff) units = 2;
        word = WORD.test(String.fromCodePoint(code));
      }
      if (word) {
        for (let u = 0; u < units; u++) hash = fnv(hash, text.charCodeAt(i + u));
        inRun = true;
      } else if (inRun) {
        hashes.add(hash >>> 0);
        hash = FNV_START;
        inRun = false;
      }
      i += units - 1;
    }
    if (inRun) hashes.add(hash >>> 0);
  }
  return hashes;
}

function hashOf(name: string): number {
  let hash = FNV_START;
  for (let i = 0; i < name.length; i++) hash = fnv(hash, name.charCodeAt(i));
  return hash >>> 0;
}

/** The probe step: a second hash mixed from the first (double hashing), odd so it never stalls. */
function stepOf(hash: number): number {
  let h = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) | 1) >>> 0;
}

/** The filter of the names in `texts` (a file's chunk texts). */
export function nameFilter(texts: readonly string[]): Uint8Array {
  const hashes = nameHashes(texts);
  const filter = new Uint8Array(Math.max(MIN_BYTES, Math.ceil((hashes.size * BITS_PER_NAME) / 8)));
  const bits = filter.length * 8;
  for (const hash of hashes) {
    const step = stepOf(hash);
    for (let i = 0; i < PROBES; i++) {
      const bit = ((hash + Math.imul(i, step)) >>> 0) % bits;
      filter[bit >>> 3]! |= 1 << (bit & 7);
    }
  }
  return filter;
}

/** False only when no text the filter was built from holds `name` as a whole word, case and all. */
export function mayHoldName(filter: Uint8Array, name: string): boolean {
  const bits = filter.length * 8;
  const hash = hashOf(name);
  const step = stepOf(hash);
  for (let i = 0; i < PROBES; i++) {
    const bit = ((hash + Math.imul(i, step)) >>> 0) % bits;
    if ((filter[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
