import { z } from 'zod';
import { serviceTypes } from '../service-types.ts';

/*
 * Catalog's operator request bodies (the console sends them through the BFF, which passes them on).
 * Their rules answer with catalog's own Korean messages, one per broken rule (VALIDATION_FAILED):
 * the shapes live here, the words and rules stay the service's — `catalogRequests(messages, rules)` builds
 * the schemas catalog parses with, and the console's forms are typed by their inputs.
 */

/** The words each broken rule answers with (catalog's domain/messages.ts). */
export type CatalogRequestMessages = {
  textRequired: string;
  textTooLong: string;
  flagInvalid: string;
  idInvalid: string;
  colorInvalid: string;
  platformIdRange: string;
  visibleInvalid: string;
  nothingToUpdate: string;
  priceInvalid: string;
  minInvalid: string;
  maxInvalid: string;
  noticeTooLong: string;
  noticeContentRequired: string;
  noticeContentTooLong: string;
  faqTitleRequired: string;
  faqAnswerRequired: string;
  faqTooLong: string;
  reorderEmpty: string;
  settingsEmpty: string;
  settingValueInvalid: string;
  typeInvalid: string;
};

/** Catalog's own rules the shapes use: the platform numbers that have an icon, the colour form. */
export type CatalogRequestRules = { minPlatformId: number; maxPlatformId: number; isColour: (value: string) => boolean };

export function catalogRequests(m: CatalogRequestMessages, rules: CatalogRequestRules) {
  const text = (required: string = m.textRequired, max = 100, tooLong: string = m.textTooLong) =>
    z.string({ error: required }).trim().min(1, { error: required }).max(max, { error: tooLong });
  const flag = (message: string = m.flagInvalid) => z.boolean({ error: message });
  const positiveId = () => z.number({ error: m.idInvalid }).int({ error: m.idInvalid }).positive({ error: m.idInvalid });
  const quantity = (message: string) => z.number({ error: message }).int({ error: message }).positive({ error: message });
  const colour = () => z.string({ error: m.colorInvalid }).trim().refine(rules.isColour, { error: m.colorInvalid });
  const somethingToUpdate = (value: object) => Object.values(value).some((v) => v !== undefined);

  const platformCreate = z.strictObject({
    id: z.number({ error: m.platformIdRange }).int({ error: m.platformIdRange }).min(rules.minPlatformId, { error: m.platformIdRange }).max(rules.maxPlatformId, { error: m.platformIdRange }),
    text: text(),
    background: colour(),
    visible: flag(m.visibleInvalid).default(true),
  });
  const platformPatch = z
    .strictObject({ text: text().optional(), background: colour().optional(), visible: flag(m.visibleInvalid).optional() })
    .refine(somethingToUpdate, { error: m.nothingToUpdate });

  const categoryCreate = z.strictObject({ text: text(), platformId: positiveId() });
  const categoryPatch = z.strictObject({ text: text().optional(), platformId: positiveId().optional() }).refine(somethingToUpdate, { error: m.nothingToUpdate });

  /** `point` is the unit price in won as typed ("2.5" or 2.5); catalog parses it exactly. */
  const price = () => z.union([z.number(), z.string()], { error: m.priceInvalid });
  const serviceFields = {
    text: text(),
    categoryId: positiveId(),
    min: quantity(m.minInvalid),
    max: quantity(m.maxInvalid),
    point: price(),
    notice: z.string({ error: m.noticeTooLong }).trim().max(5000, { error: m.noticeTooLong }),
    enableAuto: flag(),
    isReadOnly: flag(),
    visible: flag(m.visibleInvalid),
    /** What the member gives besides the link (service-types.ts). */
    type: z.enum(serviceTypes, { error: m.typeInvalid }),
  };
  const serviceCreate = z.strictObject({
    ...serviceFields,
    notice: serviceFields.notice.default(''),
    enableAuto: serviceFields.enableAuto.default(false),
    isReadOnly: serviceFields.isReadOnly.default(false),
    visible: serviceFields.visible.default(true),
    type: serviceFields.type.default('default'),
  });
  const servicePatch = z.strictObject(serviceFields).partial().refine(somethingToUpdate, { error: m.nothingToUpdate });

  const noticeContent = () => text(m.noticeContentRequired, 5000, m.noticeContentTooLong);
  const noticeCreate = z.strictObject({ content: noticeContent(), isTop: flag().default(false) });
  const noticePatch = z.strictObject({ content: noticeContent().optional(), isTop: flag().optional() }).refine(somethingToUpdate, { error: m.nothingToUpdate });

  const faqCreate = z.strictObject({ title: text(m.faqTitleRequired, 200, m.faqTooLong), answer: text(m.faqAnswerRequired, 5000, m.faqTooLong) });
  const faqPatch = z
    .strictObject({ title: text(m.faqTitleRequired, 200, m.faqTooLong).optional(), answer: text(m.faqAnswerRequired, 5000, m.faqTooLong).optional() })
    .refine(somethingToUpdate, { error: m.nothingToUpdate });

  const registerWhereCreate = z.strictObject({ text: text() });

  const reorder = z.strictObject({
    ids: z.array(positiveId(), { error: m.reorderEmpty }).min(1, { error: m.reorderEmpty }).max(1000, { error: m.reorderEmpty }),
  });

  /** Values are checked per key by catalog's setting rules (UNKNOWN_SETTING, INVALID_SETTING_VALUE). */
  const settings = z.strictObject({ values: z.record(z.string(), z.unknown(), { error: m.settingsEmpty }) });
  const setting = z.strictObject({ value: z.unknown().refine((v) => v !== undefined, { error: m.settingValueInvalid }) });

  return {
    platformCreate,
    platformPatch,
    categoryCreate,
    categoryPatch,
    serviceCreate,
    servicePatch,
    noticeCreate,
    noticePatch,
    faqCreate,
    faqPatch,
    registerWhereCreate,
    registerWherePatch: registerWhereCreate,
    reorder,
    settings,
    setting,
  };
}

type CatalogRequests = ReturnType<typeof catalogRequests>;
/** What the console may send (`z.input`: fields with defaults may be left out). */
export type CatalogRequest<K extends keyof CatalogRequests> = z.input<CatalogRequests[K]>;
