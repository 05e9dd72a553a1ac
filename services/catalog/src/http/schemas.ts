import { z } from 'zod';
import { isHexColour } from '../domain/colour.ts';
import { messages as m } from '../domain/messages.ts';
import { maxPlatformId, minPlatformId } from '../domain/platform-icons.ts';

/** Request bodies, with the Korean message each broken rule answers with (VALIDATION_FAILED). */
const text = (required: string = m.textRequired, max = 100, tooLong: string = m.textTooLong) =>
  z.string({ error: required }).trim().min(1, { error: required }).max(max, { error: tooLong });
const flag = (message: string = m.flagInvalid) => z.boolean({ error: message });
const positiveId = () => z.number({ error: m.idInvalid }).int({ error: m.idInvalid }).positive({ error: m.idInvalid });
const quantity = (message: string) => z.number({ error: message }).int({ error: message }).positive({ error: message });
const colour = () => z.string({ error: m.colorInvalid }).trim().refine(isHexColour, { error: m.colorInvalid });
const somethingToUpdate = (value: object) => Object.values(value).some((v) => v !== undefined);

export const idParam = z.object({ id: z.coerce.number<string>({ error: m.idInvalid }).int({ error: m.idInvalid }).positive({ error: m.idInvalid }) });

export const platformCreate = z.strictObject({
  id: z.number({ error: m.platformIdRange }).int({ error: m.platformIdRange }).min(minPlatformId, { error: m.platformIdRange }).max(maxPlatformId, { error: m.platformIdRange }),
  text: text(),
  background: colour(),
  visible: flag(m.visibleInvalid).default(true),
});
export const platformPatch = z
  .strictObject({ text: text().optional(), background: colour().optional(), visible: flag(m.visibleInvalid).optional() })
  .refine(somethingToUpdate, { error: m.nothingToUpdate });

export const categoryCreate = z.strictObject({ text: text(), platformId: positiveId() });
export const categoryPatch = z.strictObject({ text: text().optional(), platformId: positiveId().optional() }).refine(somethingToUpdate, { error: m.nothingToUpdate });

/** `point` is the unit price in won as typed ("2.5" or 2.5); parsed exactly by domain/price.ts. */
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
};
export const serviceCreate = z.strictObject({
  ...serviceFields,
  notice: serviceFields.notice.default(''),
  enableAuto: serviceFields.enableAuto.default(false),
  isReadOnly: serviceFields.isReadOnly.default(false),
  visible: serviceFields.visible.default(true),
});
export const servicePatch = z.strictObject(serviceFields).partial().refine(somethingToUpdate, { error: m.nothingToUpdate });

const noticeContent = () => text(m.noticeContentRequired, 5000, m.noticeContentTooLong);
export const noticeCreate = z.strictObject({ content: noticeContent(), isTop: flag().default(false) });
export const noticePatch = z.strictObject({ content: noticeContent().optional(), isTop: flag().optional() }).refine(somethingToUpdate, { error: m.nothingToUpdate });

export const faqCreate = z.strictObject({ title: text(m.faqTitleRequired, 200, m.faqTooLong), answer: text(m.faqAnswerRequired, 5000, m.faqTooLong) });
export const faqPatch = z
  .strictObject({ title: text(m.faqTitleRequired, 200, m.faqTooLong).optional(), answer: text(m.faqAnswerRequired, 5000, m.faqTooLong).optional() })
  .refine(somethingToUpdate, { error: m.nothingToUpdate });

export const registerWhereCreate = z.strictObject({ text: text() });
export const registerWherePatch = registerWhereCreate;

export const reorderBody = z.strictObject({
  ids: z.array(positiveId(), { error: m.reorderEmpty }).min(1, { error: m.reorderEmpty }).max(1000, { error: m.reorderEmpty }),
});

/** Values are checked per key by domain/setting-rules.ts (UNKNOWN_SETTING, INVALID_SETTING_VALUE). */
export const settingsBody = z.strictObject({ values: z.record(z.string(), z.unknown(), { error: m.settingsEmpty }) });
export const settingBody = z.strictObject({ value: z.unknown().refine((v) => v !== undefined, { error: m.settingValueInvalid }) });
