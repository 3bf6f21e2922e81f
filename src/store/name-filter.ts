/**
 * A file's cased names as a Bloom filter: every maximal run of identifier
 * characters (letters, digits, `_`, `$`) in its chunk texts that lower case
 * would change (`Documented`, `getUser`, `ACCESSOR`). It tells `locate` which
 * files can hold such a name exactly as written before their texts are
 * unpacked. The lexical index folds case, so `Documented` leads to every file
 * that says "documented" (sphinx: 145 files, 9 MB to unpack, 100 ms of
 * brotli) when 5 of them hold the name; the filter rules out the rest.
 * Names all in lower case are left out: where a name is written so, the
 * files its word leads to mostly hold it so too, and leaving them out keeps
 * the filters a third of the size (babel: 37 % of its names are cased).
 *
 * Sized at 10 bits per distinct cased name with 7 probes: about 1 % false
 * positives, never a false negative. A file with no cased name has an empty
 * filter.
 */

const BITS_PER_NAME = 10;
const PROBES = 7;

/** The Unicode version whose letters and digits `\p{L}` and `\p{N}` read here: filters built under another may differ. */
export const UNICODE_VERSION = process.versions.unicode ?? 'unknown';

/** An identifier character, as `locate`'s whole-word test reads one: `[\p{L}\p{N}_$]`. */
const WORD = /[\p{L}\p{N}_$]/u;
/** The same test for ASCII, by table: most of any source file. */
const ASCII_WORD = new Uint8Array(128).map((_, code) => (WORD.test(String.fromCharCode(code)) ? 1 : 0));

/** A name the filter can answer for: one run of identifier characters, nothing around it, that lower case would change. */
export function isCasedName(name: string): boolean {
  return /^[\p{L}\p{N}_$]+$/u.test(name) && name.toLowerCase() !== name;
}

/** FNV-1a over UTF-16 code units, continued from `hash`. */
function fnv(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

const FNV_START = 0x811c9dc5;

/** Each distinct cased run's hash, computed as the texts are read: no run becomes a string. */
function casedNameHashes(texts: readonly string[]): Set<number> {
  const hashes = new Set<number>();
  for (const text of texts) {
    let hash = FNV_START;
    let inRun = false;
    let cased = false;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let units = 1;
      let word: boolean;
      if (unit < 128) {
        word = ASCII_WORD[unit] === 1;
        cased ||= unit >= 0x41 && unit <= 0x5a;
      } else {
        const code = text.codePointAt(i)!;
        if (code > 0xffff) units = 2;
        const char = String.fromCodePoint(code);
        word = WORD.test(char);
        cased ||= word && char.toLowerCase() !== char;
      }
      if (word) {
        for (let u = 0; u < units; u++) hash = fnv(hash, text.charCodeAt(i + u));
        inRun = true;
      } else {
        if (inRun && cased) hashes.add(hash >>> 0);
        hash = FNV_START;
        inRun = cased = false;
      }
      i += units - 1;
    }
    if (inRun && cased) hashes.add(hash >>> 0);
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

/** The filter of the cased names in `texts` (a file's chunk texts). */
export function nameFilter(texts: readonly string[]): Uint8Array {
  const hashes = casedNameHashes(texts);
  const filter = new Uint8Array(Math.ceil((hashes.size * BITS_PER_NAME) / 8));
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

/** False only when no text the filter was built from holds `name`, a cased name (isCasedName), as a whole word, case and all. */
export function mayHoldName(filter: Uint8Array, name: string): boolean {
  const bits = filter.length * 8;
  if (bits === 0) return false;
  const hash = hashOf(name);
  const step = stepOf(hash);
  for (let i = 0; i < PROBES; i++) {
    const bit = ((hash + Math.imul(i, step)) >>> 0) % bits;
    if ((filter[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
