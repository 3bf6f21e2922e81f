/**
 * What the caller of `context` already holds, and so is not sent again:
 * units whose receipts it sends back in `seen` or that its session was sent
 * before, and files it claims whole (`known` path@hash), honoured only for
 * the version that was delivered whole. After packing, the session learns
 * what it now holds.
 */
import { parseKnown, wholeFileReceipt, type ReceiptBook } from '../budget/index.js';
import { checkSession, usageError } from '../errors/index.js';
import type { Store, StoredFile } from '../store/index.js';
import type { ContextEntry, ContextEnvelope } from './context.js';
import { chunkUnits, type Unit } from './context-units.js';
import { bestEffort } from './gated.js';
import type { Repo } from './repo.js';

export type KnownIgnored = NonNullable<ContextEnvelope['known_ignored']>;

/** Each file version's chunk units, read once per bundle. */
export class UnitCache {
  private readonly byPath = new Map<string, Unit[]>();

  constructor(private readonly store: Store) {}

  of(file: StoredFile): Unit[] {
    let units = this.byPath.get(file.path);
    if (!units) this.byPath.set(file.path, (units = chunkUnits(this.store, file)));
    return units;
  }
}

export function receiptBook(repo: Repo, session: string | undefined, seen: string[]): ReceiptBook {
  const held = new Set(seen);
  if (!session) return { holds: (r) => held.has(r), record: () => {} };
  checkSession(session);
  const sessions = repo.sessions;
  bestEffort(() => sessions.touch(session));
  return { holds: (r) => held.has(r) || sessions.holds(session, r), record: (rs) => bestEffort(() => sessions.record(session, rs)) };
}

/** The `known` claims: the paths the caller holds whole, and the claims not honoured with why. */
export function honourClaims(store: Store, known: string[], book: ReceiptBook, units: UnitCache): { whole: Set<string>; ignored: KnownIgnored } {
  const claims = new Map<string, string>();
  for (const claim of known) {
    const parsed = parseKnown(claim);
    if (!parsed) throw usageError(`known claims are path@content_hash (got "${claim}")`);
    claims.set(parsed.path, parsed.hash);
  }
  const holdsWhole = (file: StoredFile) => book.holds(wholeFileReceipt(file.path, file.digest)) || units.of(file).every((u) => book.holds(u.receipt));
  const whole = new Set<string>();
  const ignored: KnownIgnored = [];
  for (const [path, hash] of claims) {
    const file = store.files.get(path);
    const reason = !file ? 'not_indexed' : file.digest !== hash ? 'version_changed' : !holdsWhole(file) ? 'not_delivered_whole' : null;
    if (reason) ignored.push({ claim: `${path}@${hash}`, reason });
    else whole.add(path);
  }
  return { whole, ignored };
}

/** With a session, remembers each delivered unit, and each version the caller now holds whole. */
export function recordDelivered(book: ReceiptBook, store: Store, entries: ContextEntry[], units: UnitCache, session: string | undefined): void {
  if (!session) return;
  const delivered = new Set(entries.flatMap((e) => (e.units ?? []).map((u) => u.receipt)));
  const receipts = [...delivered];
  for (const e of entries) {
    if (!e.units?.length) continue;
    const all = units.of(store.files.get(e.path)!);
    if (all.every((u) => delivered.has(u.receipt) || book.holds(u.receipt))) receipts.push(wholeFileReceipt(e.path, e.content_hash));
  }
  book.record(receipts);
}
