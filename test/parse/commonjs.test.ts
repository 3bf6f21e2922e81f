/** CommonJS exports are definitions: `exports.x =`, `module.exports.x =`, `module.exports = f / class / { … }`. */
import { describe, expect, it } from 'vitest';
import { parseFile, type ParsedFile } from '../../src/parse/index.js';

const outline = (f: ParsedFile) => f.symbols.map((s) => `${s.qualified} ${s.kind} ${s.startLine}-${s.endLine}`);

const TEXT = `const helper = require('./helper');
exports.alpha = function alpha(x) {
  function inner() {}
  return inner(x);
};
exports.VERSION = '1.0';
module.exports.beta = (y) => y * 2;
exports.Gamma = class Gamma {
  run() { return 1; }
};
module.exports = {
  delta: function () { return 1; },
  epsilon() { return 2; },
  zeta: () => 3,
  LIMIT: 10,
  helper,
};
const obj = { notExported() {} };
obj.x = function () {};
export default { vueMethod() {} };
`;

describe('CommonJS exports', () => {
  it('each exported name is a symbol, with its kind, lines and nested definitions', async () => {
    const f = await parseFile('lib/cjs.js', TEXT);
    expect(outline(f)).toEqual([
      'alpha function 2-5',
      'alpha.inner function 3-3',
      'VERSION variable 6-6',
      'beta function 7-7',
      'Gamma class 8-10',
      'Gamma.run method 9-9',
      'exports module 11-17',
      'exports.delta function 12-12',
      'exports.epsilon function 13-13',
      'exports.zeta function 14-14',
      'exports.LIMIT variable 15-15',
      'obj constant 18-18',
    ]);
  });

  it('a whole-module export of a named function or class is that definition', async () => {
    const f = await parseFile('bin/main.js', 'module.exports = function main(argv) {\n  return argv;\n};\n');
    expect(outline(f)).toEqual(['main function 1-3']);
    const c = await parseFile('lib/store.js', 'module.exports = class Store {\n  get(k) { return k; }\n};\n');
    expect(c.symbols.map((s) => s.qualified)).toEqual(['Store', 'Store.get']);
  });

  it('stays out of function bodies and of assignments to other objects', async () => {
    const f = await parseFile('lib/local.js', 'function setup() {\n  exports.hidden = 1;\n}\nconst exportsLike = {};\nexportsLike.y = () => 1;\n');
    expect(f.symbols.map((s) => s.qualified)).toEqual(['setup', 'exportsLike']);
  });
});
