/** A small layered TypeScript + Python repository for the graph's engine and face tests. */

const wide: Record<string, string> = {};
for (let i = 0; i < 30; i++) {
  const n = String(i).padStart(2, '0');
  wide[`src/wide/w${n}.ts`] = `import { log } from '../util/log.js';\nexport function w${n}(): void {\n  log('w${n}');\n}\n`;
}

export const GRAPH_FILES: Record<string, string> = {
  'src/util/crypto.ts': 'export function hashToken(input: string): string {\n  return input.split("").reverse().join("");\n}\n',
  'src/util/log.ts': 'export function log(message: string): void {\n  console.log(message);\n}\n',
  'src/auth/session.ts': [
    "import { hashToken } from '../util/crypto.js';",
    "import { createHash } from 'node:crypto';",
    '',
    'export class SessionManager {',
    '  createSession(user: string): string {',
    '    return hashToken(user) + createHash("sha1").digest("hex");',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/api/login.ts': [
    "import { SessionManager } from '../auth/session.js';",
    '',
    'export function login(user: string): string {',
    '  const sessions: SessionManager = new SessionManager();',
    '  return sessions.createSession(user);',
    '}',
    '',
  ].join('\n'),
  'src/api/routes.ts': "import { login } from './login.js';\n\nexport function routes(): string[] {\n  return [login('ada')];\n}\n",
  'src/main.ts': "import { routes } from './api/routes.js';\n\nroutes();\n",
  'test/session.test.ts': "import { SessionManager } from '../src/auth/session.js';\n\nnew SessionManager().createSession('x');\n",
  'app/models.py': 'class User:\n    def name(self):\n        return "ada"\n',
  'tests/test_models.py': 'def test_user():\n    assert True\n',
  ...wide,
};
