import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { AccountState } from '../domain/payments.ts';
import type { PointAccount } from '../domain/point-account.ts';

export type PointAccountDoc = { _id: string; balanceDeci: number; seq?: number; openedAt: Date; refusedAt?: Date };

const pointAccountSchema = new Schema<PointAccountDoc>(
  {
    _id: { type: String, required: true },
    balanceDeci: { type: Number, required: true, min: 0, validate: Number.isSafeInteger },
    /** Number of the account's last ledger entry; absent on accounts that never moved. */
    seq: { type: Number },
    openedAt: { type: Date, required: true },
    /** When a payment was last refused for want of points (see markRefusals). */
    refusedAt: { type: Date },
  },
  { collection: 'point_accounts', versionKey: false },
);

const toAccount = (doc: PointAccountDoc): PointAccount => ({ userId: doc._id, balanceDeci: doc.balanceDeci, seq: doc.seq ?? 0, openedAt: doc.openedAt });

/** A guarded balance write found the account moved on since it was read (or remembered). */
export class AccountChanged extends Error {
  constructor() {
    super('a point account changed while its movements were decided');
  }
}

/** How many accounts' last committed state a process keeps for its payment runs. */
const REMEMBERED_ACCOUNTS = 10_000;

/**
 * Point accounts. Every balance change goes with its ledger entry in the caller's transaction; the
 * filters here are the last line of defence (a debit never matches an account it would overdraw).
 */
export class PointAccounts {
  readonly model: Model<PointAccountDoc>;
  /**
   * Balance and seq of accounts as this process's committed payment runs left them, so that a run
   * for them can skip the read. Only a hint: every write from it is guarded by both (every balance
   * change also moves seq), so an account another writer moved meanwhile fails the write.
   */
  private readonly known = new Map<string, AccountState>();

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'PointAccount', pointAccountSchema);
  }

  /** Opens the account unless it exists: an account is never reset by a second opening. */
  async open(account: PointAccount, session: ClientSession): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: account.userId },
      { $setOnInsert: { balanceDeci: account.balanceDeci, openedAt: account.openedAt } },
      { upsert: true, session },
    );
    return result.upsertedCount === 1;
  }

  /** The accounts of these members that exist, with balance and seq, read in the caller's transaction. */
  async findMany(userIds: readonly string[], session: ClientSession): Promise<AccountState[]> {
    const docs = await this.model.collection.find({ _id: { $in: userIds } } as never, { session, projection: { balanceDeci: 1, seq: 1 } }).toArray();
    return docs.map((doc) => ({ userId: String(doc._id), balanceDeci: Number(doc.balanceDeci), seq: Number(doc.seq ?? 0) }));
  }

  /** The remembered state of every one of these accounts, or undefined if any is not remembered. */
  remembered(userIds: readonly string[]): AccountState[] | undefined {
    const states: AccountState[] = [];
    for (const userId of userIds) {
      const state = this.known.get(userId);
      if (!state) return undefined;
      states.push({ ...state });
    }
    return states;
  }

  /** Keeps the state a committed transaction left these accounts in (the oldest go past the limit). */
  remember(states: Iterable<AccountState>): void {
    for (const state of states) {
      this.known.delete(state.userId);
      this.known.set(state.userId, { ...state });
    }
    for (const userId of this.known.keys()) {
      if (this.known.size <= REMEMBERED_ACCOUNTS) break;
      this.known.delete(userId);
    }
  }

  forget(userIds: Iterable<string>): void {
    for (const userId of userIds) this.known.delete(userId);
  }

  /**
   * Writes new balances, each guarded by the balance and seq the decision started from (`before`,
   * read or remembered): if any account changed meanwhile the write throws AccountChanged. (Inside a
   * transaction a concurrent commit already raises WriteConflict; the guard makes the intent explicit
   * and catches a write committed before the transaction began that a remembered state missed.)
   */
  async applyBalances(changes: ReadonlyArray<{ before: AccountState; after: AccountState }>, session: ClientSession): Promise<void> {
    await this.setWhereUnchanged(
      changes.map(({ before, after }) => ({ state: before, set: { balanceDeci: after.balanceDeci, seq: after.seq } })),
      session,
    );
  }

  /**
   * Adds `amountDeci` and answers the account after the credit. With `openIfMissing` an account
   * that does not exist yet is opened by the credit (an approved transfer is money received).
   */
  async credit(userId: string, amountDeci: number, now: Date, session: ClientSession, openIfMissing: boolean): Promise<PointAccount | null> {
    const doc = await this.model.collection.findOneAndUpdate(
      { _id: userId } as never,
      { $inc: { balanceDeci: amountDeci, seq: 1 }, ...(openIfMissing ? { $setOnInsert: { openedAt: now } } : {}) },
      { session, returnDocument: 'after', upsert: openIfMissing, includeResultMetadata: false },
    );
    return doc ? toAccount(doc as unknown as PointAccountDoc) : null;
  }

  /**
   * Marks a refusal on each account (`refusedAt`), guarded like a balance write: a refusal then
   * writes the account as a debit does, so a debit of the same reference decided at the same moment
   * by another replica (which may have seen a top-up this one did not) conflicts with it and is
   * decided again, instead of both committing.
   */
  async markRefusals(accounts: readonly AccountState[], now: Date, session: ClientSession): Promise<void> {
    await this.setWhereUnchanged(
      accounts.map((state) => ({ state, set: { refusedAt: now } })),
      session,
    );
  }

  /** `$set`s on accounts still in the given state (balance and seq); throws AccountChanged if any moved on. */
  private async setWhereUnchanged(writes: ReadonlyArray<{ state: AccountState; set: Partial<PointAccountDoc> }>, session: ClientSession): Promise<void> {
    if (writes.length === 0) return;
    const result = await this.model.collection.bulkWrite(
      writes.map(({ state, set }) => ({
        updateOne: {
          // An account that never moved has no seq (0 in the state).
          filter: { _id: state.userId, balanceDeci: state.balanceDeci, seq: state.seq === 0 ? { $in: [null, 0] } : state.seq } as never,
          update: { $set: set },
        },
      })),
      { session, ordered: true },
    );
    if (result.matchedCount !== writes.length) throw new AccountChanged();
  }

  count(): Promise<number> {
    return this.model.countDocuments();
  }

  async find(userId: string, session?: ClientSession): Promise<PointAccount | null> {
    const doc = await this.model.findById(userId).session(session ?? null).lean();
    return doc ? toAccount(doc) : null;
  }
}
