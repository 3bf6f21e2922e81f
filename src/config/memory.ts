/**
 * What `maxMemoryMB` buys: the sizes an index pass holds at once, derived
 * from the one ceiling so a smaller machine turns one knob, not ten. Every
 * figure is proportional to the ceiling and clamped; at the default (512 MB)
 * the batch, the files in flight, the embedding page and the SQLite cache
 * equal the constants they replaced, tuned on small repositories; the worker
 * heap cap (160 MB before) and word cache (200,000 entries) are smaller.
 *
 * What each figure bounds, at 512 MB (measured on a 53,000-file tree,
 * docs/benchmarks.md#memory-at-scale):
 *   - the graph page: pending edges read, answered and cached at once
 *     (10,000 edges; a page's view, symbols by name included, and the garbage
 *     it leaves: 100,000-edge pages took a cold pass to 1.24 GB, 10,000 to
 *     1.0 GB; resolving alone, 480 MB against 300 MB, and no slower);
 *   - the graph thread's heap cap (160 MB), which makes V8 collect
 *     resolution's garbage at the cap instead of growing the main thread's
 *     heap toward its own limit (a share of the machine): with it the cold
 *     pass peaked at 535 MiB, in preparation, and resolution stayed under
 *     400 MiB;
 *   - each prepare worker's heap cap and its word and token caches (two
 *     workers, 128 MB cap each);
 *   - files prepared but not yet written, and files per write transaction;
 *   - chunks per embedding message, two in flight;
 *   - SQLite's page cache of each writing connection (16 MB);
 *   - what each connection, a server's readers included, keeps between
 *     questions: file texts (16 MiB) and the postings of the terms asked
 *     for (200,000 chunk ids, each with its score; the places of a quarter
 *     as many hits);
 *   - the directory listings a process keeps between walks of a tree,
 *     and the file stamps it keeps between passes (100,000 files each).
 * The rest — Node itself, the grammars, the model, a pass's list of files —
 * is fixed, which is why the ceiling has a floor.
 */
export interface MemoryPlan {
  /** Prepared files written per transaction. */
  batchFiles: number;
  /** Files being prepared (read, parsed, counted) at once across the workers. */
  filesInFlight: number;
  /** Heap cap of each prepare worker thread, in MB. */
  workerHeapMB: number;
  /** Identifiers whose split words a thread keeps (terms/code-terms.ts). */
  wordCacheEntries: number;
  /** Token-count pieces a thread keeps (budget/tokens.ts). */
  pieceCacheEntries: number;
  /** Chunks per message to the embedding thread. */
  embedPage: number;
  /** Pending edges resolved per page (graph/resolve.ts). */
  graphPageEdges: number;
  /** Heap cap of the graph resolution thread, in MB (graph/thread.ts). */
  graphHeapMB: number;
  /** SQLite page cache of the index connection, in KiB. */
  sqliteCacheKiB: number;
  /** File text a connection keeps between questions, in Ki of packed bytes and unpacked UTF-16 code units together (store/chunk-text.ts). */
  keptTextKi: number;
  /** Chunk ids a connection keeps of the terms questions looked up, with their scores (store/term-postings.ts). */
  keptTermChunkIds: number;
  /** Files a repository's kept directory listings name (walk/listings.ts), and its file stamps kept between passes (store/files.ts). */
  listedFiles: number;
}

/** The ceiling the figures below are stated at: each is `at512 * ceiling / 512`, clamped. */
const REFERENCE_MB = 512;

function scaled(ceilingMB: number, at512: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, Math.round((at512 * ceilingMB) / REFERENCE_MB)));
}

export function memoryPlan(maxMemoryMB: number): MemoryPlan {
  return {
    batchFiles: scaled(maxMemoryMB, 64, 8, 512),
    filesInFlight: scaled(maxMemoryMB, 8, 2, 32),
    workerHeapMB: scaled(maxMemoryMB, 128, 48, 512),
    wordCacheEntries: scaled(maxMemoryMB, 100_000, 10_000, 1_000_000),
    pieceCacheEntries: scaled(maxMemoryMB, 50_000, 5_000, 500_000),
    embedPage: scaled(maxMemoryMB, 256, 32, 2_048),
    graphPageEdges: scaled(maxMemoryMB, 10_000, 2_000, 200_000),
    graphHeapMB: scaled(maxMemoryMB, 160, 48, 1_024),
    sqliteCacheKiB: scaled(maxMemoryMB, 16_000, 2_000, 256_000),
    keptTextKi: scaled(maxMemoryMB, 16_384, 1_024, 262_144),
    keptTermChunkIds: scaled(maxMemoryMB, 200_000, 20_000, 2_000_000),
    listedFiles: scaled(maxMemoryMB, 100_000, 10_000, 1_000_000),
  };
}
