#!/usr/bin/env python3
"""Held-out retrieval quality of a trained builtin model, beside BM25 on the same pairs.

usage: /usr/bin/python3 evaluate.py PAIRS.jsonl MODEL.bin OUT.json

Takes up to EVAL_PAIRS pairs from the held-out packages (train.py's split),
embeds every query and every code side with the shipped (int8) model, and for
each query ranks all held-out code sides: the model by cosine, BM25 (k1 1.2,
b 0.75, the same code-aware terms) by score, and both fused by RRF (k0 60) as
the search does. Reports MRR and Recall@1/5/10 overall and per language.
"""
import collections
import hashlib
import json
import math
import os
import random
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from features import features, terms  # noqa: E402

HOLDOUT_MOD = 20
EVAL_PAIRS = 5000
SEED = 7


def held_out(pkg):
    return int(hashlib.sha1(pkg.encode()).hexdigest(), 16) % HOLDOUT_MOD == 0


def load_model(path):
    with open(path, "rb") as f:
        buf = f.read()
    assert buf[:8] == b"SLEMB001"
    (hlen,) = struct.unpack("<I", buf[8:12])
    header = json.loads(buf[12:12 + hlen])
    rows = len(header["vocab"]) + header["buckets"]
    at = 12 + hlen
    scale = np.frombuffer(buf, "<f4", rows, at)
    q = np.frombuffer(buf, np.int8, rows * header["dims"], at + rows * 4).reshape(rows, header["dims"])
    return q.astype(np.float32) * scale[:, None], {t: i for i, t in enumerate(header["vocab"])}, header["buckets"]


def encode(weight, texts, vocab, buckets):
    out = np.zeros((len(texts), weight.shape[1]), np.float32)
    for i, t in enumerate(texts):
        f = features(t, vocab, buckets)
        if f:
            ids = np.fromiter(f.keys(), np.int64, len(f))
            w = np.fromiter(f.values(), np.float32, len(f))
            v = (w[:, None] * weight[ids]).sum(0)
            out[i] = v / (np.linalg.norm(v) + 1e-9)
    return out


def bm25_matrix(pairs, k1=1.2, b=0.75):
    """Queries × documents BM25 scores, computed per query over its own terms only."""
    docs = [collections.Counter(t for t, _ in terms(p["code"])) for p in pairs]
    index = {}
    for j, tf in enumerate(docs):
        for t in tf:
            index.setdefault(t, len(index))
    n = len(docs)
    lens = np.array([sum(tf.values()) for tf in docs], np.float32)
    avg = lens.mean()
    w = np.zeros((n, len(index)), np.float32)
    for j, tf in enumerate(docs):
        for t, f in tf.items():
            w[j, index[t]] = f * (k1 + 1) / (f + k1 * (1 - b + b * lens[j] / avg))
    df = (w > 0).sum(0)
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5)).astype(np.float32)
    scores = np.zeros((len(pairs), n), np.float32)
    for i, p in enumerate(pairs):
        cols = [index[t] for t in set(t for t, _ in terms(p["query"])) if t in index]
        if cols:
            scores[i] = w[:, cols] @ idf[cols]
    return scores


def ranks_of_gold(scores):
    """1-based rank of column i in row i (ties count against the gold item)."""
    gold = scores[np.arange(len(scores)), np.arange(len(scores))]
    return (scores > gold[:, None]).sum(1) + 1


def rank_positions(scores):
    order = np.argsort(-scores, axis=1, kind="stable")
    pos = np.empty_like(order)
    rows = np.arange(scores.shape[0])[:, None]
    pos[rows, order] = np.arange(1, scores.shape[1] + 1)
    return pos


def metrics(r):
    r = np.asarray(r)
    return {"mrr": round(float(np.mean(1.0 / r)), 4), "r@1": round(float(np.mean(r <= 1)), 4),
            "r@5": round(float(np.mean(r <= 5)), 4), "r@10": round(float(np.mean(r <= 10)), 4), "n": int(len(r))}


def evaluate(weight, vocab, buckets, pairs):
    sims = encode(weight, [p["query"] for p in pairs], vocab, buckets) @ encode(weight, [p["code"] for p in pairs], vocab, buckets).T
    bm = bm25_matrix(pairs)
    rrf = 1 / (60 + rank_positions(sims)) + 1 / (60 + rank_positions(bm))
    result = {"model": ranks_of_gold(sims), "bm25": ranks_of_gold(bm), "rrf": ranks_of_gold(rrf)}
    by_lang = collections.defaultdict(list)
    for i, p in enumerate(pairs):
        by_lang[p["lang"]].append(i)
    return {
        "pairs": len(pairs),
        **{k: metrics(v) for k, v in result.items()},
        "by_language": {lang: {k: metrics(v[idx]) for k, v in result.items()} for lang, idx in sorted(by_lang.items())},
    }


def held_out_pairs(path):
    pairs = [json.loads(l) for l in open(path)]
    test = [p for p in pairs if held_out(p["pkg"])]
    random.Random(SEED).shuffle(test)
    return test[:EVAL_PAIRS]


def main():
    pairs_path, model_path, out_path = sys.argv[1:4]
    weight, vocab, buckets = load_model(model_path)
    result = evaluate(weight, vocab, buckets, held_out_pairs(pairs_path))
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps({k: result[k] for k in ("pairs", "model", "bm25", "rrf")}, indent=1))


if __name__ == "__main__":
    main()
