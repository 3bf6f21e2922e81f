/**
 * Questions asked of the resolved graph. Each walks the stored edges level by level (one query
 * per level), so depth 3 costs three queries however large the repository is:
 *
 *   callers / callees         call edges into / out of a definition
 *   dependents / impact       every kind of edge into a definition or file, transitively
 *   dependencies              every edge out of a definition or file
 *
 * A hit keeps the chain of edges that links it to the anchor (`via`), anchor side first.
 */
import type { Confidence, EdgeStatus, Store, StoredLink } from '../store/index.js';

export type Direction = 'in' | 'out';

export interface Hop {
  /** The referencing side (qualified name, or the file path at top level). */
  from: string;
  /** The referenced side. */
  to: string;
  kind: string;
  /** Where the reference is written. */
  path: string;
  line: number;
  confidence: Confidence | null;
}

export interface GraphHit {
  /** The file of the hit. */
  path: string;
  /** The definition the hit is; null for a file-level reference (an import, top-level code) or an unresolved name. */
  symbol: string | null;
  symbolKind: string | null;
  symbolId: number | null;
  fileId: number;
  /** The cited lines: the reference for incoming hits, the definition for outgoing ones. */
  startLine: number;
  endLine: number;
  /** Lines of the references this hit stands for (in the referencing file). */
  lines: number[];
  kind: string;
  depth: number;
  confidence: Confidence | null;
  status: EdgeStatus;
  /** How many definitions the reference could mean (more than one: ambiguous). */
  candidates: number;
  /** Anchor → … → this hit. */
  via: Hop[];
}

export interface Unresolved {
  name: string;
  qualifier: string | null;
  module: string | null;
  kind: string;
  path: string;
  line: number;
}

export interface Walk {
  hits: GraphHit[];
  /** Outgoing references that resolved to nothing indexed (external packages, builtins). */
  unresolved: Unresolved[];
  /** The walk stopped early at this many nodes. */
  truncated: boolean;
}

/** Where a walk starts: definitions, or whole files (their definitions and the file itself). */
export interface Seed {
  symbolIds: number[];
  fileIds: number[];
}

/** A bound on a walk, far above any answer the gate lets through. */
const MAX_NODES = 5000;
/** Base classes / interfaces climbed from a method to the methods it overrides. */
const MAX_OVERRIDE_LEVELS = 3;
const CONFIDENCE_RANK: Record<string, number> = { exact: 0, import: 1, name: 2 };

interface Node {
  key: string;
  hit: GraphHit;
}

function label(symbol: { qualified: string } | null, path: string): string {
  return symbol ? symbol.qualified : path;
}

export function confidenceRank(c: Confidence | null): number {
  return c === null ? 3 : (CONFIDENCE_RANK[c] ?? 3);
}

export class GraphQuery {
  constructor(private readonly store: Store) {}

  /**
   * Incoming: what refers to the seed, then what refers to that, up to `depth`. A file-level
   * reference (an import, top-level code) is a leaf: nothing calls a file.
   */
  incoming(seed: Seed, depth: number, kinds?: string[], overrides = false): Walk {
    const nodes = new Map<string, Node>();
    let frontier: { symbolIds: number[]; fileIds: number[]; via: Map<string, Hop[]> } = {
      ...seed,
      via: new Map(),
    };
    if (overrides) frontier = this.withOverridden(frontier);
    let truncated = false;
    for (let level = 1; level <= depth; level++) {
      const links = [
        ...this.store.edges.linksIntoSymbols(frontier.symbolIds, kinds),
        ...this.store.edges.linksIntoFiles(frontier.fileIds, kinds),
      ];
      const next = { symbolIds: [] as number[], fileIds: [] as number[], via: new Map<string, Hop[]>() };
      const inside = new Set(seed.fileIds);
      for (const link of links) {
        if (link.source && link.target && link.source.id === link.target.id) continue; // recursion
        if (inside.has(link.sourceFile)) continue; // a file's own code is part of the anchor, not a dependent
        const key = link.source ? `s${link.source.id}` : `f${link.sourceFile}`;
        const parentVia = frontier.via.get(link.target ? `s${link.target.id}` : `f${link.targetFile}`) ?? [];
        const seen = admit(nodes, key, link, level);
        if (seen === 'full') {
          truncated = true;
          break;
        }
        if (seen === 'known') continue;
        const hit: GraphHit = {
          path: link.sourcePath,
          symbol: link.source?.qualified ?? null,
          symbolKind: link.source?.kind ?? null,
          symbolId: link.source?.id ?? null,
          fileId: link.sourceFile,
          startLine: link.line,
          endLine: link.line,
          lines: [link.line],
          kind: link.kind,
          depth: level,
          confidence: link.confidence,
          status: link.status,
          candidates: link.candidates,
          via: [...parentVia, hopOf(link)],
        };
        nodes.set(key, { key, hit });
        if (link.source) {
          next.symbolIds.push(link.source.id);
          next.via.set(key, hit.via);
        }
      }
      if (truncated || next.symbolIds.length === 0) break;
      frontier = overrides ? this.withOverridden(next) : next;
    }
    for (const n of nodes.values()) n.hit.lines.sort((a, b) => a - b);
    return { hits: [...nodes.values()].map((n) => n.hit), unresolved: [], truncated };
  }

  /**
   * Adds the methods the frontier's methods override (up the bases, a few levels): a call
   * through the base or interface may run the override, so its callers are callers too. The
   * chain to such a caller starts with an `override` hop.
   */
  private withOverridden<F extends { symbolIds: number[]; via: Map<string, Hop[]> }>(frontier: F): F {
    const symbolIds = new Set(frontier.symbolIds);
    const via = new Map(frontier.via);
    let layer = frontier.symbolIds;
    for (let level = 0; level < MAX_OVERRIDE_LEVELS && layer.length > 0; level++) {
      const next: number[] = [];
      for (const o of this.store.edges.overridden(layer)) {
        if (symbolIds.has(o.base)) continue;
        const hop: Hop = { from: o.methodName, to: o.baseName, kind: 'override', path: o.path, line: o.line, confidence: null };
        via.set(`s${o.base}`, [...(via.get(`s${o.method}`) ?? []), hop]);
        symbolIds.add(o.base);
        next.push(o.base);
      }
      layer = next;
    }
    return { ...frontier, symbolIds: [...symbolIds], via };
  }

  /** Outgoing: what the seed's code refers to, then what that refers to, up to `depth`. */
  outgoing(start: { fileId: number; path: string; startLine?: number; endLine?: number; label: string }, depth: number, kinds?: string[]): Walk {
    const nodes = new Map<string, Node>();
    const unresolved: Unresolved[] = [];
    let frontier = [{ ...start, via: [] as Hop[] }];
    let truncated = false;
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: typeof frontier = [];
      for (const from of frontier) {
        for (const link of this.store.edges.linksFrom(from.fileId, from.startLine, from.endLine, kinds)) {
          if (link.kind === 'namespace') continue;
          if (link.targetFile === null) {
            if (level === 1) unresolved.push(unresolvedOf(link));
            continue;
          }
          if (link.target && link.target.startLine === from.startLine && link.targetFile === from.fileId) continue; // recursion
          const key = link.target ? `s${link.target.id}` : `f${link.targetFile}`;
          const seen = admit(nodes, key, link, level);
          if (seen === 'full') {
            truncated = true;
            break;
          }
          if (seen === 'known') continue;
          const hit = targetHit(link, level, [...from.via, hopOf(link)]);
          nodes.set(key, { key, hit });
          if (link.target) next.push({ fileId: link.targetFile, path: link.targetPath!, startLine: link.target.startLine, endLine: link.target.endLine, label: link.target.qualified, via: hit.via });
        }
        if (truncated) break;
      }
      if (truncated) break;
      frontier = next;
    }
    for (const n of nodes.values()) n.hit.lines.sort((a, b) => a - b);
    return { hits: [...nodes.values()].map((n) => n.hit), unresolved, truncated };
  }
}

/** The step a link makes, from where it is written to what it names. */
function hopOf(link: StoredLink): Hop {
  return {
    from: label(link.source, link.sourcePath),
    to: label(link.target, link.targetPath ?? ''),
    kind: link.kind,
    path: link.sourcePath,
    line: link.line,
    confidence: link.confidence,
  };
}

/**
 * Whether a link reaches a new node: 'known' when it was reached before (at the node's own level
 * the link adds its line and may raise the confidence), 'full' when the walk has no room left.
 */
function admit(nodes: Map<string, Node>, key: string, link: StoredLink, level: number): 'new' | 'known' | 'full' {
  const known = nodes.get(key);
  if (known) {
    if (known.hit.depth === level) {
      if (!known.hit.lines.includes(link.line)) known.hit.lines.push(link.line);
      if (confidenceRank(link.confidence) < confidenceRank(known.hit.confidence)) known.hit.confidence = link.confidence;
    }
    return 'known';
  }
  return nodes.size >= MAX_NODES ? 'full' : 'new';
}

function targetHit(link: StoredLink, depth: number, via: Hop[]): GraphHit {
  return {
    path: link.targetPath!,
    symbol: link.target?.qualified ?? null,
    symbolKind: link.target?.kind ?? null,
    symbolId: link.target?.id ?? null,
    fileId: link.targetFile!,
    startLine: link.target?.startLine ?? 1,
    endLine: link.target?.endLine ?? 1,
    lines: [link.line],
    kind: link.kind,
    depth,
    confidence: link.confidence,
    status: link.status,
    candidates: link.candidates,
    via,
  };
}

function unresolvedOf(link: StoredLink): Unresolved {
  return { name: link.name, qualifier: link.qualifier, module: link.module, kind: link.kind, path: link.sourcePath, line: link.line };
}
