/**
 * Public surface of the token budgets shared by the scaffold, the tools and
 * the agents: token estimates (about 4 characters each) and fitting whole
 * units within a budget with one truncation line.
 */
export { DEFAULT_BUDGET_TOKENS, estimateTokens, fitUnits, LineAccumulator, lineCost, truncationLine, type BudgetLine, type CutCount } from './token-budget.js';
