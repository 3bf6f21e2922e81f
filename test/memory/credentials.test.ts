/** Free text that carries a credential-bearing URL is refused for memory writes, and error text shows no invisible characters. */
import { describe, expect, it } from 'vitest';
import { describeError, usageError } from '../../src/errors/index.js';
import { recall, remember, update } from '../../src/memory/index.js';
import { citationProbe } from '../../src/engine/index.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo({ 'src/a.ts': 'export const a = 1;\n' });
const mem = () => fixture.repo.memory;
const LEAK = 'clone https://deploy:s3cr3t-token@git.example.com/team/api.git first';

describe('credential-bearing URLs in memory writes', () => {
  it('remember refuses one in any field or tag, names the field, never echoes the secret, and stores nothing', async () => {
    for (const input of [{ body: LEAK }, { title: LEAK }, { provenance: LEAK }, { author: LEAK }, { tags: [LEAK.slice(6, 60)] }]) {
      const refusal = await remember(mem(), { topic: 'ops', id: 'leak', ...input }).catch((err: unknown) => describeError(err));
      expect(refusal, JSON.stringify(input)).toMatch(/carries a URL with a credential in it/);
      expect(refusal).not.toContain('s3cr3t-token');
    }
    expect(await recall(mem(), { key: 'memory:ops/leak' }, citationProbe(fixture.repo))).toMatchObject({ exists: false });
  });

  it('update refuses one and keeps the record as it was; URLs without a password pass', async () => {
    const { key } = await remember(mem(), { topic: 'ops', id: 'ok', body: 'see https://git.example.com/team/api.git and ssh://git@example.com/x' });
    await expect(update(mem(), { key, fields: { body: LEAK } })).rejects.toThrow(/body carries a URL with a credential/);
    const r = (await recall(mem(), { key }, citationProbe(fixture.repo))) as { fields: { body: string } };
    expect(r.fields.body).toBe('see https://git.example.com/team/api.git and ssh://git@example.com/x');
  });
});

describe('error text', () => {
  it('replaces control, line-separator, zero-width and bidirectional characters, and caps the length', () => {
    const shown = describeError(usageError('no file a\u202eb.ts\u2028next\u200bline\u0007\r\nend\u2066x\ufeff'));
    expect(shown).not.toMatch(/[\u0000-\u001f\u2028\u2029\u200b\u202e\u2066\ufeff]/);
    expect(shown).toContain('no file a\ufffdb.ts');
    expect(describeError(usageError('word '.repeat(2_000))).length).toBeLessThanOrEqual(1_010);
  });
});
