/**
 * wireArgs: a CLI call's values, parsed by the options addVerb made, become the object the MCP
 * tool's body receives, so a memory verb on either face hands its function the same arguments.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addVerb, CLAIM, REMEMBER, UPDATE, wireArgs, type VerbSpec } from '../../src/spec/index.js';

/** Parses argv with the verb addVerb builds and returns what wireArgs makes of it. */
function wire(spec: VerbSpec, argv: string[]): object {
  const program = new Command('sightline').exitOverride();
  let got: object = {};
  addVerb(program, spec).action((...params: unknown[]) => {
    got = wireArgs(spec, params.slice(0, -2), params[params.length - 2] as object);
  });
  program.parse(['node', 'sightline', spec.command, ...argv]);
  return got;
}

describe('wireArgs', () => {
  it('names values as the tool does: positionals, renamed flags, lists, link maps', () => {
    const argv = ['auth', '--id', 'ttl', '--tag', 'a,b', '--tag', 'c', '--link', 'about=file:src/a.ts', '--link', 'about=symbol:src/a.ts#f', '--ttl', '60', '--token', '7', '--enable-writes'];
    expect(wire(REMEMBER, argv)).toEqual({
      topic: 'auth',
      id: 'ttl',
      tags: ['a', 'b', 'c'],
      add_links: { about: ['file:src/a.ts', 'symbol:src/a.ts#f'] },
      ttl_seconds: 60,
      fencing_token: 7,
    });
  });

  it('turns repeated name=value into a field map, values with commas kept whole', () => {
    expect(wire(UPDATE, ['memory:t/1', '--field', 'body=a, b', '--field', 'title=T', '--untag', 'x'])).toEqual({ key: 'memory:t/1', fields: { body: 'a, b', title: 'T' }, remove_tags: ['x'] });
  });

  it('refuses a required flag left out, naming it', () => {
    expect(() => wire(CLAIM, ['memory:t/1'])).toThrow('--owner <name> is required: who claims it');
    expect(wire(CLAIM, ['memory:t/1', '--owner', 'me', '--lease', '120'])).toEqual({ key: 'memory:t/1', owner: 'me', lease_seconds: 120 });
  });
});
