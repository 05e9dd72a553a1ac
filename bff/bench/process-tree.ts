// The devstack's processes and the CPU each has used, read from /proc (bench:wrk, bench:idle).
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

const ticks = 100; // USER_HZ on Linux

/**
 * cpuMs: user + system CPU so far; reads/writes: read- and write-family system calls so far
 * (/proc/<pid>/io syscr, syscw); wakeups: how often the main thread went to sleep waiting and was
 * woken again (/proc/<pid>/status voluntary_ctxt_switches) — for a node process, event-loop wake-ups,
 * and the waits of a synchronous durable write (the embedded servers' journal and fdatasync).
 */
export type Proc = { pid: number; ppid: number; name: string; cpuMs: number; reads: number; writes: number; wakeups: number; rssMb: number; pssMb: number };

/**
 * The proportional set size in MB (/proc/<pid>/smaps_rollup): RSS with each shared page divided
 * among the processes mapping it. Summed over processes, RSS counts node's own code (~35–50 MB of
 * shared pages) once per process; PSS counts it once.
 */
function pss(pid: string): { pssMb: number } {
  try {
    return { pssMb: Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024 };
  } catch {
    return { pssMb: 0 };
  }
}

function syscalls(pid: string): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    return { reads: Number(/syscr: (\d+)/.exec(io)?.[1] ?? 0), writes: Number(/syscw: (\d+)/.exec(io)?.[1] ?? 0) };
  } catch {
    return { reads: 0, writes: 0 }; // not ours to read
  }
}

/** wakeups (see Proc) and the resident memory in MB (VmRSS) from /proc/<pid>/status. */
function status(pid: string): { wakeups: number; rssMb: number } {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { wakeups: Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(text)?.[1] ?? 0), rssMb: Number(/VmRSS:\s+(\d+) kB/.exec(text)?.[1] ?? 0) / 1024 };
  } catch {
    return { wakeups: 0, rssMb: 0 };
  }
}

/** Every process under `root` with its CPU time so far, named by what it runs. */
export function processTree(root: number): Proc[] {
  const all: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      // The devstack runs each child from a compiled file named after it (`.build/<hash>/mongo.mjs`,
      // `apps.mjs` for the shared process, a service's name with DEVSTACK_PROCESSES=each); other
      // processes are named by their folder.
      const compiled = /\.build\/[0-9a-f]+\/([\w-]+)\.mjs/.exec(cmd)?.[1];
      const where = `${readlinkSync(`/proc/${entry}/cwd`)} ${cmd}`;
      const name =
        (compiled && (['kafka', 'mongo', 'redis'].includes(compiled) ? `embedded-${compiled}` : compiled)) ??
        /embedded-(kafka|mongo|redis)/.exec(cmd)?.[0] ??
        (/devstack\/bin\/start\.mjs/.test(cmd) ? 'devstack' : undefined) ??
        /(?:services|infra)\/([\w-]+)(?!.*(?:services|infra)\/)/.exec(where)?.[1] ??
        /\/(bff)\b/.exec(where)?.[1] ??
        cmd.slice(0, 40);
      all.push({ pid: Number(entry), ppid: Number(fields[1]), name, cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks, ...syscalls(entry), ...status(entry), ...pss(entry) });
    } catch {
      // the process ended while we looked
    }
  }
  const mine = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (mine.has(p.pid) || !mine.has(p.ppid)) continue;
      mine.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => mine.has(p.pid));
}

/** Each process's event-loop wake-ups between two readings, per order (or request), busiest first; the rare ones left out. */
export function wakeupsPer(before: readonly Proc[], after: readonly Proc[], count: number): Array<{ name: string; n: number }> {
  return after
    .map((p) => ({ name: p.name, n: (p.wakeups - (before.find((b) => b.pid === p.pid)?.wakeups ?? p.wakeups)) / count }))
    .filter((p) => p.n >= 0.05)
    .sort((a, b) => b.n - a.n);
}

export type CpuRate = { pid: number; name: string; msPerSecond: number };

/** Each process's CPU per second over the next `seconds` (a process started meanwhile counts from then). */
export async function cpuRates(root: number, seconds: number): Promise<{ rates: CpuRate[]; elapsed: number }> {
  const from = processTree(root);
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = (Date.now() - started) / 1000;
  const rates = processTree(root).map((p) => ({ pid: p.pid, name: p.name, msPerSecond: (p.cpuMs - (from.find((f) => f.pid === p.pid)?.cpuMs ?? p.cpuMs)) / elapsed }));
  return { rates, elapsed };
}
