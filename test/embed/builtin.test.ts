import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder, defaultModelPath } from '../../src/embed/index.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('builtin embedder', () => {
  const model = BuiltinEmbedder.open(defaultModelPath());

  it('ships with the package and names its space', () => {
    expect(model.identity.name).toBe('builtin');
    expect(model.identity.dims).toBeGreaterThan(0);
    expect(model.identity.model).toMatch(/^sightline-builtin@[0-9a-f]{12}$/);
  });

  it('reads the model file once per process while it is unchanged, again once it changes', () => {
    expect(BuiltinEmbedder.open(defaultModelPath()).model).toBe(model.model);
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-model-')), 'builtin.bin');
    try {
      fs.copyFileSync(defaultModelPath(), copy);
      const first = BuiltinEmbedder.open(copy).model;
      expect(BuiltinEmbedder.open(copy).model).toBe(first);
      fs.utimesSync(copy, new Date(), new Date(Date.now() + 5_000));
      // Identity, not toBe: a failing-or-negated toBe deep-compares two 5 MB models, which takes seconds.
      expect(BuiltinEmbedder.open(copy).model === first).toBe(false);
    } finally {
      fs.rmSync(path.dirname(copy), { recursive: true, force: true });
    }
  });

  it('returns one unit vector per text, in order', async () => {
    const texts = ['parse a date string', 'def open_socket(port):\n    return socket.socket()', ''];
    const vecs = await model.embed(texts);
    expect(vecs).toHaveLength(3);
    for (const v of vecs.slice(0, 2)) expect(dot(v, v)).toBeCloseTo(1, 4);
    expect(dot(vecs[2]!, vecs[2]!)).toBe(0); // nothing to embed: the zero vector, never NaN
    expect(vecs[0]).toEqual(model.embedOne(texts[0]!));
  });

  it('puts a description nearer its own code than unrelated code', () => {
    const q = model.embedOne('read the configuration file and parse its json');
    const right = model.embedOne('function loadConfig(path) {\n  const text = fs.readFileSync(path, "utf8");\n  return JSON.parse(text);\n}');
    const wrong = model.embedOne('function drawCircle(ctx, radius) {\n  ctx.arc(0, 0, radius, 0, Math.PI * 2);\n  ctx.stroke();\n}');
    expect(dot(q, right)).toBeGreaterThan(dot(q, wrong));
  });
});
