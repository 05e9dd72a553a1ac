// Issue 42's comparison, end to end: starts a devstack (as bench:wrk does) and its reseller, empties
// the PHP panel's session table, runs the peer bench's side-by-side.sh (interleaved wrk runs
// of reseller `add` on both systems) and prints both systems' figures per round with the ratios the
// issue's targets are stated in, and whether each target held.
//
// Why the table is emptied: the PHP panel keeps one row per API request in `general_sessions`, an
// unindexed MyISAM table that nothing cleans on Debian, and its speed falls with its size (346–382
// orders/s at one connection right after emptying it, 109 at 90,000 rows; docs/performance.md).
// Without this, two runs compare us with panels of different ages. The rows before and after are
// printed either way.
//
// Needs the peer bench (not part of this repository) set up as its README says (`setup.sh` once,
// `start.sh` after a restart of the machine), and `wrk`.
// Run: PEER_BENCH=<the peer bench's folder> npm run bench:side-by-side -w @smm/bff
//   D (seconds per run, 10), CONNS (connections, "1 16"), PEER_BENCH (required: the folder of
//   side-by-side.sh), PEER_WORK (its work folder, as for its scripts),
//   PEER_URL (its API, http://127.0.0.1:8383/api/v1), PEER_DB (peer_smm), PEER_MYSQL ("mysql -uroot"),
//   PEER_KEEP_SESSIONS=1 (leave the table as it is: to measure the panel as it ages).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareReseller, startDevstack } from './stack.ts';

const peerBench = resolve(process.env.PEER_BENCH ?? fail('PEER_BENCH: the folder of the peer bench (its side-by-side.sh and README)'));
const peerUrl = process.env.PEER_URL ?? 'http://127.0.0.1:8383/api/v1';
const peerDb = process.env.PEER_DB ?? 'peer_smm';
const mysql = (process.env.PEER_MYSQL ?? 'mysql -uroot').split(' ').filter(Boolean);
const seconds = process.env.D ?? '10';
const conns = process.env.CONNS ?? '1 16';
const keepSessions = process.env.PEER_KEEP_SESSIONS === '1';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** One query against the PHP panel's database; its first output line. */
function sql(query: string): string {
  const run = spawnSync(mysql[0]!, [...mysql.slice(1), peerDb, '-N', '-e', query], { encoding: 'utf8' });
  if (run.error || run.status !== 0) fail(`the PHP panel's database did not answer (${mysql.join(' ')} ${peerDb}): ${run.error?.message ?? run.stderr.trim()}`);
  return run.stdout.trim().split('\n')[0] ?? '';
}

const sessionRows = () => Number(sql('SELECT COUNT(*) FROM general_sessions'));

if (!existsSync(join(peerBench, 'side-by-side.sh'))) fail(`no side-by-side.sh in ${peerBench}: set PEER_BENCH to the peer bench's folder`);
const peerAnswers = await fetch(peerUrl, { method: 'POST', body: new URLSearchParams({ key: 'peerkey0123456789abcdef', action: 'balance' }) }).then(
  (r) => r.ok,
  () => false,
);
if (!peerAnswers) fail(`the PHP panel does not answer at ${peerUrl}: set it up or start it (${join(peerBench, 'README.md')})`);

type Result = { rps: number; orderRps: number; p50: number; p99: number };
type Line = { time: string; load: string; round: string; connections: number; system: 'ours' | 'peer'; result: Result };

/** A line of side-by-side.sh: `04:37:49 load=2.14 r1 c=1 peer add RESULT rps=229.5 p50=4.3ms … order_rps=229.5`. */
function parseLine(text: string): Line | null {
  const head = /^(\S+) load=(\S+) (r\d) c=(\d+) (ours|peer) add RESULT (.*)$/.exec(text.trim());
  if (!head) return null;
  const field = (name: string) => {
    const value = new RegExp(`(?:^| )${name}=([0-9.]+)`).exec(head[6]!)?.[1];
    if (value === undefined) throw new Error(`side-by-side.sh printed no ${name}: ${text}`);
    return Number(value);
  };
  return {
    time: head[1]!,
    load: head[2]!,
    round: head[3]!,
    connections: Number(head[4]),
    system: head[5] as 'ours' | 'peer',
    result: { rps: field('rps'), orderRps: field('order_rps'), p50: field('p50'), p99: field('p99') },
  };
}

const stack = await startDevstack();
let lines: Line[] = [];
let rowsBefore = 0;
try {
  const { serviceId, apiKey } = await prepareReseller(stack);
  rowsBefore = sessionRows();
  if (!keepSessions) sql('TRUNCATE general_sessions');
  console.log(`PHP panel's general_sessions: ${rowsBefore} rows${keepSessions ? ', kept' : ', emptied'} before the run`);
  const run = spawnSync('bash', [join(peerBench, 'side-by-side.sh')], {
    env: { ...process.env, OURS_KEY: apiKey, OURS_SERVICE: String(serviceId), OURS_URL: `${stack.bffUrl}/api/v2`, PEER_URL: peerUrl, D: seconds, CONNS: conns },
    encoding: 'utf8',
  });
  if (run.error || run.status !== 0) throw new Error(`side-by-side.sh failed: ${run.error?.message ?? run.stderr}`);
  process.stdout.write(run.stdout);
  lines = run.stdout.split('\n').flatMap((l) => parseLine(l) ?? []);
} finally {
  await stack.stop();
}
console.log(`PHP panel's general_sessions after the run: ${sessionRows()} rows`);

const ms = (x: number) => `${x.toFixed(1)} ms`;
const times = (x: number) => `${x.toFixed(2)}×`;
const verdict = (held: boolean) => (held ? 'met' : 'NOT met');
for (const round of [...new Set(lines.map((l) => l.round))]) {
  for (const connections of [...new Set(lines.map((l) => l.connections))]) {
    const ours = lines.find((l) => l.round === round && l.connections === connections && l.system === 'ours')?.result;
    const peer = lines.find((l) => l.round === round && l.connections === connections && l.system === 'peer')?.result;
    if (!ours || !peer) continue;
    console.log(
      `${round} c=${connections}: ours ${ours.orderRps.toFixed(1)} orders/s, p50 ${ms(ours.p50)}, p99 ${ms(ours.p99)} | PHP panel ${peer.rps.toFixed(1)} answers/s (${peer.orderRps.toFixed(1)} with an order id), p50 ${ms(peer.p50)}, p99 ${ms(peer.p99)}`,
    );
    const answers = ours.orderRps / peer.rps;
    const withId = ours.orderRps / peer.orderRps;
    if (connections === 1) {
      console.log(`   orders/s ${times(withId)} its (target ≥ 1: ${verdict(withId >= 1)}), p50 ${times(ours.p50 / peer.p50)} its (target ≤ 1: ${verdict(ours.p50 <= peer.p50)})`);
    } else {
      const p99 = ours.p99 / peer.p99;
      const answersTarget = connections === 16 ? ` (target ≥ 1.5: ${verdict(answers >= 1.5)})` : '';
      const p99Target = connections === 16 ? ` (target ≤ 2: ${verdict(p99 <= 2)})` : '';
      console.log(`   answers ${times(answers)} its${answersTarget}, orders with an id ${times(withId)}; p99 ${times(p99)} its${p99Target}`);
    }
  }
}
