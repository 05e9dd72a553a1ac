import { type CheckedMassLine, checkMassOrder, massOrderLineLimit, parseMassOrder } from '../../lib/contracts.ts';
import type { Service } from '../../lib/types.ts';

/** The paste checked line by line, with what the summary needs. Pure: unit-tested directly. */
export type CheckedPaste = {
  lines: CheckedMassLine[];
  okCount: number;
  badCount: number;
  totalDeci: number;
  tooMany: boolean;
};

export function checkPaste(text: string, services: readonly Service[]): CheckedPaste {
  const lines = checkMassOrder(parseMassOrder(text), services);
  const ok = lines.filter((l) => l.problem === null);
  return {
    lines,
    okCount: ok.length,
    badCount: lines.length - ok.length,
    totalDeci: ok.reduce((sum, l) => sum + (l.priceDeci ?? 0), 0),
    tooMany: lines.length > massOrderLineLimit,
  };
}

/** Why the paste cannot be placed as it stands (the first reason), or null. */
export function blockReason(paste: CheckedPaste, balanceDeci: number, texts: { fixFirst: string; tooMany: string; shortBy: (deci: number) => string }): string | null {
  if (paste.lines.length === 0) return null;
  if (paste.tooMany) return texts.tooMany;
  if (paste.badCount > 0) return texts.fixFirst;
  if (paste.totalDeci > balanceDeci) return texts.shortBy(paste.totalDeci - balanceDeci);
  return null;
}

/** The body of POST /service/mass-order: each line with the unit price the page showed for it. */
export function massOrderPayload(paste: CheckedPaste) {
  return {
    lines: paste.lines.map((l) => ({ serviceId: Number(l.service?.id), link: l.link, amount: l.quantity ?? 0, unitPriceDeci: l.service?.unitPriceDeci ?? 0 })),
  };
}

/** The Idempotency-Key of the submit the member means to place, with the body it was made for. */
export type SubmitAttempt = { payload: string; key: string };

/** 128 random bits as hex: `crypto.getRandomValues` works on plain-http pages too (randomUUID does not). */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The pending attempt when the same paste is sent again after an answer that never came (the BFF
 * and the order service then answer with the lines already placed), a new key otherwise.
 */
export function attemptFor(pending: SubmitAttempt | null, payload: unknown, newKey: () => string = randomKey): SubmitAttempt {
  const body = JSON.stringify(payload);
  return pending?.payload === body ? pending : { payload: body, key: newKey() };
}

/** A definite refusal (4xx) ends the attempt; a network failure or a 5xx leaves the outcome unknown: the key stays. */
export const attemptEnded = (status: number): boolean => status >= 400 && status < 500;
