/**
 * The web-safe parts of @smm/contracts. The package exports only its index, which also loads the
 * event envelope (node:crypto), so the browser imports the plain modules directly from here.
 * When the package gains subpath exports (e.g. "@smm/contracts/money"), switch these lines.
 */
export { deciToWon, formatWon, groupThousands, parseWon, priceDeci } from '../../../packages/contracts/src/money.ts';
export { autoOrderLimits } from '../../../packages/contracts/src/auto-order.ts';
export {
  chargedUnits,
  linesOf,
  normalizeUsername,
  orderDetailLimits,
  serviceTypeAllowsAuto,
  serviceTypeLabels,
  serviceTypes,
  subscriptionLimits,
  subscriptionStateLabels,
  usernameItems,
} from '../../../packages/contracts/src/service-types.ts';
export type { OrderDetails, ServiceType, SubscriptionState } from '../../../packages/contracts/src/service-types.ts';
export { settingEnabled, settingKeys } from '../../../packages/contracts/src/settings.ts';
export type { SettingKey } from '../../../packages/contracts/src/settings.ts';
export { liveEvents } from '../../../packages/contracts/src/live.ts';
export type { LiveEnded, LiveNotice, LiveTouch, LiveUpdate } from '../../../packages/contracts/src/live.ts';
export { passwordLength, passwordLengthMessage, passwordLengthOk } from '../../../packages/contracts/src/password.ts';
export { isOperatorRole } from '../../../packages/contracts/src/roles.ts';
export { restrictionLevelLabels, restrictionLevels, restrictionReasonMaxLength } from '../../../packages/contracts/src/restriction.ts';
export type { Restriction, RestrictionLevel } from '../../../packages/contracts/src/restriction.ts';
export type { MemberRole } from '../../../packages/contracts/src/roles.ts';
export { auditActions } from '../../../packages/contracts/src/audit-actions.ts';
export type { AuditAction, AuditTargetType } from '../../../packages/contracts/src/audit-actions.ts';
export { ticketCategories, ticketCategoryLabels, ticketLimits, ticketStatusLabels, ticketStatuses } from '../../../packages/contracts/src/support.ts';
export type { TicketCategory, TicketStatus } from '../../../packages/contracts/src/support.ts';
export { memberRateLimits, ratedUnitPriceDeci } from '../../../packages/contracts/src/member-rates.ts';
export { checkMassOrder, massOrderLineLimit, massOrderMessages, parseMassOrder } from '../../../packages/contracts/src/mass-order.ts';
export type { CheckedMassLine, MassOrderAnswer, MassOrderLineResult } from '../../../packages/contracts/src/mass-order.ts';
