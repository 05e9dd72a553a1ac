import type { AdminProviderViewBody, ProviderCheckBody } from '@smm/contracts/http';
import type { EventOrigin } from '@smm/contracts';
import { type OperatorAction, auditDiff, badRequest, auditFields, conflict, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { fetchBalance } from '../clients/provider-api.ts';
import { messages } from '../domain/messages.ts';
import { mappings } from '../store/mapping.model.ts';
import { maskKey } from '../store/key-cipher.ts';
import type { Provider } from '../store/provider.model.ts';
import { refreshBalance } from './balance-refresh.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { privateTarget } from '../clients/address-guard.ts';
import type { ClientSession } from 'mongoose';

export type ProviderInput = { name: string; url: string; key: string; currency: string; wonDeciPerUnit: number; lowBalanceThreshold: string; idempotentAdd: boolean };

/** A provider as operators see it: the key only masked. */
export function providerView(p: Provider) {
  return {
    id: p._id,
    name: p.name,
    url: p.url,
    key: p.keyHint,
    currency: p.currency,
    wonDeciPerUnit: p.wonDeciPerUnit,
    lowBalanceThreshold: p.lowBalanceThreshold,
    idempotentAdd: p.idempotentAdd ?? false,
    balance: p.balance,
    balanceCheckedAt: p.balanceCheckedAt?.toISOString() ?? null,
    balanceLow: p.balanceLow,
    lastError: p.lastError,
    ...providerHealth(p),
    createdAt: p.createdAt.toISOString(),
  } satisfies AdminProviderViewBody;
}
export type ProviderView = ReturnType<typeof providerView>;

/**
 * A provider's health from its last call: `unchecked` before any call, `failing` while the last
 * one failed (with `lastError`, `failingSince`), else `ok`. A failed check is `failing`, never
 * "not checked yet".
 */
export function providerHealth(p: Provider) {
  const health: 'unchecked' | 'ok' | 'failing' = p.lastError !== null ? 'failing' : (p.lastCallAt ?? p.balanceCheckedAt ?? null) === null ? 'unchecked' : 'ok';
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    health,
    lastCallAt: iso(p.lastCallAt ?? p.balanceCheckedAt),
    lastCallAction: p.lastCallAction ?? (p.balanceCheckedAt ? 'balance' : null),
    lastErrorAt: iso(p.lastErrorAt),
    failingSince: iso(p.failingSince ?? (p.lastError !== null ? p.lastErrorAt : null)),
  };
}

/** What the audit log keeps of a provider: never its key, not even masked. */
const audited = ['name', 'url', 'currency', 'wonDeciPerUnit', 'lowBalanceThreshold'] as const;
/** The operator who asked and the request's origin, for the audit record. */
export type Asked = { caller: OperatorAction['caller']; origin: EventOrigin };

/** A URL operators may save: refused (400) when it reaches a loopback or private address and the deployment does not allow that. */
async function assertReachableUrl(deps: FulfillmentDeps, url: string): Promise<void> {
  if (deps.allowPrivateProviders) return;
  const refused = await privateTarget(url);
  if (refused !== null) throw badRequest(messages.providerUrlPrivate, { reason: refused }, 'PROVIDER_URL_PRIVATE');
}

export async function createProvider(deps: FulfillmentDeps, input: ProviderInput, asked?: Asked): Promise<ProviderView> {
  await assertReachableUrl(deps, input.url);
  const id = await deps.providers.nextId();
  const doc: Provider = {
    _id: id,
    name: input.name,
    url: input.url,
    key: deps.cipher.seal(input.key),
    keyHint: maskKey(input.key),
    currency: input.currency,
    wonDeciPerUnit: input.wonDeciPerUnit,
    lowBalanceThreshold: input.lowBalanceThreshold,
    idempotentAdd: input.idempotentAdd,
    balance: null,
    balanceCheckedAt: null,
    balanceLow: false,
    lastError: null,
    createdAt: new Date(),
  };
  await inTransaction(deps.connection, async (session) => {
    await deps.providers.model.create([doc], { session });
    if (asked) await audit(deps, session, asked, 'fulfillment.provider.create', id, { before: null, after: auditFields(doc, audited) });
  });
  deps.relay.kick();
  return providerView(doc);
}

export async function updateProvider(deps: FulfillmentDeps, id: number, input: Partial<ProviderInput>, asked?: Asked): Promise<ProviderView> {
  if (input.url !== undefined) await assertReachableUrl(deps, input.url);
  const { key, ...rest } = input;
  const set: Partial<Provider> = { ...rest };
  if (key !== undefined) {
    set.key = deps.cipher.seal(key);
    set.keyHint = maskKey(key);
  }
  const updated = await inTransaction(deps.connection, async (session) => {
    const before = await deps.providers.model.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'before', session }).lean<Provider>();
    if (!before) throw notFound(messages.providerNotFound, 'PROVIDER_NOT_FOUND');
    const after = { ...before, ...set };
    const diff = auditDiff(before, after, audited);
    // That the key was replaced is worth knowing; the key itself never leaves this service.
    if (key !== undefined) Object.assign(diff.after, { keyReplaced: true });
    if (asked) await audit(deps, session, asked, 'fulfillment.provider.update', id, diff);
    return after;
  });
  deps.relay.kick();
  return providerView(updated);
}

export async function deleteProvider(deps: FulfillmentDeps, id: number, asked?: Asked): Promise<void> {
  if (await mappings(deps.connection).exists({ providerId: id })) throw conflict(messages.providerInUse, 'PROVIDER_IN_USE');
  await inTransaction(deps.connection, async (session) => {
    const deleted = await deps.providers.model.findOneAndDelete({ _id: id }, { session }).lean<Provider>();
    if (!deleted) throw notFound(messages.providerNotFound, 'PROVIDER_NOT_FOUND');
    if (asked) await audit(deps, session, asked, 'fulfillment.provider.delete', id, { before: auditFields(deleted, audited), after: null });
  });
  deps.relay.kick();
}

function audit(deps: FulfillmentDeps, session: ClientSession, asked: Asked, action: OperatorAction['action'], id: number, change: Pick<OperatorAction, 'before' | 'after'>) {
  return recordOperatorAction(deps.connection, session, { caller: asked.caller, action, target: { type: 'provider', id: String(id) }, ...change }, asked.origin);
}

export async function requireProvider(deps: FulfillmentDeps, id: number): Promise<Provider> {
  const provider = await deps.providers.find(id);
  if (!provider) throw notFound(messages.providerNotFound, 'PROVIDER_NOT_FOUND');
  return provider;
}


/** "Check connection": one `balance` call; the answer (or the failure) is stored and shown. */
export async function checkProvider(deps: FulfillmentDeps, id: number): Promise<ProviderCheckBody> {
  const provider = await requireProvider(deps, id);
  const answer = await fetchBalance(endpointOf(deps, provider), deps.providerTimeoutMs);
  const updated = await refreshBalance(deps, provider, answer);
  return {
    ok: answer.ok,
    balance: answer.ok ? answer.value.balance : null,
    currency: answer.ok ? answer.value.currency || provider.currency : null,
    error: answer.ok ? null : answer.detail,
    provider: providerView(updated),
  } satisfies ProviderCheckBody;
}
