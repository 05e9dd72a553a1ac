/**
 * Runs each named query once to warm up, then five times, and prints the median time and the rows
 * the query found: how the search benches report.
 */
export async function printMedians(probes: ReadonlyArray<[string, Record<string, string>]>, search: (query: Record<string, string>) => Promise<{ items: unknown[] }>): Promise<void> {
  for (const [name, query] of probes) {
    await search(query);
    const times: number[] = [];
    let items = 0;
    for (let run = 0; run < 5; run++) {
      const t0 = performance.now();
      items = (await search(query)).items.length;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`${name}: median ${times[2]!.toFixed(1)} ms (${items} rows)`);
  }
}
