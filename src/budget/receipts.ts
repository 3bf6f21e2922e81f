/**
 * Receipts: short opaque names for delivered units of content, stable for a
 * given file version, so a caller can say "I already hold this" and a
 * session can remember what it was sent. A whole-file receipt stands for
 * every unit of one version; it exists only once that version was delivered
 * whole, which is what lets a `path@hash` claim be honoured.
 */
import { digest } from '../walk/index.js';

const RECEIPT_HEX = 12;

/** A unit of one version of a file: `unitKey` names it within the version (a line span, `outline`). */
export function receiptFor(path: string, contentHash: string, unitKey: string): string {
  return digest(`${path}\0${contentHash}\0${unitKey}`).slice(0, RECEIPT_HEX);
}

export function wholeFileReceipt(path: string, contentHash: string): string {
  return receiptFor(path, contentHash, 'whole');
}

/** `path@hash` → its parts (the hash follows the last `@`), or null when malformed. */
export function parseKnown(claim: string): { path: string; hash: string } | null {
  const at = claim.lastIndexOf('@');
  if (at <= 0 || at === claim.length - 1) return null;
  return { path: claim.slice(0, at), hash: claim.slice(at + 1) };
}

/** What the caller already holds: receipts it sent back plus, with a session, every receipt sent before. */
export interface ReceiptBook {
  holds(receipt: string): boolean;
  /** Remembers receipts delivered now (kept for the session; a no-op without one). */
  record(receipts: string[]): void;
}
