import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { SealedKey } from './key-cipher.ts';

/** An upstream panel we forward to. Amounts in its currency are exact decimal text. */
export type Provider = {
  _id: number;
  name: string;
  url: string;
  key: SealedKey;
  /** Last 4 characters, for screens; the key itself never leaves this service. */
  keyHint: string;
  currency: string;
  /** Deci-won per one unit of the provider's currency (10 for KRW). */
  wonDeciPerUnit: number;
  /** Alert when the balance falls below this (provider currency); "0" never alerts. */
  lowBalanceThreshold: string;
  /**
   * The provider honours `Idempotency-Key` on `add` (a copy of this product does): an `add` whose
   * outcome is unknown is sent again with the same key, and the provider answers the order it
   * already took instead of placing a second one. Off for any other panel (review instead).
   */
  idempotentAdd?: boolean;
  balance: string | null;
  balanceCheckedAt: Date | null;
  balanceLow: boolean;
  /** The last call's failure (null once a call succeeds): what the dashboard and the providers screen show. */
  lastError: string | null;
  /** When that failure happened; kept after a success so the screen can say when it last failed. */
  lastErrorAt?: Date | null;
  /** The first failure of the current run of failures; null while calls succeed. */
  failingSince?: Date | null;
  /** The last call of any kind (check, balance, status, add, refill, cancel) and which it was. */
  lastCallAt?: Date | null;
  lastCallAction?: string | null;
  createdAt: Date;
};

/** A provider call's name as it is recorded for health. */
export type CallAction = 'balance' | 'status' | 'add' | 'services' | 'refill' | 'refill_status' | 'cancel';
/** A success is written at most this often per provider (the forwarding path calls it per order). */
const successWriteMs = 60_000;

const providerSchema = new Schema<Provider>(
  {
    _id: { type: Number, required: true },
    name: { type: String, required: true },
    url: { type: String, required: true },
    key: { type: Schema.Types.Mixed, required: true },
    keyHint: { type: String, required: true },
    currency: { type: String, required: true },
    wonDeciPerUnit: { type: Number, required: true },
    lowBalanceThreshold: { type: String, required: true },
    idempotentAdd: { type: Boolean, default: false },
    balance: { type: String, default: null },
    balanceCheckedAt: { type: Date, default: null },
    balanceLow: { type: Boolean, default: false },
    lastError: { type: String, default: null },
    lastErrorAt: { type: Date, default: null },
    failingSince: { type: Date, default: null },
    lastCallAt: { type: Date, default: null },
    lastCallAction: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { collection: 'providers', versionKey: false, minimize: false },
);

type Counter = { _id: string; seq: number };
const counterSchema = new Schema<Counter>({ _id: { type: String, required: true }, seq: { type: Number, required: true } }, { collection: 'counters', versionKey: false });

export class Providers {
  readonly model: Model<Provider>;
  private readonly counters: Model<Counter>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'Provider', providerSchema);
    this.counters = modelOn(connection, 'Counter', counterSchema);
  }

  /** The next id of a sequence (providers, refills). */
  async nextId(session?: ClientSession, sequence = 'provider'): Promise<number> {
    const counter = await this.counters.findOneAndUpdate({ _id: sequence }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after', session }).lean<Counter>();
    return counter!.seq;
  }

  find(id: number, session?: ClientSession) {
    return this.model.findById(id).session(session ?? null).lean<Provider>();
  }

  list() {
    return this.model.find().sort({ _id: 1 }).lean<Provider[]>();
  }

  /** A call failed (no answer, not JSON, not understood): the provider is failing from now on, or still. */
  async callFailed(id: number, action: CallAction, detail: string, now = new Date()): Promise<void> {
    await this.model.updateOne({ _id: id, failingSince: null }, { $set: { failingSince: now } });
    await this.model.updateOne({ _id: id }, { $set: { lastError: detail.slice(0, 300), lastErrorAt: now, lastCallAt: now, lastCallAction: action } });
  }

  /** A call was answered as the API says: no longer failing. Written when that changes, else at most once a minute. */
  async callSucceeded(id: number, action: CallAction, now = new Date()): Promise<void> {
    await this.model.updateOne(
      { _id: id, $or: [{ lastError: { $ne: null } }, { lastCallAt: null }, { lastCallAt: { $lt: new Date(now.getTime() - successWriteMs) } }] },
      { $set: { lastError: null, failingSince: null, lastCallAt: now, lastCallAction: action } },
    );
  }
}
