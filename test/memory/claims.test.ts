/** The claims contract (claims-contract.ts) against real SQLite: memory in the repository's index file. */
import { claimsContract } from './claims-contract.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo({ 'src/a.ts': 'export const a = 1;\n' });
claimsContract(() => fixture.repo.memory);
