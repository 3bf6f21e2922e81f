/** Citation status of cited locations: verified, stale or unverifiable (see probe.ts). */
export {
  CitationProbe,
  MAX_CONFIRMING_READS,
  OutdatedCitations,
  type Citation,
  type CitationProbeOptions,
  type CitationStatus,
  type IndexedFile,
} from './probe.js';
