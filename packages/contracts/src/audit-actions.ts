/**
 * What an operator can do that the audit log records (issue 12), as `<area>.<thing>.<verb>`. Plain
 * constants (no zod) so the web app can import this module for its Korean labels.
 */
export const auditActions = [
  'order.status.change',
  'order.progress.set',
  'order.rate.set',
  'order.rate.delete',
  'wallet.topup.approve',
  'wallet.topup.reject',
  'wallet.receipt.issue',
  'wallet.deposit.attach',
  'wallet.deposit.enter',
  'wallet.balance.adjust',
  'catalog.platform.create',
  'catalog.platform.update',
  'catalog.platform.delete',
  'catalog.category.create',
  'catalog.category.update',
  'catalog.category.delete',
  'catalog.product.create',
  'catalog.product.update',
  'catalog.product.delete',
  'catalog.content.create',
  'catalog.content.update',
  'catalog.content.delete',
  'catalog.items.reorder',
  'catalog.setting.change',
  'auth.member.role',
  'auth.member.restriction',
  'auth.operator.create',
  'auth.operator.access',
  'auth.operator.disable',
  'auth.operator.enable',
  'auth.operator.two-factor-reset',
  'auth.two-factor.enrol',
  'fulfillment.provider.create',
  'fulfillment.provider.update',
  'fulfillment.provider.delete',
  'fulfillment.mapping.set',
  'fulfillment.mapping.delete',
  'fulfillment.review.resolve',
  'support.ticket.reply',
  'support.ticket.close',
  'support.ticket.reopen',
  'support.reply.create',
  'support.reply.update',
  'support.reply.delete',
  'fulfillment.request.resolve',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What an action acts on; with the id, the record's `target`. */
export const auditTargetTypes = ['order', 'topup', 'deposit', 'platform', 'category', 'product', 'notice', 'faq', 'register-where', 'setting', 'member', 'provider', 'mapping', 'operator', 'ticket', 'saved-reply'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];
