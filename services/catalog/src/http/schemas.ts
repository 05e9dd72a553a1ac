import { z } from 'zod';
import { catalogRequests } from '@smm/contracts/http';
import { isHexColour } from '../domain/colour.ts';
import { messages as m } from '../domain/messages.ts';
import { maxPlatformId, minPlatformId } from '../domain/platform-icons.ts';

export const idParam = z.object({ id: z.coerce.number<string>({ error: m.idInvalid }).int({ error: m.idInvalid }).positive({ error: m.idInvalid }) });

/** Request bodies (@smm/contracts/http), with catalog's Korean message for each broken rule (VALIDATION_FAILED). */
export const {
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
  registerWherePatch,
  reorder: reorderBody,
  settings: settingsBody,
  setting: settingBody,
} = catalogRequests(m, { minPlatformId, maxPlatformId, isColour: isHexColour });
