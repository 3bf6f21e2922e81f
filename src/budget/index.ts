/** Token budgets: exact counting (and, later, the gate and context packing). */
export { countTokens } from './tokens.js';
