"""Feature extraction of the builtin embedder: must match src/embed/features.ts exactly.

A text becomes a bag of features:
  * every ASCII identifier run ([A-Za-z0-9_]+, at most 64 chars) is split into
    lower-cased words at underscores, camelCase humps and letter/digit edges;
    words shorter than 2 chars and pure numbers are dropped;
  * each word is a term, and an identifier of 2+ words also yields its whole
    form (getUserName -> get, user, name, getusername);
  * a term in the vocabulary is one feature; an out-of-vocabulary single word
    falls back to hashed character trigrams of "<word>" (FNV-1a 32-bit into
    BUCKETS rows after the vocabulary), so unseen words still land near
    their spelling.
The weight of a feature is 1 + ln(count) in the text.
"""
import math
import re

IDENT = re.compile(r"[A-Za-z0-9_]+")
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")
MAX_IDENT = 64


def words_of(ident):
    out = []
    for piece in ident.split("_"):
        if piece:
            out.extend(w.lower() for w in CAMEL.split(piece) if w)
    return out


def terms(text):
    """Yields (term, is_single_word) in order."""
    for m in IDENT.finditer(text):
        raw = m.group(0)
        if len(raw) > MAX_IDENT:
            continue
        words = [w for w in words_of(raw) if len(w) >= 2 and not w.isdigit()]
        if len(words) > 1:
            yield "".join(words), False
        for w in words:
            yield w, True


def fnv1a(s):
    h = 0x811C9DC5
    for b in s.encode("utf-8"):
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def trigrams(word):
    w = "<" + word + ">"
    return [w[i:i + 3] for i in range(len(w) - 2)]


def features(text, vocab, buckets):
    """{row: weight} for one text."""
    counts = {}
    v = len(vocab)
    for term, single in terms(text):
        row = vocab.get(term)
        if row is not None:
            counts[row] = counts.get(row, 0) + 1
        elif single:
            for g in trigrams(term):
                r = v + fnv1a(g) % buckets
                counts[r] = counts.get(r, 0) + 1
    return {r: 1.0 + math.log(c) for r, c in counts.items()}
