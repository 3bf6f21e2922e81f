/**
 * The sessions component of the team database: store/sessions.ts's tables
 * with a `repo` column (receipts name file versions of one repository), so a
 * session's calls landing on any server share its refusals and receipts.
 */
import type { SchemaComponent } from './migrate.js';

const V1 = `
CREATE TABLE budget_sessions (
  repo          TEXT NOT NULL,
  id            TEXT NOT NULL,
  refusals      INTEGER NOT NULL DEFAULT 0,
  updated_at_ms DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (repo, id)
);
CREATE INDEX budget_sessions_by_age ON budget_sessions(repo, updated_at_ms);
CREATE TABLE budget_receipts (
  repo       TEXT NOT NULL,
  session_id TEXT NOT NULL,
  receipt    TEXT NOT NULL,
  PRIMARY KEY (repo, session_id, receipt),
  FOREIGN KEY (repo, session_id) REFERENCES budget_sessions(repo, id) ON DELETE CASCADE
);
`;

export const SESSIONS_COMPONENT: SchemaComponent = { name: 'sessions', migrations: [V1] };
