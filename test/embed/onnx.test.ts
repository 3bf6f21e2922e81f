import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OnnxEmbedder } from '../../src/embed/onnx.js';
import { WordPiece } from '../../src/embed/wordpiece.js';
import { removeDir, tempDir } from '../helpers/fixture.js';
import { TINY_VOCAB, tokenizerJson, writeTinyBert } from './helpers/tiny-bert.js';

const dirs: string[] = [];
function modelDir(pooling?: 'mean' | 'cls' | 'max'): string {
  const dir = path.join(tempDir(), 'tiny-bert');
  dirs.push(path.dirname(dir));
  return writeTinyBert(dir, { pooling });
}
afterAll(() => dirs.forEach(removeDir));

const close = (a: Float32Array, b: Float32Array) => a.every((x, i) => Math.abs(x - b[i]!) < 1e-5);

describe('WordPiece tokenizer', () => {
  it('lower-cases, splits punctuation, and takes the longest pieces', () => {
    const wp = new WordPiece(tokenizerJson(), 32);
    const ids = wp.encode('Parse dates, TIMEZONE (qq)');
    expect(ids.map((i) => TINY_VOCAB[i])).toEqual(['[CLS]', 'parse', 'date', '##s', ',', 'time', '##zone', '(', '[UNK]', ')', '[SEP]']);
  });

  it('truncates to the maximum length, keeping [SEP]', () => {
    const ids = new WordPiece(tokenizerJson(), 5).encode('parse the date parse the date');
    expect(ids).toHaveLength(5);
    expect(TINY_VOCAB[ids[4]!]).toBe('[SEP]');
  });

  it('refuses tokenizers it does not implement', () => {
    expect(() => new WordPiece({ model: { type: 'BPE' } }, 8)).toThrow(/BPE/);
  });
});

describe('onnx embedder on a generated BERT-style model', () => {
  it('learns its width from the graph and names its space by the model file', async () => {
    const e = await OnnxEmbedder.open(modelDir(), 4);
    expect(e.identity.name).toBe('onnx');
    expect(e.identity.dims).toBe(16);
    expect(e.identity.model).toMatch(/^tiny-bert@[0-9a-f]{12}$/);
    await e.close();
  });

  it('returns unit vectors, unchanged by padding when batched with longer texts', async () => {
    const e = await OnnxEmbedder.open(modelDir(), 8);
    const [alone] = await e.embed(['parse the date']);
    const [batched, other] = await e.embed(['parse the date', 'open the socket server, get user name, read the json config file']);
    expect(Math.hypot(...alone!)).toBeCloseTo(1, 5);
    expect(close(alone!, batched!)).toBe(true); // the attention mask and mean pooling ignore padding
    expect(close(alone!, other!)).toBe(false);
    await e.close();
  });

  it('pools as the model folder says', async () => {
    const mean = await OnnxEmbedder.open(modelDir('mean'), 4);
    const cls = await OnnxEmbedder.open(modelDir('cls'), 4);
    const [a] = await mean.embed(['read the file']);
    const [b] = await cls.embed(['read the file']);
    expect(close(a!, b!)).toBe(false);
    await Promise.all([mean.close(), cls.close()]);
  });

  it('says what is missing from a model folder', async () => {
    const dir = modelDir();
    fs.rmSync(path.join(dir, 'onnx'), { recursive: true });
    await expect(OnnxEmbedder.open(dir, 4)).rejects.toThrow(/no ONNX model/);
  });
});
