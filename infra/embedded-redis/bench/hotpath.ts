// In-process cost of our own code per request, without the network: parse a batch of RESP
// requests, dispatch them, encode the replies. Shows how much of redis-benchmark's time is ours.
import { execute } from '../src/dispatch.ts';
import { RequestParser } from '../src/resp/parser.ts';
import { ServerState, makeClientFields } from '../src/state.ts';

function encode(args: string[]): string {
  let s = '*' + args.length + '\r\n';
  for (const a of args) s += '$' + a.length + '\r\n' + a + '\r\n';
  return s;
}

export function measureHotPath(requests = 200000): { op: string; nsPerRequest: number }[] {
  const state = new ServerState();
  const client = makeClientFields(1, 'bench', 'bench', state.dbs[0]!, () => undefined);
  const results: { op: string; nsPerRequest: number }[] = [];
  const value = 'x'.repeat(3); // redis-benchmark's default payload size
  for (const op of ['SET', 'GET']) {
    // 16 requests per chunk, like redis-benchmark -P 16.
    let chunkText = '';
    // 16-byte keys like redis-benchmark's "key:__rand_int__".
    const key = (i: number): string => `key:${String(i).padStart(12, '0')}`;
    for (let i = 0; i < 16; i++) chunkText += encode(op === 'SET' ? ['SET', key(i), value] : ['GET', key(i)]);
    const chunk = Buffer.from(chunkText, 'latin1');
    const parser = new RequestParser();
    const reqs: string[][] = [];
    const rounds = Math.ceil(requests / 16);
    let bytes = 0;
    // Best of several rounds (the first one warms the JIT): on a shared machine the minimum is
    // the figure least disturbed by other processes.
    let best = Infinity;
    for (let round = 0; round < 6; round++) {
      const t0 = process.hrtime.bigint();
      for (let r = 0; r < rounds; r++) {
        parser.feed(chunk, reqs);
        for (const req of reqs) execute(client, req, state);
        reqs.length = 0;
        bytes += client.reply.take().length;
      }
      const ns = Number(process.hrtime.bigint() - t0);
      if (round > 0) best = Math.min(best, ns / (rounds * 16));
    }
    results.push({ op, nsPerRequest: best });
    if (bytes === 0) throw new Error('no replies produced');
  }
  return results;
}

/**
 * LPUSH+LPOP (head) and RPUSH+RPOP (tail) pairs on a list that already holds `size` elements:
 * with constant-time ends the cost per pair must not grow with the list.
 */
export function measureListEnds(sizes = [0, 1000, 300000]): { size: number; headNs: number; tailNs: number }[] {
  const out: { size: number; headNs: number; tailNs: number }[] = [];
  for (const size of sizes) {
    const state = new ServerState();
    const client = makeClientFields(1, 'bench', 'bench', state.dbs[0]!, () => undefined);
    const run = (argv: string[]): void => {
      execute(client, argv, state);
    };
    for (let i = 0; i < size; i++) run(['RPUSH', 'q', 'x']);
    client.reply.take();
    const pairs = 50000;
    const time = (push: string, pop: string): number => {
      let best = Infinity;
      for (let round = 0; round < 4; round++) {
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < pairs; i++) {
          run([push, 'q', 'item']);
          run([pop, 'q']);
        }
        client.reply.take();
        const ns = Number(process.hrtime.bigint() - t0) / pairs;
        if (round > 0) best = Math.min(best, ns);
      }
      return best;
    };
    out.push({ size, headNs: time('LPUSH', 'LPOP'), tailNs: time('RPUSH', 'RPOP') });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of measureHotPath()) {
    console.log(`${r.op}: ${r.nsPerRequest.toFixed(0)} ns/request in parser+dispatch+reply (${Math.round(1e9 / r.nsPerRequest).toLocaleString('en-US')} req/s if the network were free)`);
  }
  for (const r of measureListEnds()) {
    console.log(`list of ${r.size}: LPUSH+LPOP ${r.headNs.toFixed(0)} ns/pair, RPUSH+RPOP ${r.tailNs.toFixed(0)} ns/pair`);
  }
}
