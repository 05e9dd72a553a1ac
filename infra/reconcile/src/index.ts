export { reconcile, defaultDatabases, type ReconcileOptions } from './reconcile.ts';
export { rules, type Rule, type Discrepancy, type Databases, type ReconcileReport } from './report.ts';
export { formatReport } from './format.ts';
export { databasesFrom } from './databases.ts';
