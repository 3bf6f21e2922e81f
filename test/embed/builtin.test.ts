import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuiltinEmbedder, defaultModelPath } from '../../src/embed/index.js';
import { builtVocab, embedStatic, QueryRows, scanVocab, vocabFile } from '../../src/embed/builtin.js';
import { featuresOf } from '../../src/embed/features.js';
import { normalize } from '../../src/embed/http.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('builtin embedder', () => {
  const model = BuiltinEmbedder.open(defaultModelPath());

  it('ships with the package and names its space', () => {
    expect(model.identity.name).toBe('builtin');
    expect(model.identity.dims).toBeGreaterThan(0);
    expect(model.identity.model).toMatch(/^sightline-builtin@[0-9a-f]{12}$/);
  });

  it('embeds a text as the plain weighted sum of its feature rows, to the bit', () => {
    const m = model.model;
    // Each feature row weighted, added one dimension at a time in the order the text first uses the rows.
    const plain = (text: string) => {
      const out = new Float32Array(m.dims);
      for (const [row, weight] of featuresOf(text, m.space)) for (let d = 0; d < m.dims; d++) out[d] += weight * m.scales[row]! * m.rows[row * m.dims + d]!;
      return normalize(out);
    };
    for (const text of ['parse a date string', 'def getUserName(self):\n    return self._user_name  # the name', 'fn main() { println!("{}", x_y_z); }', '']) {
      expect(Array.from(embedStatic(m, text))).toEqual(Array.from(plain(text)));
    }
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

  it('embeds a query from the rows it reads, exactly as from the whole model', () => {
    const rows = QueryRows.open(defaultModelPath());
    const texts = ['parse a date string', 'where is getUserName defined', 'qwzxv unknownword_here HTTPServer', 'return self', ''];
    for (const t of texts) expect(Array.from(rows.embed(t))).toEqual(Array.from(model.embedOne(t)));
  });

  it('finds every vocabulary term at its row in the header text', () => {
    const { vocab } = JSON.parse(headerOf(fs.readFileSync(defaultModelPath()))) as { vocab: string[] };
    const space = (QueryRows.open(defaultModelPath()) as unknown as { space: { vocab: { get(t: string): number | undefined; size: number } } }).space;
    expect(space.vocab.size).toBe(vocab.length);
    const wrong = vocab.filter((term, row) => space.vocab.get(term) !== row);
    expect(wrong).toEqual([]);
    expect(space.vocab.get('vocab')).toBe(vocab.indexOf('vocab') >= 0 ? vocab.indexOf('vocab') : undefined);
    expect(space.vocab.get('notaterm0zz')).toBeUndefined();
  });

  it('reads the vocabulary table the build wrote, the one a scan of the model makes, and only for a model of its lengths', async () => {
    const modelPath = defaultModelPath();
    const header = headerOf(fs.readFileSync(modelPath));
    const size = fs.statSync(modelPath).size;
    const scanned = scanVocab(header);
    // What `npm run build` wrote beside the compiled code is this model's table.
    const compiled = new URL('../../dist/src/embed/builtin.js', import.meta.url).href;
    const dist = (await import(compiled)) as typeof import('../../src/embed/builtin.js');
    expect(fs.readFileSync(dist.VOCAB_FILE).equals(vocabFile(modelPath))).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-vocab-'));
    try {
      const file = path.join(dir, 'vocab.bin');
      fs.writeFileSync(file, vocabFile(modelPath));
      const read = builtVocab(size, header, file)!;
      expect([read.before, read.after]).toEqual([scanned.before, scanned.after]);
      expect(Buffer.from(read.spans.buffer, read.spans.byteOffset, read.spans.byteLength).equals(Buffer.from(scanned.spans.buffer))).toBe(true);
      expect(Buffer.from(read.slots.buffer, read.slots.byteOffset, read.slots.byteLength).equals(Buffer.from(scanned.slots.buffer))).toBe(true);
      // Another model (retrained since the build), a cut or damaged table, no table: scanned instead.
      expect(builtVocab(size + 1, header, file)).toBeNull();
      expect(builtVocab(size, `${header} `, file)).toBeNull();
      const whole = vocabFile(modelPath);
      const damaged = (change: (words: Int32Array) => void) => {
        const copy = Buffer.from(whole);
        change(new Int32Array(copy.buffer, copy.byteOffset, copy.byteLength >> 2));
        fs.writeFileSync(file, copy);
        return builtVocab(size, header, file);
      };
      expect(damaged((w) => (w[3] = w[3]! + 1))).toBeNull(); // the array's bounds moved
      expect(damaged((w) => w.fill(1, w.length - w[6]!))).toBeNull(); // slots with no empty one: a probe would never end
      fs.writeFileSync(file, whole.subarray(0, 4_002));
      expect(builtVocab(size, header, file)).toBeNull();
      expect(builtVocab(size, header, path.join(dir, 'absent.bin'))).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // The compiled query side reads through the built table and embeds as the whole model does.
    const rows = dist.QueryRows.open(modelPath);
    for (const t of ['parse a date string', 'where is getUserName defined', 'return self']) expect(Array.from(rows.embed(t))).toEqual(Array.from(model.embedOne(t)));
  });

  it('counts an escaped entry as one and never matches inside it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-model-'));
    try {
      // A two-term model whose first entry holds an escaped quote that looks like the second term.
      const header = JSON.stringify({ name: 'tiny', dims: 2, buckets: 1, vocab: ['a"beta', 'beta'] });
      const body = Buffer.alloc(12 + Buffer.byteLength(header) + 3 * 4 + 3 * 2);
      body.write('SLEMB001', 0, 'latin1');
      body.writeUInt32LE(Buffer.byteLength(header), 8);
      body.write(header, 12, 'utf8');
      const scalesAt = 12 + Buffer.byteLength(header);
      for (let r = 0; r < 3; r++) body.writeFloatLE(1, scalesAt + r * 4);
      const rowsAt = scalesAt + 12;
      body.writeInt8(1, rowsAt + 2 * 1); // row 1 ("beta") points along the first axis
      body.writeInt8(1, rowsAt + 2 * 0 + 1); // row 0 along the second
      const file = path.join(dir, 'tiny.bin');
      fs.writeFileSync(file, body);
      expect(Array.from(QueryRows.open(file).embed('beta'))).toEqual([1, 0]);
      expect(Array.from(QueryRows.open(file).embed('beta'))).toEqual(Array.from(BuiltinEmbedder.open(file).embedOne('beta')));
      const cut = path.join(dir, 'cut.bin');
      fs.writeFileSync(cut, body.subarray(0, body.length - 1));
      expect(() => QueryRows.open(cut)).toThrow(/truncated/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function headerOf(buf: Buffer): string {
  return buf.subarray(12, 12 + buf.readUInt32LE(8)).toString('utf8');
}

