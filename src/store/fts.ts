/** FTS5 MATCH expressions are built here only, from literal phrases: caller text never reaches FTS5 as syntax. */

/** Characters FTS5 cannot take inside a quoted phrase (a NUL ends the string early); they separate words anyway. */
// eslint-disable-next-line no-control-regex
const UNQUOTABLE = /\u0000/g;

/** Phrases ORed, each quoted as a string literal (quotes doubled): `a' OR "b` is one phrase, never an operator. */
export function anyPhrase(phrases: readonly string[]): string {
  return phrases.map((p) => `"${p.replace(UNQUOTABLE, ' ').replace(/"/g, '""')}"`).join(' OR ');
}
