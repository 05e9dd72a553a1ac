import { pathToFileURL } from 'node:url';
import { connectMongo, createLogger, env, loadConfig } from '@smm/platform';
import { checkLedger } from './use-cases/check-ledger.ts';

export { checkLedger, type LedgerReport } from './use-cases/check-ledger.ts';

/**
 * `npm run ledger:check -w @smm/wallet` (MONGO_URL = the wallet's database): prints a summary and
 * every violation, exits 0 when the books hold, 1 when they do not, 2 on a configuration error.
 */
async function main(): Promise<void> {
  const config = loadConfig({ MONGO_URL: env.url(['mongodb', 'mongodb+srv']), LOG_LEVEL: env.logLevel().default('warn') });
  const logger = createLogger({ service: 'wallet-ledger-check', level: config.LOG_LEVEL });
  const connection = await connectMongo(config.MONGO_URL, logger, 'wallet-ledger-check');
  try {
    const started = Date.now();
    const report = await checkLedger(connection);
    const shown = report.violations.slice(0, 50);
    for (const v of shown) console.log(`VIOLATION ${v.rule} user=${v.userId}: ${v.detail}`);
    if (report.violations.length > shown.length) console.log(`... and ${report.violations.length - shown.length} more`);
    console.log(
      `ledger check ${report.ok ? 'OK' : 'FAILED'}: ${report.accounts} accounts, ${report.entries} entries, ` +
        `total balance ${report.totalBalanceDeci} deci-won, ${report.violations.length} violations (${Date.now() - started} ms)`,
    );
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await connection.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`ledger check could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
