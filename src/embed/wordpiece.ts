/**
 * A WordPiece tokenizer read from a Hugging Face `tokenizer.json` — the
 * tokenizer of BERT-family sentence encoders (MiniLM, bge, e5, gte, nomic).
 * Implements the BERT normaliser (clean, CJK spacing, lower-case, strip
 * accents), the BERT pre-tokeniser (whitespace and punctuation), greedy
 * longest-match WordPiece, and [CLS] … [SEP] framing.
 */
import fs from 'node:fs';
import { SightlineError } from '../errors/index.js';

interface TokenizerJson {
  model?: { type?: string; vocab?: Record<string, number>; unk_token?: string; continuing_subword_prefix?: string; max_input_chars_per_word?: number };
  normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null; normalizers?: TokenizerJson['normalizer'][] } | null;
  truncation?: { max_length?: number } | null;
  added_tokens?: { id: number; content: string }[];
}

const PUNCT = /[\p{P}\p{S}]/u;
const CJK = /[\u4E00-\u9FFF\u3400-\u4DBF\u{20000}-\u{2A6DF}\uF900-\uFAFF\u{2F800}-\u{2FA1F}]/gu;

export class WordPiece {
  private readonly vocab: Map<string, number>;
  private readonly unk: number;
  private readonly cls: number;
  private readonly sep: number;
  private readonly prefix: string;
  private readonly maxWordChars: number;
  private readonly lowercase: boolean;
  private readonly stripAccents: boolean;
  readonly maxLength: number;

  constructor(json: TokenizerJson, maxLength: number) {
    const model = json.model;
    if (model?.type !== 'WordPiece' || !model.vocab) {
      throw new SightlineError('usage', `tokenizer.json uses a ${model?.type ?? 'missing'} model; the onnx embedder reads WordPiece (BERT-family) tokenizers`);
    }
    this.vocab = new Map(Object.entries(model.vocab));
    for (const t of json.added_tokens ?? []) this.vocab.set(t.content, t.id);
    const id = (t: string) => {
      const v = this.vocab.get(t);
      if (v === undefined) throw new SightlineError('usage', `tokenizer.json has no ${t} token`);
      return v;
    };
    this.unk = id(model.unk_token ?? '[UNK]');
    this.cls = id('[CLS]');
    this.sep = id('[SEP]');
    this.prefix = model.continuing_subword_prefix ?? '##';
    this.maxWordChars = model.max_input_chars_per_word ?? 100;
    const bert = [json.normalizer, ...(json.normalizer?.normalizers ?? [])].find((n) => n?.type === 'BertNormalizer');
    this.lowercase = bert?.lowercase ?? (json.normalizer?.normalizers ?? []).some((n) => n?.type === 'Lowercase');
    this.stripAccents = bert ? (bert.strip_accents ?? this.lowercase) : false;
    this.maxLength = Math.min(maxLength, json.truncation?.max_length ?? maxLength);
  }

  static fromFile(file: string, maxLength: number): WordPiece {
    return new WordPiece(JSON.parse(fs.readFileSync(file, 'utf8')) as TokenizerJson, maxLength);
  }

  private normalize(text: string): string {
    let t = text.replace(/[\u0000\uFFFD\p{Cc}]/gu, (c) => (/\s/.test(c) ? ' ' : '')).replace(CJK, (c) => ` ${c} `);
    if (this.lowercase) t = t.toLowerCase();
    if (this.stripAccents) t = t.normalize('NFD').replace(/\p{Mn}/gu, '');
    return t;
  }

  private words(text: string): string[] {
    const out: string[] = [];
    for (const chunk of text.split(/\s+/)) {
      let word = '';
      for (const ch of chunk) {
        if (PUNCT.test(ch)) {
          if (word) out.push(word);
          out.push(ch);
          word = '';
        } else word += ch;
      }
      if (word) out.push(word);
    }
    return out;
  }

  private pieces(word: string, out: number[]): void {
    const chars = [...word];
    if (chars.length > this.maxWordChars) {
      out.push(this.unk);
      return;
    }
    const ids: number[] = [];
    for (let start = 0; start < chars.length; ) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const sub = (start > 0 ? this.prefix : '') + chars.slice(start, end).join('');
        found = this.vocab.get(sub);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) {
        out.push(this.unk);
        return;
      }
      ids.push(found);
      start = end;
    }
    out.push(...ids);
  }

  /** [CLS] tokens [SEP], truncated to maxLength. */
  encode(text: string): number[] {
    const ids: number[] = [this.cls];
    const room = this.maxLength - 1;
    for (const w of this.words(this.normalize(text))) {
      this.pieces(w, ids);
      if (ids.length >= room) break;
    }
    ids.length = Math.min(ids.length, room);
    ids.push(this.sep);
    return ids;
  }
}
