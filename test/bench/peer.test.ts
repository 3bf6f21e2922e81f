import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { definedNames, editFile, identifierWords, pickQueries, prepareTree, spread } from '../../bench/peer-tree.js';
import { exactPattern, peerProjectName, peerSearchAnswer, runTimed, sightlineAnswer, statusKiB } from '../../bench/peer-systems.js';
import { removeDir, tempDir } from '../helpers/fixture.js';

describe('bench:peer tree helpers', () => {
  it('finds the names Python and TypeScript define, not the ones they call', () => {
    const py = 'class AppContext:\n    def push(self):\n        helper()\nasync def run_command():\n    pass\n';
    const ts = 'export class Client {}\nexport async function connectStdio() {}\ninterface Options {}\nexport type Handler = () => void;\nconst limit = 3;\ncall(other);\n';
    expect(definedNames(py)).toEqual(['AppContext', 'push', 'run_command']);
    expect(definedNames(ts)).toEqual(['Client', 'connectStdio', 'Options', 'Handler', 'limit']);
  });

  it('splits camelCase, PascalCase with acronyms and snake_case into words', () => {
    expect(identifierWords('parseConfigFile')).toEqual(['parse', 'config', 'file']);
    expect(identifierWords('HTTPRequestHeaders')).toEqual(['http', 'request', 'headers']);
    expect(identifierWords('dump_session_contents')).toEqual(['dump', 'session', 'contents']);
  });

  it('spreads a pick over the whole list', () => {
    expect(spread([1, 2, 3, 4, 5, 6, 7, 8], 4)).toEqual([1, 3, 5, 7]);
    expect(spread([1, 2], 4)).toEqual([1, 2]);
  });

  it('picks distinct identifiers of six or more characters, and fills word queries with the most frequent identifier words', () => {
    const defs = ['session_open', 'session_close', 'SessionStore', 'push', '_private_thing', 'session_open', 'render_template'];
    const q = pickQueries(defs, 12);
    expect(q.identifiers).toEqual(['SessionStore', 'render_template', 'session_close', 'session_open']);
    expect(q.words).toHaveLength(12);
    expect(q.words.slice(0, 10)).toContain('parse config file');
    expect(q.words.slice(10)).toEqual(['session', 'close']);
    // Every identifier is measured here, so the warm-up falls back to a name of its own.
    expect(q.warmup).toBe('main');
    const few = pickQueries(defs, 2);
    expect(few.identifiers).toEqual(['SessionStore', 'session_close']);
    expect(few.warmup).toBe('render_template'); // defined and never measured
    // beta_one comes first but shares "one" with a measured identifier: warming it would warm that word.
    const shared = pickQueries(['alpha_one', 'beta_one', 'gamma_one', 'zeta_three'], 2);
    expect(shared.identifiers).toEqual(['alpha_one', 'gamma_one']);
    expect(shared.warmup).toBe('zeta_three');
  });

  it('copies the tree once per system, leaves the original alone, and edits and restores the median-sized source file', () => {
    const dir = tempDir();
    try {
      const original = path.join(dir, 'tree');
      fs.mkdirSync(path.join(original, 'node_modules', 'dep'), { recursive: true });
      fs.writeFileSync(path.join(original, 'node_modules', 'dep', 'index.js'), 'function skipped() {}\n');
      fs.writeFileSync(path.join(original, 'a.py'), 'def tiny(): pass\n');
      fs.writeFileSync(path.join(original, 'b.py'), 'def middle_sized():\n    return 1\n');
      fs.writeFileSync(path.join(original, 'c.ts'), 'export function largestOfAll() {\n  return [1, 2, 3].map((x) => x * 2);\n}\n');
      const tree = prepareTree(original, path.join(dir, 'work'), ['sightline', 'peer']);
      expect(Object.keys(tree.copies)).toEqual(['sightline', 'peer']);
      expect(tree.files).toBe(3);
      expect(tree.victim).toBe('b.py');
      expect(tree.queries.identifiers).toEqual(['largestOfAll', 'middle_sized']);
      expect(fs.existsSync(path.join(tree.copies.peer!, 'node_modules'))).toBe(false);

      const victim = path.join(tree.copies.peer!, tree.victim);
      const before = editFile(victim, 1);
      expect(fs.readFileSync(victim, 'utf8')).toMatch(/\n# bench:peer edit 1\n$/);
      expect(fs.readFileSync(path.join(original, 'b.py'), 'utf8')).toBe(before.toString());
    } finally {
      removeDir(dir);
    }
  });

  it('refuses a tree that is not a directory', () => {
    expect(() => prepareTree('/nonexistent/tree', '/tmp', ['sightline'])).toThrow(/not a directory/);
  });
});

describe('bench:peer system helpers', () => {
  it('reads a /proc status field in KiB, and 0 for a field a zombie lacks', () => {
    const status = 'Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  171234 kB\n';
    expect(statusKiB(status, 'VmRSS')).toBe(171234);
    expect(statusKiB(status, 'VmHWM')).toBe(204800);
    expect(statusKiB('Name:\tzombie\nState:\tZ\n', 'VmRSS')).toBe(0);
  });

  it("samples the RSS of the marked processes a command starts, and refuses a failed command with its stderr", async () => {
    const marker = `PEER_BENCH_TEST=${process.pid}`;
    const env = { PATH: process.env.PATH ?? '', PEER_BENCH_TEST: String(process.pid) };
    const grow = 'const b = Buffer.alloc(64 * 1024 * 1024, 1); setTimeout(() => console.log(b[0]), 1500);';
    const run = await runTimed({ cmd: process.execPath, args: ['-e', grow] }, env, marker);
    expect(run.stdout.trim()).toBe('1');
    expect(run.peakMiB).toBeGreaterThan(64);
    const unmarked = await runTimed({ cmd: process.execPath, args: ['-e', grow] }, env, 'PEER_BENCH_TEST=someone-else');
    expect(unmarked.peakMiB).toBe(0);
    await expect(runTimed({ cmd: process.execPath, args: ['-e', 'console.error("boom"); process.exit(3)'] }, env)).rejects.toThrow(/exited 3:\nboom/);
  });

  it('names the peer project indexed at a path, by root path when it lists several', () => {
    const one = '{"projects":[{"name":"tmp-x-flask","root_path":"/tmp/x/flask","nodes":10}]}';
    expect(peerProjectName(one, '/tmp/x/flask')).toBe('tmp-x-flask');
    const two = '{"projects":[{"name":"a","root_path":"/r/a"},{"name":"b","root_path":"/r/b"}]}';
    expect(peerProjectName(two, '/r/b/')).toBe('b');
    expect(() => peerProjectName('{"projects":[]}', '/r/b')).toThrow(/cannot tell the peer's project/);
  });

  it("reads search_graph's text answer by its total, and refuses its JSON error (which it does not flag as a tool error)", () => {
    const rows = 'total: 2\nresults: 2  (rows: name label lines in out)\np.src.sessions.SessionInterface (src/flask/sessions.py):\n  open_session Method 249-261 2 1\n';
    expect(peerSearchAnswer(rows)).toEqual({ refine: false, hits: true });
    expect(peerSearchAnswer('total: 0\nresults: 0\n')).toEqual({ refine: false, hits: false });
    expect(() => peerSearchAnswer('{"error":"project not found or not indexed"}')).toThrow(/refused: project not found/);
    expect(() => peerSearchAnswer('nothing useful')).toThrow(/without a total/);
  });

  it("reads sightline's answer: refine, or whether results came back", () => {
    expect(sightlineAnswer('{"status":"refine","suggestions":[]}')).toEqual({ refine: true, hits: false });
    expect(sightlineAnswer('{"status":"ok","results":[{"path":"a.py"}]}')).toEqual({ refine: false, hits: true });
    expect(sightlineAnswer('{"status":"ok","results":[]}')).toEqual({ refine: false, hits: false });
  });

  it('anchors and escapes an identifier for the peer name_pattern regex', () => {
    expect(exactPattern('Store.open$')).toBe('^Store\\.open\\$$');
    expect(new RegExp(exactPattern('get_doctree')).test('get_doctree')).toBe(true);
    expect(new RegExp(exactPattern('get_doctree')).test('get_doctree_cached')).toBe(false);
  });
});
