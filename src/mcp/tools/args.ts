/**
 * The schema of the `repo` argument workspace mode adds to every tool (every
 * tool's own arguments are declared in src/spec), and the refusal of
 * arguments a tool does not take.
 */
export { text } from '../../spec/index.js';

/** Edits (insert, delete, substitute, swap two neighbours) between two names. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + same);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name a misspelling most likely meant (case, `_` and `-` aside), if any is close. */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const scored = known.map((k) => ({ k, d: editDistance(plain(name), plain(k)) })).sort((a, b) => a.d - b.d);
  const best = scored[0];
  return best && best.d <= Math.max(1, Math.floor(name.length / 3)) ? best.k : undefined;
}

/** The refusal of arguments a tool does not take: each one, a likely meaning, and what it does take. */
export function unknownArguments(tool: string, names: readonly string[], known: readonly string[]): string {
  const each = names.map((n) => {
    const meant = didYouMean(n, known);
    return meant ? `"${n}" (did you mean "${meant}"?)` : `"${n}"`;
  });
  const takes = known.length ? `it takes ${known.join(', ')}` : 'it takes no arguments';
  return `${tool} has no argument ${each.join(', ')}; ${takes}`;
}
