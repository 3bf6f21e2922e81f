/**
 * The usage component of the team database: per minute and tool, the sums
 * budget/usage.ts keeps in memory, added to by every server. Minute rows keep
 * the table small however many calls a team makes; the window is read to
 * the minute.
 */
import type { SchemaComponent } from './migrate.js';

const V1 = `
CREATE TABLE usage_minutes (
  minute_ms             BIGINT NOT NULL,
  tool                  TEXT NOT NULL,
  calls                 BIGINT NOT NULL,
  response_tokens       BIGINT NOT NULL,
  reads_replaced_tokens BIGINT NOT NULL,
  PRIMARY KEY (minute_ms, tool)
);
`;

export const USAGE_COMPONENT: SchemaComponent = { name: 'usage', migrations: [V1] };
