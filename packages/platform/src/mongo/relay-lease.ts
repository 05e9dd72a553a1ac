import { randomUUID } from 'node:crypto';
import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { modelOn } from './connection.ts';

type Lease = { _id: string; owner: string; expiresAt: Date };

const leaseSchema = new Schema<Lease>(
  { _id: { type: String, required: true }, owner: { type: String, required: true }, expiresAt: { type: Date, required: true } },
  { collection: 'leases', versionKey: false },
);

/**
 * The outbox relay's lease on its service database: one relay publishes at a time, so replicas do
 * not reorder each other's events. Held for `leaseMs` from each renewal, renewed once a third of
 * it has passed.
 */
export class RelayLease {
  private readonly leases: Model<Lease>;
  private readonly owner = randomUUID();
  /** Until when this relay may publish without renewing its lease (in-memory; no write per drain). */
  private trustedUntil = 0;

  constructor(
    connection: Connection,
    private readonly leaseMs: number,
  ) {
    this.leases = modelOn(connection, 'Lease', leaseSchema);
  }

  /** Whether this relay holds the lease now (taking or renewing it when due). */
  async hold(): Promise<boolean> {
    const now = Date.now();
    // Until a third has passed no other relay can take it (it expires only at acquisition +
    // leaseMs), so publishing needs no lease write per drain.
    if (now < this.trustedUntil) return true;
    const expiresAt = new Date(now + this.leaseMs);
    try {
      const lease = await this.leases.findOneAndUpdate(
        { _id: 'outbox-relay', $or: [{ owner: this.owner }, { expiresAt: { $lt: new Date(now) } }] },
        { $set: { owner: this.owner, expiresAt } },
        { upsert: true, returnDocument: 'after' },
      );
      const held = lease?.owner === this.owner;
      this.trustedUntil = held ? now + this.leaseMs / 3 : 0;
      return held;
    } catch {
      this.trustedUntil = 0;
      return false; // another relay holds it (the upsert hit the existing lease)
    }
  }

  /** Gives the lease up (if held), so another relay can take it at once. */
  async release(): Promise<void> {
    this.trustedUntil = 0;
    await this.leases.deleteOne({ _id: 'outbox-relay', owner: this.owner }).catch(() => undefined);
  }
}
