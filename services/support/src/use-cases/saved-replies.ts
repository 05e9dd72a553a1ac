import type { EventOrigin } from '@smm/contracts';
import type { SavedReplyBody } from '@smm/contracts/http';
import { type AuditFields, auditDiff, badRequest, conflict, inTransaction, notFound, recordOperatorAction } from '@smm/platform';
import { checkText } from '../domain/ticket-rules.ts';
import { messages } from '../messages.ts';
import type { SavedReplyDoc } from '../store/store.ts';
import type { Caller, SupportDeps } from './tickets.ts';

const maxSavedReplies = 100;

const view = (doc: SavedReplyDoc): SavedReplyBody => ({ id: doc._id, title: doc.title, body: doc.body, updatedAt: doc.updatedAt.toISOString() });
const fields = (doc: SavedReplyDoc): Record<string, unknown> => ({ title: doc.title, body: doc.body });
const missing = () => notFound(messages.savedReplyNotFound, 'SAVED_REPLY_NOT_FOUND');

function checked(input: { title?: string | undefined; body?: string | undefined }): { title: string; body: string } {
  const title = checkText(input.title, 'savedReplyTitle');
  if (!title.ok) throw badRequest(title.problem.message, undefined, title.problem.code);
  const body = checkText(input.body, 'body');
  if (!body.ok) throw badRequest(body.problem.message, undefined, body.problem.code);
  return { title: title.text, body: body.text };
}

async function audit(deps: SupportDeps, session: Parameters<typeof recordOperatorAction>[1], caller: Caller, action: 'support.reply.create' | 'support.reply.update' | 'support.reply.delete', id: number, before: AuditFields, after: AuditFields, origin: EventOrigin) {
  await recordOperatorAction(deps.store.connection, session, { caller: { userId: caller.userId, role: caller.role as never }, action, target: { type: 'saved-reply', id: String(id) }, before, after }, origin);
}

/** Answers operators reuse (staff and admins read them; admins write them), in title order. */
export async function listSavedReplies(deps: SupportDeps): Promise<SavedReplyBody[]> {
  return (await deps.store.savedReplies.find().sort({ title: 1, _id: 1 }).lean<SavedReplyDoc[]>()).map(view);
}

export async function createSavedReply(deps: SupportDeps, caller: Caller, input: { title?: string | undefined; body?: string | undefined }, origin: EventOrigin): Promise<SavedReplyBody> {
  const values = checked(input);
  return inTransaction(deps.store.connection, async (session) => {
    if ((await deps.store.savedReplies.countDocuments().session(session)) >= maxSavedReplies) throw conflict(messages.savedRepliesFull, 'SAVED_REPLIES_FULL');
    const id = await deps.store.nextId('saved-reply', session);
    const now = deps.now();
    const doc: SavedReplyDoc = { _id: id, ...values, createdAt: now, updatedAt: now };
    await deps.store.savedReplies.create([doc], { session });
    await audit(deps, session, caller, 'support.reply.create', id, null, fields(doc), origin);
    return view(doc);
  });
}

export async function updateSavedReply(deps: SupportDeps, caller: Caller, id: number, input: { title?: string | undefined; body?: string | undefined }, origin: EventOrigin): Promise<SavedReplyBody> {
  const values = checked(input);
  return inTransaction(deps.store.connection, async (session) => {
    const before = await deps.store.savedReplies.findOneAndUpdate({ _id: id }, { $set: { ...values, updatedAt: deps.now() } }, { returnDocument: 'before', session }).lean<SavedReplyDoc>();
    if (!before) throw missing();
    const after = (await deps.store.savedReplies.findById(id).session(session).lean<SavedReplyDoc>())!;
    const diff = auditDiff(fields(before), fields(after), ['title', 'body']);
    await audit(deps, session, caller, 'support.reply.update', id, diff.before, diff.after, origin);
    return view(after);
  });
}

export async function deleteSavedReply(deps: SupportDeps, caller: Caller, id: number, origin: EventOrigin): Promise<void> {
  await inTransaction(deps.store.connection, async (session) => {
    const before = await deps.store.savedReplies.findOneAndDelete({ _id: id }, { session }).lean<SavedReplyDoc>();
    if (!before) throw missing();
    await audit(deps, session, caller, 'support.reply.delete', id, fields(before), null, origin);
  });
}
