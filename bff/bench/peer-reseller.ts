// The reseller side-by-side.sh (shared peer bench) needs on a running devstack: a member with a big
// balance, an API key and a product, printed as OURS_KEY / OURS_SERVICE.
//   BENCH_BFF_URL=http://127.0.0.1:8282 ADMIN_PASSWORD=… npm run bench:peer-reseller -w @smm/bff
import { prepareReseller } from './stack.ts';

const bffUrl = process.env.BENCH_BFF_URL ?? 'http://127.0.0.1:8282';
const adminPassword = process.env.ADMIN_PASSWORD;
if (!adminPassword) {
  console.error('ADMIN_PASSWORD: the admin password the devstack printed on its first start');
  process.exit(2);
}
const reseller = await prepareReseller({ bffUrl, orderUrl: undefined, adminPassword, stop: async () => undefined });
console.log(`OURS_KEY=${reseller.apiKey} OURS_SERVICE=${reseller.serviceId}`);
