import type { ReconcileReport } from './report.ts';

/** The report as the CLI prints it: one line per discrepancy, then the databases read and a summary. */
export function formatReport(report: ReconcileReport): string[] {
  const lines = report.discrepancies.map((d) => `DISCREPANCY ${d.rule}${d.userId === undefined ? '' : ` user=${d.userId}`}${d.reference === undefined ? '' : ` ref=${d.reference}`}: ${d.detail}`);
  if (report.total > report.discrepancies.length) lines.push(`... and ${report.total - report.discrepancies.length} more`);
  const { databases: db, counts: c } = report;
  lines.push(`databases read: wallet=${db.wallet} order=${db.order} fulfillment=${db.fulfillment} auth=${db.auth}`);
  lines.push(
    `read ${c.ledgerEntries} ledger entries, ${c.orders} orders, ${c.autoOrders} auto orders, ${c.forwards} forwards, ${c.topUps} top-ups, ` +
      `${c.deposits} matched deposits, ${c.adjustments} adjustments, ${c.referralCredits} referral credits`,
  );
  const rules = Object.entries(report.byRule).map(([rule, n]) => `${rule} ${n}`);
  lines.push(`reconcile ${report.total === 0 ? 'OK' : 'FAILED'}: ${report.total} discrepancies${rules.length > 0 ? ` (${rules.join(', ')})` : ''} in ${report.durationMs} ms`);
  return lines;
}
