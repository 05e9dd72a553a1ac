// Every document, index entry and version of this server lives in the JavaScript heap, and V8 aborts
// the process when the heap reaches its limit (node's default is about 4 GB whatever the machine
// holds; `--max-old-space-size` sets it). Unlike MongoDB, nothing is paged out to disk, so the data
// must fit: this watch says so in the log while there is still room, instead of the first sign
// being a crash that a restart only repeats (the same data is loaded again).
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Logger } from 'pino';

const MB = 1024 * 1024;

export type HeapFigures = { heapUsedMb: number; heapLimitMb: number };

export function heapFigures(): HeapFigures {
  const { used_heap_size: used, heap_size_limit: limit } = v8.getHeapStatistics();
  return { heapUsedMb: Math.round(used / MB), heapLimitMb: Math.round(limit / MB) };
}

/** V8's full collection, reached without starting node with --expose-gc; undefined where refused. */
let fullGc: (() => void) | undefined | null = null;

/**
 * A full, compacting collection now. Loading a data dir leaves as much garbage as it keeps (decoded
 * batches, index keys gathered for sorting); without this, the heap in use and the memory the
 * process holds stay at the loading peak until the next full collection, which an idle server may
 * not run for minutes. False when it could not be done.
 */
export function collectGarbage(): boolean {
  if (fullGc === null) {
    try {
      v8.setFlagsFromString('--expose-gc');
      fullGc = vm.runInNewContext('gc') as () => void;
    } catch {
      fullGc = undefined;
    }
  }
  fullGc?.();
  return fullGc !== undefined;
}

export type HeapWatch = { stop(): void };

/**
 * Checks the heap after every full (mark-compact) collection, when what is used is what is live:
 * past `warnAt` of the limit it logs a warning, once, and again only after use fell below `clearAt`
 * and rose past `warnAt` anew. No timer: an idle server does not wake for it.
 */
export function watchHeap(logger: Logger, warnAt = 0.8, clearAt = 0.7): HeapWatch {
  let warned = false;
  const observer = new PerformanceObserver((list) => {
    const major = list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!major) return;
    const figures = heapFigures();
    const share = figures.heapUsedMb / figures.heapLimitMb;
    if (!warned && share >= warnAt) {
      warned = true;
      logger.warn(
        { ...figures, percent: Math.round(share * 100) },
        'memory nearly full: the data and its indexes must fit in the heap, and at its limit the server stops; ' +
          'give it more (node --max-old-space-size=<MB>; for npm start, EMBEDDED_MONGO_MAX_HEAP_MB) or set MONGO_URL to a MongoDB server',
      );
    } else if (warned && share < clearAt) {
      warned = false;
      logger.info({ ...figures, percent: Math.round(share * 100) }, 'memory use back below the warning level');
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { stop: () => observer.disconnect() };
}
