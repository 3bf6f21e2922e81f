/**
 * Resolution work must grow with the repository, not with the number of paths through it. A Rust
 * crate whose modules glob re-export each other in layers (ripgrep's shape, exaggerated) used to
 * walk every path for every unresolved bare name (depth-capped at 4 hops). Counted, not timed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GraphView } from '../../src/graph/view.js';
import { edge, indexFixture, type Indexed } from './helpers.js';

const WIDTH = 4;
const LEVELS = 5;
const CALLS = 12;

function layeredCrate(): Record<string, string> {
  const files: Record<string, string> = { 'Cargo.toml': '[package]\nname = "layers"\nversion = "0.1.0"\n' };
  const mods: string[] = [];
  for (let level = 0; level < LEVELS; level++) {
    for (let j = 0; j < WIDTH; j++) {
      const name = `m${level}_${j}`;
      mods.push(`mod ${name};`);
      const globs = level + 1 < LEVELS ? Array.from({ length: WIDTH }, (_, k) => `pub use crate::m${level + 1}_${k}::*;`) : [];
      files[`src/${name}.rs`] = [...globs, `pub fn defined_${level}_${j}() {}`, ''].join('\n');
    }
  }
  const calls = Array.from({ length: CALLS }, (_, i) => `    external_${i}();`);
  files['src/lib.rs'] = [
    ...mods,
    ...Array.from({ length: WIDTH }, (_, k) => `use crate::m0_${k}::*;`),
    '',
    'pub fn run() {',
    ...calls,
    `    defined_${LEVELS - 1}_0();`,
    '}',
    '',
  ].join('\n');
  return files;
}

describe('resolution on layered glob re-exports', () => {
  let fx: Indexed;
  let reads: number;
  beforeAll(async () => {
    const spy = vi.spyOn(GraphView.prototype, 'fileEdges');
    fx = await indexFixture(layeredCrate());
    reads = spy.mock.calls.length;
    spy.mockRestore();
  });
  afterAll(() => fx.close());

  it('reads each file’s edges a bounded number of times per name, not once per path', () => {
    // Memoised: about WIDTH × LEVELS files per name (297 here); walking every path read 4,509.
    expect(reads).toBeLessThan(CALLS * WIDTH * LEVELS * 4);
  });

  it('still finds a definition at the bottom of the layers, and leaves unknown names unresolved', () => {
    expect(edge(fx.store, 'src/lib.rs', 'call', `defined_${LEVELS - 1}_0`, null).targets).toEqual([`src/m${LEVELS - 1}_0.rs:defined_${LEVELS - 1}_0/import`]);
    expect(edge(fx.store, 'src/lib.rs', 'call', 'external_0', null).status).toBe('unresolved');
  });
});
