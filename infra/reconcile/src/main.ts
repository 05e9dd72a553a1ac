// `npm run reconcile` (root script): pairs every money movement with its cause across the services'
// databases, read-only. Exit 0 clean, 1 discrepancies, 2 configuration error (or could not run).
import { databasesFrom } from './databases.ts';
import { formatReport } from './format.ts';
import { defaultDatabases, reconcile } from './reconcile.ts';
import type { Databases } from './report.ts';

/** The devstack's embedded MongoDB on its preferred port (infra/devstack, components.ts). */
const devstackMongo = 'mongodb://127.0.0.1:27117/?directConnection=true';

const help = `usage: npm run reconcile [-- --help]

Reads the services' databases on one MongoDB cluster (never writes) and pairs every money
movement with its cause: order debits with orders, refunds with debits, referral credits with
delivered orders, top-up credits with approved top-ups and deposits, forwards with paid orders.

  MONGO_URL                 the cluster (default ${devstackMongo}, the devstack's embedded server;
                            a URL naming a database is fine, the path is ignored)
  RECONCILE_DATABASES       database names, e.g. wallet=wallet,order=order,fulfillment=fulfillment,auth=auth
                            (default: ${Object.entries(defaultDatabases).map(([k, v]) => `${k}=${v}`).join(',')}, as the devstack names them)
  RECONCILE_LIMIT           discrepancies printed (default 1000; all are counted)

exit 0: no discrepancy · 1: discrepancies (listed) · 2: configuration error or the check could not run
`;

async function main(): Promise<number> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(help);
    return 0;
  }
  let url: string;
  let databases: Partial<Databases>;
  let limit: number;
  try {
    url = process.env.MONGO_URL?.trim() || devstackMongo;
    if (!/^mongodb(\+srv)?:\/\//.test(url)) throw new Error('MONGO_URL must start with mongodb:// or mongodb+srv://');
    databases = databasesFrom(process.env.RECONCILE_DATABASES);
    limit = Number(process.env.RECONCILE_LIMIT ?? '1000');
    if (!Number.isSafeInteger(limit) || limit < 0) throw new Error('RECONCILE_LIMIT must be a whole number');
  } catch (error) {
    process.stderr.write(`reconcile: ${(error as Error).message}\n\n${help}`);
    return 2;
  }
  try {
    const report = await reconcile({ url, databases, limit });
    for (const line of formatReport(report)) process.stdout.write(`${line}\n`);
    return report.total === 0 ? 0 : 1;
  } catch (error) {
    process.stderr.write(`reconcile could not run against ${url.replace(/\/\/[^@/]*@/, '//***@')}: ${(error as Error).message}\n`);
    return 2;
  }
}

process.exitCode = await main();
