/**
 * Public surface of the token budgets shared by the scaffold, the tools and
 * the agents: o200k token estimates (from above) and fitting whole
 * units within a budget with one truncation line.
 */
export { DEFAULT_BUDGET_TOKENS, estimateTokens, fitUnits, LineAccumulator, lineCost, truncationLine, type BudgetLine, type CutCount } from './token-budget.js';
