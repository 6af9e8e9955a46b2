// The plan catalogue is domain data (src/domain/plans/plans.ts): ports and ops read it without importing accounts/.
export * from '../domain/plans/plans.js';
