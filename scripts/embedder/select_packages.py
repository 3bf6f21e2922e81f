#!/usr/bin/env python3
"""Chooses the Debian packages the builtin embedder is trained on.

Reads `apt-cache dumpavail` on stdin and prints `name=version` lines: a seeded
sample of python3-*, golang-*-dev, librust-*-dev and node-* packages (small
enough to download), plus the JDK sources. Every package whose name matches a
benchmark repository (../shared/bench/README.md) is excluded here, and the
miner drops any file whose path names one, so vendored copies are excluded too.
"""
import random
import re
import sys

# Benchmark repositories and the packages that contain them: never trained on.
EXCLUDE = re.compile(
    r"flask|requests|pytest|sphinx|pylint|xarray|seaborn|grpc|zeromicro|go-zero|tokio|tracing|serde|rayon"
    r"|bytes|globset|grep|ignore|(^|-)bat(-|$)|fd-find|ripgrep|axios|express|dayjs|darkreader|readme-stats"
    r"|gson|jackson|mockito|^python3-pip|virtualenv"
)
FAMILIES = [  # (name pattern, sample size, max installed KiB)
    (re.compile(r"^python3-[a-z0-9.-]+$"), 700, 30_000),
    (re.compile(r"^golang-[a-z0-9.-]+-dev$"), 700, 20_000),
    (re.compile(r"^librust-[a-z0-9-]+-dev$"), 900, 10_000),
    (re.compile(r"^node-[a-z0-9.-]+$"), 500, 10_000),
]
# The random node-* sample ships few doc comments (most are compiled); these
# JSDoc-rich JavaScript libraries were added by hand. None is a benchmark repository.
ALWAYS = ["openjdk-17-source"] + [
    "node-lodash", "node-underscore", "node-moment", "node-async", "node-bluebird", "node-ramda", "node-d3",
    "libjs-three", "node-yargs", "node-commander", "node-immutable", "node-acorn", "node-esprima", "node-jquery",
    "node-chart.js", "node-highlight.js", "node-marked", "node-markdown-it", "node-vue", "node-react", "node-ws",
    "node-got", "node-undici", "node-sinon", "node-ajv", "node-uglify-js", "node-terser", "node-babel7",
    "node-postcss", "node-less",
]


def packages(text):
    for block in text.split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z-]+): (.*)$", block, re.M))
        if "Package" in fields:
            yield fields


def main():
    seen = {}
    for p in packages(sys.stdin.read()):
        name = p["Package"]
        if name not in seen:
            seen[name] = (p.get("Version", ""), int(p.get("Installed-Size", "0") or 0), p.get("Architecture", ""))
    rng = random.Random(20240601)
    chosen = list(ALWAYS)
    for pattern, count, cap in FAMILIES:
        pool = sorted(
            n for n, (_, size, _) in seen.items()
            if pattern.match(n) and not EXCLUDE.search(n) and 0 < size <= cap
            and not n.endswith(("-doc", "-dbg", "-dbgsym"))
        )
        chosen += sorted(rng.sample(pool, min(count, len(pool))))
    for name in dict.fromkeys(chosen):  # a hand-picked name may also be sampled
        print(f"{name}={seen[name][0]}")


if __name__ == "__main__":
    main()
