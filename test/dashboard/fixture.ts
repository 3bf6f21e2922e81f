/** The repository the dashboard tests look at: four modules under src/, a test, docs, a binary and an ignored build. */
export const DASHBOARD_FILES: Record<string, string | Buffer> = {
  'src/util/crypto.ts': ['/** Hashes a session token for storage. */', 'export function hashToken(input: string): string {', '  return input.split("").reverse().join("");', '}', ''].join('\n'),
  'src/store/db.ts': ['export class Database {', '  private rows = new Map<string, string>();', '  save(key: string, value: string): void {', '    this.rows.set(key, value);', '  }', '}', ''].join('\n'),
  'src/auth/session.ts': [
    'import { hashToken } from "../util/crypto";',
    'import { Database } from "../store/db";',
    '',
    '/** A logged-in user session. */',
    'export class SessionManager {',
    '  constructor(private db: Database) {}',
    '  open(user: string): string {',
    '    const token = hashToken(user);',
    '    this.db.save(token, user);',
    '    return token;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/api/routes.ts': ['import { SessionManager } from "../auth/session";', 'import { Database } from "../store/db";', '', 'export function login(user: string): string {', '  return new SessionManager(new Database()).open(user);', '}', ''].join('\n'),
  'test/session.test.ts': ['import { SessionManager } from "../src/auth/session";', 'import { Database } from "../src/store/db";', 'new SessionManager(new Database()).open("a");', ''].join('\n'),
  'README.md': '# Fixture\n\nA small service with sessions.\n',
  'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  '.gitignore': 'build/\n',
  'build/out.js': 'console.log("built");\n',
};

/** The modules explore overview finds in it. */
export const MODULES = ['src/api', 'src/auth', 'src/store', 'src/util'];

/** A tool log as `serve --log-file` writes it: three answers and one error, a minute apart. */
export function toolLog(now = Date.now()): string {
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  return [
    { ts: at(4), event: 'tool_call', tool: 'search', args: { query: 'session' } },
    { ts: at(4), event: 'tool_result', tool: 'search', returned: 3, est_tokens: 420, ms: 35, reads_replaced_tokens: 0 },
    { ts: at(3), event: 'tool_result', tool: 'context', returned: 4, est_tokens: 1800, ms: 140, reads_replaced_tokens: 5200 },
    { ts: at(2), event: 'tool_error', tool: 'read', error: 'no such file', ms: 2 },
    { ts: at(1), event: 'tool_result', tool: 'outline', returned: 2, est_tokens: 90, ms: 8 },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n') + '\n';
}
