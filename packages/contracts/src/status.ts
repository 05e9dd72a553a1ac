import { z } from 'zod';

/**
 * A status enumeration defined once: names → numbers, numbers → Korean labels, and a test for the
 * defined numbers (`statusSchema` gives the zod schema). Services, the BFF and the web app all read
 * it from here, so a status number appears in exactly one place. The definition itself builds no
 * zod schema, so the web app's screens that show statuses load no zod (issue 17, Lighthouse).
 */
export type StatusEnum<TNames extends string> = {
  readonly values: { readonly [K in TNames]: number };
  readonly labels: Readonly<Record<number, string>>;
  label(value: number): string;
  is(value: unknown): value is number;
};

/** A zod schema accepting exactly the status numbers `status` defines. */
export function statusSchema(status: StatusEnum<string>): z.ZodType<number> {
  const allowed = Object.values<number>(status.values);
  return z.number().int().refine(status.is, { message: `must be one of ${allowed.join(', ')}` });
}

export function defineStatus<const TNames extends string>(
  entries: { readonly [K in TNames]: { value: number; label: string } },
): StatusEnum<TNames> {
  const values = {} as { [K in TNames]: number };
  const labels: Record<number, string> = {};
  for (const name of Object.keys(entries) as TNames[]) {
    const entry = entries[name];
    if (entry.value in labels) throw new Error(`status value ${entry.value} defined twice`);
    values[name] = entry.value;
    labels[entry.value] = entry.label;
  }
  const allowed = new Set(Object.values<number>(values));
  const is = (value: unknown): value is number => typeof value === 'number' && allowed.has(value);
  return {
    values,
    labels,
    label(value) {
      const text = labels[value];
      if (text === undefined) throw new RangeError(`unknown status ${value}`);
      return text;
    },
    is,
  };
}
