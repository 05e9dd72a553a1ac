// Preloaded into every devstack process by bench:wrk when BENCH_PROFILE_DIR is set (node 20 refuses
// --cpu-prof in NODE_OPTIONS): SIGUSR2 starts the V8 profiler, the next SIGUSR2 writes
// <dir>/<folder>-<pid>-<n>.cpuprofile (n counts the profiles of that process: one per measured run).
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import process from 'node:process';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  let running = false;
  let written = 0;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.start'));
      return;
    }
    running = false;
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(`${dir}/${basename(process.cwd())}-${process.pid}-${++written}.cpuprofile`, JSON.stringify(result.profile));
    });
  });
}
