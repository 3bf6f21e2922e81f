/**
 * What a chunk's vector is computed from: its breadcrumb, the signature of
 * the definition it belongs to (when that starts above the chunk, so the text
 * would not show it), then the code — whose leading doc comment the chunker
 * keeps with it. The displayed text stays the raw code.
 */

/** Embedding cost grows with length; past this a chunk says nothing new. */
const MAX_CHARS = 6_000;

export function embeddingText(chunk: { breadcrumb: string; text: string; signature?: string | null }): string {
  const head = chunk.signature ? `${chunk.breadcrumb}\n${chunk.signature}\n` : `${chunk.breadcrumb}\n`;
  return (head + chunk.text).slice(0, MAX_CHARS);
}
