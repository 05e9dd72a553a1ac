// The CLI as the devstack launcher uses it, checked with redis-cli; plus persistence across
// restarts (clean SIGTERM and the periodic snapshot after a SIGKILL) and bad-option handling.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAIN, killAll, redisCli, runToExit, spawnServer } from './support/cli.ts';
import { REAL_PORT, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
const PTY_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'support/redis-cli-pty.py');
const dirs: string[] = [];
function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-test-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  killAll();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('CLI', () => {
  it('logs one listening line, serves redis-cli (with a real expiry), and keeps data across a SIGTERM restart', async () => {
    const dir = tmpDir();
    const s = await spawnServer(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir]);
    const listening = s.stdoutLines.filter((l) => l.includes('"msg":"listening"'));
    expect(listening).toHaveLength(1);
    expect(JSON.parse(listening[0]!)).toMatchObject({ msg: 'listening', port: s.port });

    expect(await redisCli(s.port, ['PING'])).toBe('PONG');
    expect(await redisCli(s.port, ['SET', 'otp:010', '4821', 'EX', '2'])).toBe('OK');
    expect(['1', '2']).toContain(await redisCli(s.port, ['TTL', 'otp:010']));
    expect(await redisCli(s.port, ['GET', 'otp:010'])).toBe('4821');
    expect(await redisCli(s.port, ['SET', 'keep', 'me', 'EX', '1000'])).toBe('OK');
    expect(await redisCli(s.port, ['HSET', 'user:1', 'name', '김철수', 'tier', 'gold'])).toBe('2');
    expect(await redisCli(s.port, ['ZADD', 'rank', '10', 'a', '20', 'b'])).toBe('2');
    expect(await redisCli(s.port, ['RPUSH', 'q', 'x', 'y'])).toBe('2');
    expect(await redisCli(s.port, ['SADD', 's', 'm'])).toBe('1');
    expect(await redisCli(s.port, ['-n', '5', 'SET', 'in-db5', 'v'])).toBe('OK');
    expect(await redisCli(s.port, ['--no-raw', 'FOO'])).toBe(
      "(error) ERR unknown command 'FOO', with args beginning with: ",
    );
    await sleep(2200);
    expect(await redisCli(s.port, ['GET', 'otp:010'])).toBe('');
    expect(await redisCli(s.port, ['--no-raw', 'TTL', 'otp:010'])).toBe('(integer) -2');

    expect(await s.stop('SIGTERM')).toBe(0);
    expect(fs.existsSync(path.join(dir, 'dump.ndjson'))).toBe(true);

    const s2 = await spawnServer(['--port', '0', '--data-dir', dir]);
    expect(await redisCli(s2.port, ['GET', 'keep'])).toBe('me');
    expect(Number(await redisCli(s2.port, ['TTL', 'keep']))).toBeGreaterThan(990);
    expect(await redisCli(s2.port, ['HGET', 'user:1', 'name'])).toBe('김철수');
    expect(await redisCli(s2.port, ['ZRANGE', 'rank', '0', '-1', 'WITHSCORES'])).toBe('a\n10\nb\n20');
    expect(await redisCli(s2.port, ['LRANGE', 'q', '0', '-1'])).toBe('x\ny');
    expect(await redisCli(s2.port, ['SMEMBERS', 's'])).toBe('m');
    expect(await redisCli(s2.port, ['-n', '5', 'GET', 'in-db5'])).toBe('v');
    expect(await redisCli(s2.port, ['EXISTS', 'otp:010'])).toBe('0');
    expect(await s2.stop('SIGINT')).toBe(0);
  });

  it('writes a periodic snapshot when dirty, so even a SIGKILL keeps recent writes', async () => {
    const dir = tmpDir();
    const s = await spawnServer(['--port', '0', '--data-dir', dir, '--snapshot-interval-ms', '100']);
    expect(await redisCli(s.port, ['SET', 'order:1', 'paid'])).toBe('OK');
    await sleep(600);
    await s.stop('SIGKILL');
    const s2 = await spawnServer(['--port', '0', '--data-dir', dir]);
    expect(await redisCli(s2.port, ['GET', 'order:1'])).toBe('paid');
    expect(await s2.stop()).toBe(0);
  });

  it('without a data dir keeps nothing', async () => {
    const s = await spawnServer(['--port', '0'], { EMBEDDED_REDIS_DATA_DIR: '' });
    expect(await redisCli(s.port, ['SET', 'x', '1'])).toBe('OK');
    expect(await redisCli(s.port, ['--no-raw', 'SAVE'])).toMatch(/^\(error\) ERR/);
    expect(await s.stop()).toBe(0);
    const s2 = await spawnServer(['--port', '0']);
    expect(await redisCli(s2.port, ['EXISTS', 'x'])).toBe('0');
    expect(await s2.stop()).toBe(0);
  });

  it('reads its options from environment variables', async () => {
    const dir = tmpDir();
    const s = await spawnServer([], { EMBEDDED_REDIS_PORT: '0', EMBEDDED_REDIS_DATA_DIR: dir });
    expect(await redisCli(s.port, ['SET', 'e', '1'])).toBe('OK');
    expect(await s.stop()).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'dump.ndjson'), 'utf8')).toContain('"k":"e"');
  });

  const noStack = (stderr: string): void => {
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  };

  it('exits 2 with one clear line for a bad port', async () => {
    const r = await runToExit(['--port', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid port 'abc'/);
    noStack(r.stderr);
  });

  it('exits 2 with one clear line when the port is in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    const r = await runToExit(['--port', String(port)]);
    blocker.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`port ${port} .*already in use`));
    noStack(r.stderr);
  });

  it('exits 2 with one clear line when the data dir is not writable', async () => {
    const file = path.join(tmpDir(), 'a-file');
    fs.writeFileSync(file, 'x');
    const r = await runToExit(['--port', '0', '--data-dir', path.join(file, 'sub')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/data dir .* is not writable/);
    noStack(r.stderr);
  });

  it('refuses a data dir another live server holds (exit 2), and takes over a stale lock', async () => {
    const dir = tmpDir();
    const first = await spawnServer(['--port', '0', '--data-dir', dir]);
    const r = await runToExit(['--port', '0', '--data-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`is in use by another embedded-redis \\(pid ${first.child.pid}\\)`));
    noStack(r.stderr);
    expect(await first.stop()).toBe(0);
    expect(fs.existsSync(path.join(dir, 'embedded-redis.lock'))).toBe(false);
    fs.writeFileSync(path.join(dir, 'embedded-redis.lock'), '2147483646\n');
    const again = await spawnServer(['--port', '0', '--data-dir', dir]);
    expect(await redisCli(again.port, ['PING'])).toBe('PONG');
    expect(await again.stop()).toBe(0);
  });

  it('takes over the lock of a server SIGKILLed a moment ago that its parent has not yet waited for', { timeout: 60_000 }, async () => {
    // The outside check restarted one second after a SIGKILL and got exit 2, "in use by ... (pid
    // <the dead pid>)": the dead server was a zombie, which kill(pid, 0) still finds.
    const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'support/kill-restart.py');
    const out = await new Promise<string>((resolve, reject) => {
      execFile('/usr/bin/python3', [script, process.execPath, MAIN, tmpDir()], { timeout: 50_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    const r = JSON.parse(out) as { firstPid: number; firstState: string; port: number | null; code: number; stderr: string };
    expect(r.firstState).toBe('Z');
    expect(r.stderr).toBe('');
    expect(r.port).toBeGreaterThan(0);
    expect(r.code).toBe(0);
  });

  it('exits 2 with one clear line for an unknown option or a corrupt snapshot', async () => {
    const r = await runToExit(['--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option --bogus/);
    noStack(r.stderr);
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, 'dump.ndjson'), '{"format":"smm-embedded-redis","version":1}\n{not json\n');
    const r2 = await runToExit(['--port', '0', '--data-dir', dir]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/cannot load snapshot: .*line 2/);
    noStack(r2.stderr);
  });

  it('exits 2 with one clear line for bad AOF options or a damaged append-only file', async () => {
    const r = await runToExit(['--port', '0', '--data-dir', tmpDir(), '--appendfsync', 'sometimes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid appendfsync 'sometimes': expected always, everysec or no/);
    noStack(r.stderr);
    const r2 = await runToExit(['--port', '0', '--appendonly', 'yes'], { EMBEDDED_REDIS_DATA_DIR: '' });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/--appendonly\/--appendfsync need --data-dir/);
    noStack(r2.stderr);
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, 'appendonly.aof.1'), '*1\r\n$4\r\nPING\r\nthis is not RESP\r\n*1\r\n$4\r\nPING\r\n');
    const r3 = await runToExit(['--port', '0', '--data-dir', dir]);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/cannot load snapshot: .*appendonly\.aof\.1 is corrupt at byte 14: expected an array/);
    noStack(r3.stderr);
  });
});

const hasPython = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!hasPython)('interactive redis-cli (through a pty; needs python3)', () => {
  it('starts, shows help from COMMAND DOCS, and runs commands without errors', async () => {
    const s = await spawnServer(['--port', '0']);
    const r = spawnSync(
      'python3',
      [PTY_SCRIPT, String(s.port), 'set greeting 안녕', 'get greeting', 'help set', 'set t 1 px 100000', 'pttl t'],
      { encoding: 'utf8', timeout: 20000 },
    );
    expect(r.status).toBe(0);
    const out = r.stdout;
    expect(out).toContain(`127.0.0.1:${s.port}>`);
    expect(out).toMatch(/^OK$/m);
    expect(out).toContain('"\\xec\\x95\\x88\\xeb\\x85\\x95"');
    expect(out).toMatch(/summary: Set the string value of a key/);
    expect(out).toMatch(/\(integer\) \d+/);
    expect(out).not.toMatch(/\(error\)|ERR /);
    expect(await s.stop()).toBe(0);
  });
});

describe.skipIf(!realUp)('redis-cli output: embedded vs real Redis', () => {
  it('prints the same for the same commands', async () => {
    const s = await spawnServer(['--port', '0']);
    const p = uniquePrefix('cli');
    const script: string[][] = [
      ['SET', `${p}a`, '1', 'EX', '100'],
      ['INCRBY', `${p}a`, '5'],
      ['TTL', `${p}a`],
      ['HSET', `${p}h`, 'f', 'v'],
      ['HGETALL', `${p}h`],
      ['ZADD', `${p}z`, '1.5', 'm'],
      ['ZRANGE', `${p}z`, '0', '-1', 'WITHSCORES'],
      ['GET', `${p}missing`],
      ['LPUSH', `${p}h`, 'x'],
      ['EXPIRE', `${p}a`, '10', 'NX'],
      ['DEL', `${p}a`, `${p}h`, `${p}z`],
    ];
    for (const proto of [['-2'], ['-3']]) {
      for (const cmd of script) {
        const args = [...proto, '-n', '13', '--no-raw', ...cmd];
        expect(await redisCli(s.port, args), cmd.join(' ')).toBe(await redisCli(REAL_PORT, args));
      }
    }
    expect(await s.stop()).toBe(0);
  });
});
if (!realUp) {
  describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — skipped redis-cli comparison`, () => {
    it('redis-cli comparison', () => undefined);
  });
}
