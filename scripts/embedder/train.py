#!/usr/bin/env python3
"""Trains the builtin embedder: a static bag-of-features bi-encoder.

usage: /usr/bin/python3 train.py PAIRS.jsonl OUT_DIR [--dims 128] [--vocab 30000] [--buckets 4096] [--epochs 8]

The model is one table E (vocabulary rows + hashed trigram rows, `dims` wide);
a text embeds as normalize(sum_f w_f * E[f]) with features and weights from
features.py. Trained contrastively (symmetric InfoNCE, in-batch negatives)
on (doc comment, code) pairs. Packages are split train / held-out by a hash
of their name, so held-out numbers measure unseen code. Writes OUT_DIR/builtin.bin
(int8 rows with a float32 scale each) and OUT_DIR/eval.json (held-out metrics
of the quantized model, BM25 on the same pairs, and both fused by RRF; see evaluate.py).
"""
import argparse
import collections
import json
import math
import os
import random
import struct
import sys
import time
from multiprocessing import Pool

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evaluate import EVAL_PAIRS, evaluate, held_out  # noqa: E402
from features import features, terms  # noqa: E402

def distinct_terms(text):
    return set(t for t, _ in terms(text))


_VOCAB, _BUCKETS = None, None


def _init(vocab, buckets):
    global _VOCAB, _BUCKETS
    _VOCAB, _BUCKETS = vocab, buckets


def _feat(text):
    f = features(text, _VOCAB, _BUCKETS)
    return np.fromiter(f.keys(), np.int64, len(f)), np.fromiter(f.values(), np.float32, len(f))


def featurize(texts, vocab, buckets):
    with Pool(2, _init, (vocab, buckets)) as pool:
        return pool.map(_feat, texts, chunksize=512)


def bag(feats, idx):
    ids = [feats[i][0] for i in idx]
    offsets = np.cumsum([0] + [len(x) for x in ids[:-1]])
    return (torch.from_numpy(np.concatenate(ids)), torch.from_numpy(offsets.astype(np.int64)),
            torch.from_numpy(np.concatenate([feats[i][1] for i in idx])))


class Model(torch.nn.Module):
    def __init__(self, rows, dims):
        super().__init__()
        self.emb = torch.nn.EmbeddingBag(rows, dims, mode="sum", sparse=True)
        torch.nn.init.normal_(self.emb.weight, std=0.1)
        self.log_scale = torch.nn.Parameter(torch.tensor(math.log(20.0)))

    def forward(self, ids, offsets, weights):
        return torch.nn.functional.normalize(self.emb(ids, offsets, per_sample_weights=weights), dim=-1)


def quantize(weight):
    scale = np.abs(weight).max(1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(weight / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale.astype(np.float32)


def write_model(path, q, scale, vocab_list, buckets, meta):
    header = json.dumps({**meta, "dims": int(q.shape[1]), "buckets": buckets, "vocab": vocab_list}).encode()
    pad = (-(12 + len(header))) % 4
    with open(path, "wb") as f:
        f.write(b"SLEMB001")
        f.write(struct.pack("<I", len(header) + pad))
        f.write(header + b" " * pad)
        f.write(scale.astype("<f4").tobytes())
        f.write(q.tobytes())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs")
    ap.add_argument("out")
    ap.add_argument("--dims", type=int, default=128)
    ap.add_argument("--vocab", type=int, default=30000)
    ap.add_argument("--buckets", type=int, default=4096)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = random.Random(args.seed)

    pairs = [json.loads(l) for l in open(args.pairs)]
    train = [p for p in pairs if not held_out(p["pkg"])]
    test = [p for p in pairs if held_out(p["pkg"])]
    rng.shuffle(test)
    test = test[:EVAL_PAIRS]
    print(f"pairs {len(pairs)} train {len(train)} held-out {len(test)}", flush=True)

    df = collections.Counter()
    for p in train:
        df.update(distinct_terms(p["query"]) | distinct_terms(p["code"]))
    vocab_list = [t for t, c in df.most_common(args.vocab) if c >= 5]
    vocab = {t: i for i, t in enumerate(vocab_list)}
    rows = len(vocab_list) + args.buckets
    print(f"vocab {len(vocab_list)} rows {rows}", flush=True)

    t0 = time.time()
    qf = featurize([p["query"] for p in train], vocab, args.buckets)
    cf = featurize([p["code"] for p in train], vocab, args.buckets)
    print(f"featurized in {time.time() - t0:.0f}s", flush=True)

    model = Model(rows, args.dims)
    opt_sparse = torch.optim.SparseAdam([model.emb.weight], lr=args.lr)
    opt_dense = torch.optim.Adam([model.log_scale], lr=0.01)
    order = list(range(len(train)))
    steps = args.epochs * (len(order) // args.batch)
    step = 0
    for epoch in range(args.epochs):
        rng.shuffle(order)
        total = 0.0
        for s in range(0, len(order) - args.batch + 1, args.batch):
            idx = order[s:s + args.batch]
            for g in opt_sparse.param_groups:  # linear decay
                g["lr"] = args.lr * (1 - step / steps)
            q = model(*bag(qf, idx))
            c = model(*bag(cf, idx))
            logits = q @ c.T * model.log_scale.exp().clamp(max=100)
            target = torch.arange(len(idx))
            loss = (torch.nn.functional.cross_entropy(logits, target) + torch.nn.functional.cross_entropy(logits.T, target)) / 2
            opt_sparse.zero_grad(); opt_dense.zero_grad()
            loss.backward()
            opt_sparse.step(); opt_dense.step()
            total += loss.item(); step += 1
        print(f"epoch {epoch + 1} loss {total / max(1, len(order) // args.batch):.4f} scale {model.log_scale.exp().item():.1f} "
              f"{time.time() - t0:.0f}s", flush=True)

    weight = model.emb.weight.detach().numpy()
    q, scale = quantize(weight)
    os.makedirs(args.out, exist_ok=True)
    meta = {"format": 1, "name": "sightline-builtin", "trained_pairs": len(train), "weighting": "1+ln(tf)",
            "features": "identifier words + whole identifiers + hashed trigrams of OOV words (fnv1a)"}
    write_model(os.path.join(args.out, "builtin.bin"), q, scale, vocab_list, args.buckets, meta)
    result = evaluate(q.astype(np.float32) * scale[:, None], vocab, args.buckets, test)
    result.update({"train_pairs": len(train), "args": vars(args)})
    with open(os.path.join(args.out, "eval.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps({k: result[k] for k in ("model", "bm25", "rrf")}, indent=1))


if __name__ == "__main__":
    main()
