/**
 * How calls on receivers resolve: by the variable's declared type (and never by name when that
 * type is a library's), not to same-named methods when the method name is a runtime one, to the
 * constructor as well as the class, through `super()`, inside Rust macros, and — for callers —
 * through the base method an override implements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExploreEnvelope, type Repo } from '../../src/engine/index.js';
import { explore } from '../../src/engine/explore.js';
import { loadLayout } from '../../src/graph/resolve.js';
import { findExported, resolveImport } from '../../src/graph/resolve-imports.js';
import { GraphView } from '../../src/graph/view.js';
import { edge, importTargets, indexFixture, openRepo, type Indexed, type OpenedRepo } from './helpers.js';

const FILES: Record<string, string> = {
  'go.mod': 'module example.com/web\n',
  'server.go': [
    'package web',
    '',
    'import "net/http"',
    '',
    'type Server struct{}',
    '',
    'func (s *Server) route() {}',
    '',
    'func (s *Server) Context() string { return "" }',
    '',
    'func (s *Server) Handle(w http.ResponseWriter, r *http.Request) {',
    '\tr.Context()',
    '\ts.route()',
    '}',
    '',
  ].join('\n'),
  'app.py': [
    'class Store:',
    '    def pop(self):',
    '        return 1',
    '',
    '',
    'class Base:',
    '    def __init__(self, name):',
    '        self.name = name',
    '',
    '',
    'class Flask(Base):',
    '    def __init__(self):',
    '        super().__init__("app")',
    '',
    '    def run(self):',
    '        return 0',
    '',
    '',
    'def serve(app: Flask, options):',
    '    options.pop("debug")',
    '    app.run()',
    '    return Flask()',
    '',
  ].join('\n'),
  'src/main/java/shop/Task.java': 'package shop;\n\npublic interface Task {\n  void run();\n}\n',
  'src/main/java/shop/Job.java': 'package shop;\n\npublic class Job implements Task {\n  public Job() {}\n  public void run() {}\n}\n',
  'src/main/java/shop/Runner.java': [
    'package shop;',
    '',
    'public class Runner {',
    '  void go(Task task) {',
    '    task.run();',
    '    Job job = new Job();',
    '    job.run();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'Cargo.toml': '[package]\nname = "calc"\n',
  'src/lib.rs': 'pub fn helper(x: u32) -> u32 {\n    x\n}\n\n#[test]\nfn t() {\n    assert_eq!(helper(1), 1);\n}\n',
};

let fx: Indexed;
beforeAll(async () => {
  fx = await indexFixture(FILES);
});
afterAll(() => fx.close());

describe('receivers', () => {
  it('a parameter typed by a library stays unresolved; the method receiver resolves in its own type', () => {
    expect(edge(fx.store, 'server.go', 'call', 'Context', 'r')).toMatchObject({ module: 'http.Request', status: 'unresolved' });
    expect(edge(fx.store, 'server.go', 'call', 'route', 's').targets).toEqual(['server.go:Server.route/exact']);
  });

  it('a parameter annotated with a repository class resolves on that class', () => {
    expect(edge(fx.store, 'app.py', 'call', 'run', 'app').targets).toEqual(['app.py:Flask.run/exact']);
  });

  it('a runtime method name on an unknown receiver is not matched to a same-named method', () => {
    expect(edge(fx.store, 'app.py', 'call', 'pop', 'options').status).toBe('unresolved');
  });

  it('super() reaches the base class', () => {
    expect(edge(fx.store, 'app.py', 'call', '__init__', 'super').targets).toEqual(['app.py:Base.__init__/exact']);
  });

  it('instantiating a class calls its constructor too', () => {
    expect(edge(fx.store, 'app.py', 'call', 'Flask', null).targets).toEqual(['app.py:Flask/exact', 'app.py:Flask.__init__/exact']);
    expect(edge(fx.store, 'src/main/java/shop/Runner.java', 'call', 'Job', null).targets).toEqual([
      'src/main/java/shop/Job.java:Job/import',
      'src/main/java/shop/Job.java:Job.Job/import',
    ]);
  });

  it('a local initialised by a constructor resolves on its class', () => {
    expect(edge(fx.store, 'src/main/java/shop/Runner.java', 'call', 'run', 'job').targets).toEqual(['src/main/java/shop/Job.java:Job.run/import']);
    expect(edge(fx.store, 'src/main/java/shop/Runner.java', 'call', 'run', 'task').targets).toEqual(['src/main/java/shop/Task.java:Task.run/import']);
  });

  it('calls inside Rust macro arguments are calls', () => {
    expect(edge(fx.store, 'src/lib.rs', 'call', 'helper', null).targets).toEqual(['src/lib.rs:helper/exact']);
  });
});

describe('callers through overrides', () => {
  let opened: OpenedRepo;
  let repo: Repo;
  beforeAll(async () => {
    opened = await openRepo(FILES);
    repo = opened.repo;
  });
  afterAll(() => opened.close());

  it('a call through the interface is a caller of the implementation, linked by an override hop', () => {
    const e = explore(repo, { relation: 'callers', anchor: 'Job.run' }) as ExploreEnvelope;
    expect(e.status).toBe('ok');
    const lines = e.results.map((r) => [r.symbol, r.lines]);
    expect(lines).toEqual([['Runner.go', [5, 7]]]);
    const viaInterface = explore(repo, { relation: 'callers', anchor: 'Task.run' }) as ExploreEnvelope;
    expect(viaInterface.results.map((r) => r.lines)).toEqual([[5]]);
    const hops = (explore(repo, { relation: 'impact', anchor: 'Job.run' }) as ExploreEnvelope).results.flatMap((r) => r.via.map((h) => h.kind));
    expect(hops).toContain('override');
  });
});

describe('re-exports', () => {
  let reexports: Indexed;
  beforeAll(async () => {
    reexports = await indexFixture({
      // Java: `import p.*` brings p's classes, not what p's files import themselves.
      'src/main/java/q/Widget.java': 'package q;\n\npublic class Widget {}\n',
      'src/main/java/p/Hub.java': 'package p;\n\nimport q.*;\n\npublic class Hub {\n  Widget held;\n}\n',
      'src/main/java/r/User.java': 'package r;\n\nimport p.*;\n\npublic class User {\n  Hub hub = new Hub();\n  Object made = new Widget();\n}\n',
      // TypeScript: one definition re-exported along two paths of barrels is one target.
      'ts/a.ts': 'export function thing(): number {\n  return 1;\n}\n',
      'ts/b.ts': "export * from './a';\n",
      'ts/c.ts': "export * from './a';\n",
      'ts/index.ts': "export * from './b';\nexport * from './c';\n",
      'ts/use.ts': "import { thing } from './index';\n\nexport const x = thing();\n",
    });
  });
  afterAll(() => reexports.close());

  it("are not followed through a Java file's own imports", () => {
    expect(edge(reexports.store, 'src/main/java/r/User.java', 'call', 'Hub', null).targets).toContain('src/main/java/p/Hub.java:Hub/import');
    expect(edge(reexports.store, 'src/main/java/r/User.java', 'call', 'Widget', null).targets.filter((t) => t.endsWith('/import'))).toEqual([]);
  });

  it('reach a definition once however many barrels lead to it', () => {
    expect(edge(reexports.store, 'ts/use.ts', 'call', 'thing', null).targets).toEqual(['ts/a.ts:thing/import']);
    expect(importTargets(reexports.store, 'ts/use.ts', './index')).toEqual(['ts/a.ts']);
    // Each level of the walk is distinct, not only its end: a fan of wildcard imports multiplied copies by the level.
    const { store } = reexports;
    const view = new GraphView(store, loadLayout(store, reexports.root), (e, ctx, depth) => resolveImport(e, ctx, depth));
    const found = findExported(view, [store.files.get('ts/index.ts')!.id], 'thing', 0);
    expect(found.map((t) => t.fileId)).toEqual([store.files.get('ts/a.ts')!.id]);
  });
});
