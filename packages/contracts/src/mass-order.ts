/**
 * Mass orders (대량 주문, issue 40): a member pastes one order per line, `service id | link | quantity`
 * (the format panels use), sees every line checked with the total, then places them, each line its
 * own order and its own charge. The web checks the paste with these rules before anything is sent;
 * the BFF holds the same line limit and duplicate rule; the order service still judges each line
 * as it judges any order (min, max, read-only, price), so these checks only spare a member a refusal.
 * Pure and browser-safe: no zod, no node modules.
 */
import { isAcceptableLink } from './text-safety.ts';

/** At most this many lines per mass order: one submit stays a few seconds of placements. */
export const massOrderLineLimit = 100;

/** Korean texts of the line checks (shared by the web page and the BFF's refusals). */
export const massOrderMessages = {
  format: '형식이 올바르지 않습니다. "서비스 번호 | 링크 | 수량" 으로 입력해 주세요.',
  unknownService: '존재하지 않는 서비스 번호입니다.',
  readOnly: '현재 주문할 수 없는 서비스입니다.',
  linkRequired: '링크를 입력해 주세요.',
  linkInvalid: '링크는 http(s)로 시작하는 주소 또는 프로필 이름만 입력할 수 있습니다.',
  amountNotInteger: '수량은 소수점 없이 정수로 입력해 주세요.',
  belowMin: (min: number) => `최소 주문 수량보다 적습니다. (최소 ${min.toLocaleString('ko-KR')})`,
  aboveMax: (max: number) => `최대 주문 수량을 초과했습니다. (최대 ${max.toLocaleString('ko-KR')})`,
  duplicate: (line: number) => `${line}번째 줄과 같은 서비스·링크입니다. 한 줄로 합쳐 주세요.`,
  tooManyLines: `한 번에 최대 ${massOrderLineLimit}줄까지 주문할 수 있습니다.`,
  noLines: '주문할 줄을 입력해 주세요.',
  serviceCheck: '서비스 점검 중에는 주문할 수 없습니다.',
} as const;

/** One pasted line as typed: its line number in the paste (1-based) and its three fields. */
export type MassOrderLine = { line: number; serviceId: string; link: string; amount: string; fields: number };

/**
 * Splits a paste into lines: empty lines are skipped (they keep their numbers, so a member finds a
 * line by the number the page shows). Fields are separated by `|` (a tab, as spreadsheets paste
 * columns, counts as one too) and trimmed.
 */
export function parseMassOrder(text: string): MassOrderLine[] {
  const lines: MassOrderLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    const fields = raw.split(/[|\t]/).map((f) => f.trim());
    lines.push({ line: index + 1, serviceId: fields[0] ?? '', link: fields[1] ?? '', amount: fields[2] ?? '', fields: fields.length });
  });
  return lines;
}

/** Two lines are the same order when they ask the same service for the same link (case kept: links differ by case). */
export const massOrderLineKey = (serviceId: string | number, link: string) => `${String(serviceId).trim()}|${link.trim()}`;

/** What the checks need of a product (the catalogue the order screen reads). */
export type MassOrderService = { id: string | number; min: number; max: number; unitPriceDeci: number; isReadOnly: boolean };

export type MassOrderProblemCode = 'FORMAT' | 'UNKNOWN_SERVICE' | 'READ_ONLY' | 'LINK_REQUIRED' | 'LINK_INVALID' | 'AMOUNT_NOT_INTEGER' | 'BELOW_MIN' | 'ABOVE_MAX' | 'DUPLICATE';

export type CheckedMassLine = MassOrderLine & {
  /** The first broken rule, or null when the line can be placed. */
  problem: { code: MassOrderProblemCode; message: string } | null;
  service?: MassOrderService;
  quantity?: number;
  /** unit price × quantity, deci-won (only for a line without a problem). */
  priceDeci?: number;
};

const wholeNumber = /^\d+$/;

/**
 * Checks each line in the order a single order is checked (spec §5: service, link, quantity), then
 * duplicates in the paste: a later line naming the same service and link as an earlier one is
 * refused (a paste holding a line twice is almost always a mistake, and placing it twice would charge twice).
 */
export function checkMassOrder(lines: readonly MassOrderLine[], services: readonly MassOrderService[]): CheckedMassLine[] {
  const byId = new Map(services.map((s) => [String(s.id), s]));
  const seen = new Map<string, number>();
  return lines.map((l) => {
    const refuse = (code: MassOrderProblemCode, message: string): CheckedMassLine => ({ ...l, problem: { code, message } });
    if (l.fields !== 3 || !wholeNumber.test(l.serviceId)) return refuse('FORMAT', massOrderMessages.format);
    const service = byId.get(String(Number(l.serviceId)));
    if (!service) return refuse('UNKNOWN_SERVICE', massOrderMessages.unknownService);
    if (service.isReadOnly) return { ...refuse('READ_ONLY', massOrderMessages.readOnly), service };
    if (l.link === '') return { ...refuse('LINK_REQUIRED', massOrderMessages.linkRequired), service };
    if (!isAcceptableLink(l.link)) return { ...refuse('LINK_INVALID', massOrderMessages.linkInvalid), service };
    const amount = l.amount.replace(/,/g, '');
    if (!wholeNumber.test(amount)) return { ...refuse('AMOUNT_NOT_INTEGER', massOrderMessages.amountNotInteger), service };
    const quantity = Number(amount);
    if (quantity < service.min) return { ...refuse('BELOW_MIN', massOrderMessages.belowMin(service.min)), service, quantity };
    if (quantity > service.max) return { ...refuse('ABOVE_MAX', massOrderMessages.aboveMax(service.max)), service, quantity };
    const key = massOrderLineKey(service.id, l.link);
    const first = seen.get(key);
    if (first !== undefined) return { ...refuse('DUPLICATE', massOrderMessages.duplicate(first)), service, quantity };
    seen.set(key, l.line);
    return { ...l, problem: null, service, quantity, priceDeci: service.unitPriceDeci * quantity };
  });
}

/** How each line of a placed mass order ended (the BFF's answer, one per line in order). */
export type MassOrderLineResult =
  | { index: number; status: 'placed'; orderId: number; chargeDeci: number }
  /** Refused by the order service or the wallet: nothing charged for it. */
  | { index: number; status: 'refused'; code: string; message: string }
  /** Not sent: an earlier line found the balance short (nothing charged), or the service could not be reached. */
  | { index: number; status: 'not_placed'; code: string; message: string };

export type MassOrderAnswer = { results: MassOrderLineResult[]; placed: number; chargedDeci: number };
