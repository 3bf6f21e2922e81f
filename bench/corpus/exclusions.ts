/**
 * Repositories the corpus must never hold: the 26 benchmark sources
 * (shared/bench/README.md) and the SWE-bench repositories named in issue #19.
 * Mining one of them is refused by name.
 */
const BENCHMARK_SOURCES = [
  'BurntSushi/ripgrep', 'anuraghazra/github-readme-stats', 'axios/axios', 'darkreader/darkreader', 'expressjs/express',
  'fasterxml/jackson-core', 'fasterxml/jackson-dataformat-xml', 'google/gson', 'grpc/grpc-go', 'iamkun/dayjs',
  'mockito/mockito', 'mwaskom/seaborn', 'pallets/flask', 'psf/requests', 'pydata/xarray', 'pylint-dev/pylint',
  'pytest-dev/pytest', 'rayon-rs/rayon', 'serde-rs/serde', 'sharkdp/bat', 'sharkdp/fd', 'sphinx-doc/sphinx',
  'tokio-rs/bytes', 'tokio-rs/tokio', 'tokio-rs/tracing', 'zeromicro/go-zero',
];
const SWE_BENCH_OTHERS = ['django/django', 'sympy/sympy', 'scikit-learn/scikit-learn', 'matplotlib/matplotlib', 'astropy/astropy'];

const EXCLUDED: ReadonlySet<string> = new Set([...BENCHMARK_SOURCES, ...SWE_BENCH_OTHERS].map((r) => r.toLowerCase()));

export class ExcludedRepositoryError extends Error {
  constructor(readonly repo: string) {
    super(`${repo} is a benchmark source (shared/bench/README.md) or named in issue #19: it is never mined`);
    this.name = 'ExcludedRepositoryError';
  }
}

export function assertMinable(repo: string): void {
  if (EXCLUDED.has(repo.toLowerCase())) throw new ExcludedRepositoryError(repo);
}
