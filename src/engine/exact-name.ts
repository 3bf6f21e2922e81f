/**
 * A question that is one identifier written as code (`hasInFlightRequest`,
 * `url_value_preprocessor`): the caller named one thing and cannot write it
 * any narrower. The gate counts the hits that hold the name itself (a hit
 * holding only its words, "in flight request", is not a match of it), and a
 * name some hit declares — a local `const`, a nested `def`, which the symbol
 * table leaves out — is answered however widely it is used, as a name with a
 * symbol-table definition is.
 */
import { identifierWords } from '../terms/index.js';

export interface ExactName {
  /** As written. */
  name: string;
  /** Its whole-identifier term, as the index holds it. */
  term: string;
}

/** The identifier a question is, when it is exactly one written as code (two or more words run together); else null. */
export function exactName(query: string): ExactName | null {
  const name = query.trim();
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) return null;
  const words = identifierWords(name.replaceAll('$', ''));
  return words.length > 1 ? { name, term: words.join('') } : null;
}

/** Declaration keywords of the indexed languages that a name follows. */
const KEYWORDS = 'const|let|var|val|def|function|func|fn|class|struct|interface|type|enum|trait|record';

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The last name's declaration pattern: a question tests it against many hits. */
let compiled: { name: string; re: RegExp } | null = null;

/** Whether `text` declares `name`: after a declaration keyword, or assigned at the start of a line (`name = …`, `name: T = …`). */
export function declares(text: string, name: string): boolean {
  if (compiled?.name !== name) compiled = { name, re: declaration(name) };
  return compiled.re.test(text);
}

function declaration(name: string): RegExp {
  const n = escapeRegex(name);
  const edge = '(?![\\p{L}\\p{N}_$])';
  return new RegExp(`(?:^|[^\\p{L}\\p{N}_$.])(?:${KEYWORDS})(?:\\s*\\*\\s*|\\s+)${n}${edge}|^[ \\t]*${n}[ \\t]*(?::[^=\\n]*)?=(?![=>])`, 'mu');
}
