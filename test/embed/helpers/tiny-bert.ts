/**
 * Builds a tiny random-weight BERT-style sentence encoder folder, the shape
 * the onnx embedder reads: one transformer layer (embeddings + LayerNorm,
 * single-head self-attention with the padding mask, GELU feed-forward),
 * `last_hidden_state` out, a WordPiece tokenizer.json, config.json and a
 * sentence-transformers pooling config. Written by hand as ONNX protobuf.
 */
import fs from 'node:fs';
import path from 'node:path';
import { message, type Field } from './protobuf.js';

const FLOAT = 1;
const INT64 = 7;
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

export const TINY_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'parse', 'date', 'time', '##zone', 'read', 'file', 'the', 'a', 'open', 'socket', 'server', 'user', 'name', '.', ',', '(', ')', 'get', '##s', 'json', 'config'];

function tensor(name: string, dims: number[], data: Float32Array | BigInt64Array): Uint8Array {
  return message([
    ...dims.map((d): Field => [1, 'varint', d]),
    [2, 'varint', data instanceof Float32Array ? FLOAT : INT64],
    [8, 'bytes', name],
    [9, 'bytes', new Uint8Array(data.buffer, data.byteOffset, data.byteLength)],
  ]);
}

function valueInfo(name: string, elem: number, dims: (number | string)[]): Uint8Array {
  const shape = message(dims.map((d): Field => [1, 'bytes', message([typeof d === 'number' ? [1, 'varint', d] : [2, 'bytes', d]])]));
  return message([[1, 'bytes', name], [2, 'bytes', message([[1, 'bytes', message([[1, 'varint', elem], [2, 'bytes', shape]])]])]]);
}

type Attr = [string, 'f', number] | [string, 'i', number] | [string, 'ints', number[]];

function node(op: string, inputs: string[], outputs: string[], attrs: Attr[] = []): Uint8Array {
  return message([
    ...inputs.map((i): Field => [1, 'bytes', i]),
    ...outputs.map((o): Field => [2, 'bytes', o]),
    [3, 'bytes', `${op}_${outputs[0]}`],
    [4, 'bytes', op],
    ...attrs.map(([name, kind, v]): Field => [5, 'bytes', message(
      kind === 'f' ? [[1, 'bytes', name], [2, 'float', v], [20, 'varint', ATTR_FLOAT]]
        : kind === 'i' ? [[1, 'bytes', name], [3, 'varint', v], [20, 'varint', ATTR_INT]]
          : [[1, 'bytes', name], ...v.map((x): Field => [8, 'varint', x]), [20, 'varint', ATTR_INTS]],
    )]),
  ]);
}

/** A seeded generator, so the model is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

export function tinyBertOnnx(hidden = 16, maxPositions = 64, seed = 42): Uint8Array {
  const rnd = random(seed);
  const weights = (n: number, scale = 0.5) => Float32Array.from({ length: n }, () => rnd() * scale);
  const ones = (n: number) => new Float32Array(n).fill(1);
  const H = hidden;
  const init: Uint8Array[] = [
    tensor('word_emb', [TINY_VOCAB.length, H], weights(TINY_VOCAB.length * H)),
    tensor('pos_emb', [maxPositions, H], weights(maxPositions * H)),
    tensor('type_emb', [2, H], weights(2 * H)),
    tensor('ln0_g', [H], ones(H)), tensor('ln0_b', [H], new Float32Array(H)),
    tensor('wq', [H, H], weights(H * H)), tensor('wk', [H, H], weights(H * H)), tensor('wv', [H, H], weights(H * H)), tensor('wo', [H, H], weights(H * H)),
    tensor('ln1_g', [H], ones(H)), tensor('ln1_b', [H], new Float32Array(H)),
    tensor('w1', [H, 4 * H], weights(4 * H * H)), tensor('b1', [4 * H], weights(4 * H)),
    tensor('w2', [4 * H, H], weights(4 * H * H)), tensor('b2', [H], weights(H)),
    tensor('ln2_g', [H], ones(H)), tensor('ln2_b', [H], new Float32Array(H)),
    tensor('one_idx', [], BigInt64Array.of(1n)), tensor('zero_i', [], BigInt64Array.of(0n)), tensor('one_i', [], BigInt64Array.of(1n)),
    tensor('axis1', [1], BigInt64Array.of(1n)),
    tensor('scale', [], Float32Array.of(1 / Math.sqrt(H))),
    tensor('one_f', [], Float32Array.of(1)), tensor('neg_big', [], Float32Array.of(-10000)),
    tensor('half', [], Float32Array.of(0.5)), tensor('sqrt2', [], Float32Array.of(Math.SQRT2)),
  ];
  const ln = (x: string, g: string, b: string, out: string) => node('LayerNormalization', [x, g, b], [out], [['axis', 'i', -1], ['epsilon', 'f', 1e-12]]);
  const nodes = [
    node('Gather', ['word_emb', 'input_ids'], ['we']),
    node('Shape', ['input_ids'], ['shape']),
    node('Gather', ['shape', 'one_idx'], ['seq_len']),
    node('Range', ['zero_i', 'seq_len', 'one_i'], ['positions']),
    node('Gather', ['pos_emb', 'positions'], ['pe']),
    node('Gather', ['type_emb', 'token_type_ids'], ['te']),
    node('Add', ['we', 'pe'], ['e1']),
    node('Add', ['e1', 'te'], ['e2']),
    ln('e2', 'ln0_g', 'ln0_b', 'x0'),
    node('MatMul', ['x0', 'wq'], ['q']),
    node('MatMul', ['x0', 'wk'], ['k']),
    node('MatMul', ['x0', 'wv'], ['v']),
    node('Transpose', ['k'], ['kt'], [['perm', 'ints', [0, 2, 1]]]),
    node('MatMul', ['q', 'kt'], ['qk']),
    node('Mul', ['qk', 'scale'], ['scores']),
    node('Cast', ['attention_mask'], ['mask_f'], [['to', 'i', FLOAT]]),
    node('Sub', ['one_f', 'mask_f'], ['inv_mask']),
    node('Mul', ['inv_mask', 'neg_big'], ['mask_add']),
    node('Unsqueeze', ['mask_add', 'axis1'], ['mask_b']),
    node('Add', ['scores', 'mask_b'], ['masked']),
    node('Softmax', ['masked'], ['probs'], [['axis', 'i', -1]]),
    node('MatMul', ['probs', 'v'], ['ctx']),
    node('MatMul', ['ctx', 'wo'], ['attn']),
    node('Add', ['x0', 'attn'], ['r1']),
    ln('r1', 'ln1_g', 'ln1_b', 'x1'),
    node('MatMul', ['x1', 'w1'], ['h0']),
    node('Add', ['h0', 'b1'], ['h1']),
    node('Div', ['h1', 'sqrt2'], ['h2']),
    node('Erf', ['h2'], ['h3']),
    node('Add', ['h3', 'one_f'], ['h4']),
    node('Mul', ['h1', 'h4'], ['h5']),
    node('Mul', ['h5', 'half'], ['gelu']),
    node('MatMul', ['gelu', 'w2'], ['f0']),
    node('Add', ['f0', 'b2'], ['f1']),
    node('Add', ['x1', 'f1'], ['r2']),
    ln('r2', 'ln2_g', 'ln2_b', 'last_hidden_state'),
  ];
  const graph = message([
    ...nodes.map((n): Field => [1, 'bytes', n]),
    [2, 'bytes', 'tiny-bert'],
    ...init.map((t): Field => [5, 'bytes', t]),
    [11, 'bytes', valueInfo('input_ids', INT64, ['batch', 'sequence'])],
    [11, 'bytes', valueInfo('attention_mask', INT64, ['batch', 'sequence'])],
    [11, 'bytes', valueInfo('token_type_ids', INT64, ['batch', 'sequence'])],
    [12, 'bytes', valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', H])],
  ]);
  return message([[1, 'varint', 8], [2, 'bytes', 'sightline-test'], [7, 'bytes', graph], [8, 'bytes', message([[1, 'bytes', ''], [2, 'varint', 17]])]]);
}

export function tokenizerJson(): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [0, 1, 2, 3].map((id) => ({ id, content: TINY_VOCAB[id], special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i])) },
  };
}

/** Writes the model folder under `dir` and returns it. */
export function writeTinyBert(dir: string, options: { pooling?: 'mean' | 'cls' | 'max'; hidden?: number } = {}): string {
  const hidden = options.hidden ?? 16;
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.mkdirSync(path.join(dir, '1_Pooling'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), tinyBertOnnx(hidden));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: hidden, num_hidden_layers: 1, num_attention_heads: 1, max_position_embeddings: 64, vocab_size: TINY_VOCAB.length }));
  const pooling = options.pooling ?? 'mean';
  fs.writeFileSync(path.join(dir, '1_Pooling', 'config.json'), JSON.stringify({
    word_embedding_dimension: hidden,
    pooling_mode_cls_token: pooling === 'cls',
    pooling_mode_mean_tokens: pooling === 'mean',
    pooling_mode_max_tokens: pooling === 'max',
  }));
  return dir;
}
