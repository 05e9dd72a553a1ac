import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpuSeconds, clock, cpuTicks, longestFirst, nextStartable, vitestCounts } from './schedule.ts';
import { type Task, discoverTasks } from './tasks.ts';

/**
 * `npm test`: every lint, typecheck and test suite of the repository, three at a time on this
 * two-core machine (TEST_JOBS to change: the service suites spend most of their wall time waiting on
 * timers, consumers and child processes — 23–31 % of one core measured, the browser suite 66 % —
 * so two at a time left the cores half idle), longest first by the wall times of the last run, never
 * two heavy suites of one class at once (heavy.json: whole devstacks or a browser; crashing children). Each task's output goes to
 * `.test-logs/<task>.log` and is printed whole when the task ends, so parallel output never
 * interleaves; a table of wall times closes the run. Exit 1 when any task failed.
 *
 * TEST_ONLY=<substring,...> runs only the tasks whose id contains one of them.
 */
const root = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const here = resolve(fileURLToPath(new URL('../', import.meta.url)));
const durationsFile = join(here, 'durations.json');
const config = JSON.parse(readFileSync(join(here, 'heavy.json'), 'utf8')) as { classes: Record<string, string[]> };
const logDir = join(root, '.test-logs');

const jobs = Math.max(1, Number(process.env.TEST_JOBS ?? 3) || 3);
/** A suite still running after this is stopped and counted failed, so CI reports instead of hanging. */
const taskTimeoutMs = Number(process.env.TEST_TASK_TIMEOUT_MS ?? 25 * 60_000);

type Result = { task: Task; ms: number; cpuSeconds: number | null; code: number; timedOut: boolean; counts: ReturnType<typeof vitestCounts> };

function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(durationsFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

const fileOf = (task: Task, ext = 'log') => join(logDir, `${task.id.replace(/[^a-zA-Z0-9._-]+/g, '_')}.${ext}`);

/**
 * bash runs the task and then `times` into a file: the CPU time (user + system) of everything the
 * task ran, to show beside the wall time — on a shared two-core machine wall times are noisy and
 * say nothing of how much of them was waiting. Without bash the task runs directly (no CPU column).
 */
const bash = ['/bin/bash', '/usr/bin/bash'].find((path) => existsSync(path));
const machineTicks = () => {
  try {
    return cpuTicks(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
};

function run(task: Task): Promise<Result> {
  const started = Date.now();
  const log = createWriteStream(fileOf(task));
  let output = '';
  const cpuFile = fileOf(task, 'cpu');
  rmSync(cpuFile, { force: true });
  const [file, ...args] = bash ? [bash, '-c', '"$@"; code=$?; times > "$0"; exit $code', cpuFile, ...task.command] : task.command;
  const child: ChildProcess = spawn(file!, args, {
    cwd: task.cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so a timeout stops its children too
  });
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, taskTimeoutMs);
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      log.end();
      const ms = Date.now() - started;
      let cpuSeconds: number | null = null;
      try {
        cpuSeconds = childCpuSeconds(readFileSync(cpuFile, 'utf8'));
      } catch {
        // killed before `times`, or run without bash
      }
      const result: Result = { task, ms, cpuSeconds, code: code ?? (signal ? 1 : 0), timedOut, counts: vitestCounts(output) };
      const verdict = result.code === 0 ? 'passed' : timedOut ? `TIMED OUT after ${clock(taskTimeoutMs)}` : `FAILED (exit ${result.code})`;
      process.stdout.write(`\n===== ${task.id}: ${verdict} in ${clock(ms)}${cpuSeconds === null ? '' : ` (CPU ${clock(cpuSeconds * 1000)})`} =====\n${output}${output.endsWith('\n') ? '' : '\n'}===== end of ${task.id} =====\n`);
      done(result);
    });
  });
}

async function main(): Promise<void> {
  mkdirSync(logDir, { recursive: true });
  const only = (process.env.TEST_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const all = discoverTasks(root, config.classes);
  const selected = only.length > 0 ? all.filter((t) => only.some((o) => t.id.includes(o))) : all;
  const durations = readDurations();
  const waiting = longestFirst(selected, durations);
  const running: Task[] = [];
  const results: Result[] = [];
  const started = Date.now();
  const ticksAtStart = machineTicks();
  console.log(`test run: ${selected.length} tasks, ${jobs} at a time (logs in .test-logs/)`);
  const heartbeat = setInterval(() => {
    console.log(`[${clock(Date.now() - started)}] running: ${running.map((t) => t.id).join(', ') || '—'}; ${waiting.length} waiting`);
  }, 60_000);
  await new Promise<void>((finished) => {
    const fill = () => {
      while (running.length < jobs) {
        const task = nextStartable(waiting, running, durations);
        if (!task) break;
        waiting.splice(waiting.indexOf(task), 1);
        running.push(task);
        console.log(`[${clock(Date.now() - started)}] start ${task.id}`);
        void run(task).then((result) => {
          running.splice(running.indexOf(task), 1);
          results.push(result);
          fill();
        });
      }
      if (running.length === 0 && waiting.length === 0) finished();
    };
    fill();
  });
  clearInterval(heartbeat);
  const total = Date.now() - started;
  const ticksAtEnd = machineTicks();

  for (const r of results) durations[r.task.id] = r.ms;
  writeFileSync(durationsFile, `${JSON.stringify(Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b))), null, 2)}\n`);

  const rows = [...results].sort((a, b) => b.ms - a.ms);
  const width = Math.max(...rows.map((r) => r.task.id.length), 4);
  console.log(`\n${'task'.padEnd(width)}   wall    CPU  result  tests`);
  for (const r of rows) {
    const tests = r.counts.passed + r.counts.failed + r.counts.skipped > 0 ? `${r.counts.passed} passed${r.counts.failed ? `, ${r.counts.failed} failed` : ''}${r.counts.skipped ? `, ${r.counts.skipped} skipped` : ''}` : '';
    const cpu = r.cpuSeconds === null ? '' : clock(r.cpuSeconds * 1000);
    console.log(`${r.task.id.padEnd(width)}  ${clock(r.ms).padStart(5)}  ${cpu.padStart(5)}  ${r.code === 0 ? 'ok    ' : r.timedOut ? 'TIMEOUT' : 'FAILED'}  ${tests}`);
  }
  const failedTasks = results.filter((r) => r.code !== 0);
  const sum = results.reduce((acc, r) => ({ passed: acc.passed + r.counts.passed, failed: acc.failed + r.counts.failed }), { passed: 0, failed: 0 });
  const busy = results.reduce((acc, r) => acc + r.ms, 0);
  const cpu = results.reduce((acc, r) => acc + (r.cpuSeconds ?? 0), 0);
  console.log(`\n${results.length} tasks in ${clock(total)} wall (${clock(busy)} of task time, ${clock(cpu * 1000)} of their CPU, ${jobs} at a time); ${failedTasks.length} failed${failedTasks.length ? `: ${failedTasks.map((r) => r.task.id).join(', ')}` : ''}`);
  if (ticksAtStart && ticksAtEnd) {
    // The whole machine, other processes included: how much of the cores the run left idle.
    const share = (ticksAtEnd.busy - ticksAtStart.busy) / Math.max(1, ticksAtEnd.total - ticksAtStart.total);
    console.log(`machine CPU busy ${Math.round(share * 100)} % of ${availableParallelism()} cores during the run`);
  }
  // The plain closing line: tests counted from the suites' own summaries; a failed task with no
  // failed test of its own (a lint, a typecheck, a crash) still counts as one failure.
  const failed = sum.failed + failedTasks.filter((r) => r.counts.failed === 0).length;
  console.log(`${sum.passed} passed, ${failed} failed`);
  process.exitCode = failedTasks.length > 0 ? 1 : 0;
}

if (!existsSync(join(root, 'node_modules'))) {
  console.error('node_modules is missing: run npm install (or npm ci) first');
  process.exit(2);
}
main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
