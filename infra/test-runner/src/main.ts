import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clock, longestFirst, nextStartable, vitestCounts } from './schedule.ts';
import { type Task, discoverTasks } from './tasks.ts';

/**
 * `npm test`: every lint, typecheck and test suite of the repository, two at a time on this
 * two-core machine (TEST_JOBS to change), longest first by the wall times of the last run, never
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

const jobs = Math.max(1, Number(process.env.TEST_JOBS ?? 2) || 2);
/** A suite still running after this is stopped and counted failed, so CI reports instead of hanging. */
const taskTimeoutMs = Number(process.env.TEST_TASK_TIMEOUT_MS ?? 25 * 60_000);

type Result = { task: Task; ms: number; code: number; timedOut: boolean; counts: ReturnType<typeof vitestCounts> };

function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(durationsFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

const fileOf = (task: Task) => join(logDir, `${task.id.replace(/[^a-zA-Z0-9._-]+/g, '_')}.log`);

function run(task: Task): Promise<Result> {
  const started = Date.now();
  const log = createWriteStream(fileOf(task));
  let output = '';
  const child: ChildProcess = spawn(task.command[0]!, task.command.slice(1), {
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
      const result: Result = { task, ms, code: code ?? (signal ? 1 : 0), timedOut, counts: vitestCounts(output) };
      const verdict = result.code === 0 ? 'passed' : timedOut ? `TIMED OUT after ${clock(taskTimeoutMs)}` : `FAILED (exit ${result.code})`;
      process.stdout.write(`\n===== ${task.id}: ${verdict} in ${clock(ms)} =====\n${output}${output.endsWith('\n') ? '' : '\n'}===== end of ${task.id} =====\n`);
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
  console.log(`test run: ${selected.length} tasks, ${jobs} at a time (logs in .test-logs/)`);
  const heartbeat = setInterval(() => {
    console.log(`[${clock(Date.now() - started)}] running: ${running.map((t) => t.id).join(', ') || '—'}; ${waiting.length} waiting`);
  }, 60_000);
  await new Promise<void>((finished) => {
    const fill = () => {
      while (running.length < jobs) {
        const task = nextStartable(waiting, running);
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

  for (const r of results) durations[r.task.id] = r.ms;
  writeFileSync(durationsFile, `${JSON.stringify(Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b))), null, 2)}\n`);

  const rows = [...results].sort((a, b) => b.ms - a.ms);
  const width = Math.max(...rows.map((r) => r.task.id.length), 4);
  console.log(`\n${'task'.padEnd(width)}  wall   result  tests`);
  for (const r of rows) {
    const tests = r.counts.passed + r.counts.failed + r.counts.skipped > 0 ? `${r.counts.passed} passed${r.counts.failed ? `, ${r.counts.failed} failed` : ''}${r.counts.skipped ? `, ${r.counts.skipped} skipped` : ''}` : '';
    console.log(`${r.task.id.padEnd(width)}  ${clock(r.ms).padStart(5)}  ${r.code === 0 ? 'ok    ' : r.timedOut ? 'TIMEOUT' : 'FAILED'}  ${tests}`);
  }
  const failedTasks = results.filter((r) => r.code !== 0);
  const sum = results.reduce((acc, r) => ({ passed: acc.passed + r.counts.passed, failed: acc.failed + r.counts.failed }), { passed: 0, failed: 0 });
  const busy = results.reduce((acc, r) => acc + r.ms, 0);
  console.log(`\n${results.length} tasks in ${clock(total)} wall (${clock(busy)} of task time, ${jobs} at a time); ${failedTasks.length} failed${failedTasks.length ? `: ${failedTasks.map((r) => r.task.id).join(', ')}` : ''}`);
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
