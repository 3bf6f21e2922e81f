/**
 * A read-pool worker runs the pooled tools' bodies from tools/pooled.ts, without their faces (zod,
 * the tool registry): the tools marked `pooled` must be exactly those bodies, each tool running the
 * body the worker would run for its name.
 */
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { POOLED_BODIES, pooledBody } from '../../src/mcp/tools/pooled.js';

describe("the read pool's tool bodies", () => {
  it('are the bodies of exactly the pooled tools', () => {
    const pooled = TOOLS.filter((t) => t.pooled);
    expect(pooled.map((t) => t.name).sort()).toEqual(Object.keys(POOLED_BODIES).sort());
    for (const tool of pooled) expect(pooledBody(tool.name), tool.name).toBe(tool.run);
  });

  it('name no other tool, nor anything an object inherits', () => {
    for (const name of ['context', 'remember', 'health', 'toString', 'constructor', '__proto__']) expect(pooledBody(name), name).toBeUndefined();
  });
});
