import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn, outboxModel } from '@smm/platform';
import type { Product } from '../domain/product.ts';
import {
  type ProductDoc,
  type SettingDoc,
  autoOrderSchema,
  counterSchema,
  orderSchema,
  productSchema,
  settingSchema,
} from './models.ts';
import { MemberRateRepository } from './member-rates.ts';
import { OrderRepository } from './order-repository.ts';

export type Store = {
  connection: Connection;
  /** Orders and auto orders: every read and change of them goes through it. */
  repository: OrderRepository;
  /** Rates per member (issue 40): what a member's orders are priced with. */
  rates: MemberRateRepository;
  product(serviceId: number): Promise<Product | null>;
  setting(key: string): Promise<string | undefined>;
  /** The catalogue replica's writes (from catalog events), in the caller's transaction. */
  saveProduct(product: ProductDoc, session: ClientSession): Promise<void>;
  removeProduct(serviceId: number, session: ClientSession): Promise<void>;
  saveSetting(key: string, value: string, session: ClientSession): Promise<void>;
  /**
   * The next id of the one sequence orders and auto orders share. An atomic `$inc` outside any
   * transaction: it never conflicts with the order's own transaction, and an id lost to a failed
   * transaction is only a gap.
   */
  nextOrderId(): Promise<number>;
  /** The highest id handed out so far (by any replica): no order has a larger one. */
  lastOrderId(): Promise<number>;
  /** Drops cached replica reads: called after this process applied a catalogue event. */
  forgetReplica(): void;
};

export type StoreOptions = {
  /** Order ids reserved per counter write. */
  idBlock?: number;
  /**
   * How long a product or setting read stays cached in this process. Every order reads both, so
   * this saves two queries per order; another replica's catalogue update shows after at most this.
   */
  replicaCacheMs?: number;
};

export const orderIdSequence = 'order-id';

export async function createStore(connection: Connection, { idBlock = 1, replicaCacheMs = 1000 }: StoreOptions = {}): Promise<Store> {
  const cache = new Map<string, { at: number; value: Promise<unknown> }>();
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < replicaCacheMs) return hit.value as Promise<T>;
    const value = load();
    cache.set(key, { at: Date.now(), value });
    value.catch(() => cache.delete(key));
    return value;
  };
  const counters = modelOn(connection, 'Counter', counterSchema);
  // Ids are handed out from reserved blocks. Requests that ask while a reservation is in flight
  // are served together by the next one (a block as large as the queue), so concurrent orders cost
  // one counter write per round trip instead of queueing one write each.
  let next = 0;
  let last = -1;
  const queue: Array<{ resolve: (id: number) => void; reject: (error: unknown) => void }> = [];
  let reserving = false;
  const serve = () => {
    while (queue.length > 0 && next <= last) queue.shift()!.resolve(next++);
    if (queue.length === 0 || reserving) return;
    reserving = true;
    const count = Math.max(queue.length, idBlock);
    counters
      .findOneAndUpdate({ _id: orderIdSequence }, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after' })
      .lean()
      .then(
        (counter) => {
          if (!counter) throw new Error('order id sequence did not advance');
          next = counter.seq - count + 1;
          last = counter.seq;
        },
      )
      .catch((error: unknown) => {
        for (const waiter of queue.splice(0)) waiter.reject(error);
      })
      .finally(() => {
        reserving = false;
        serve();
      });
  };

  const orders = modelOn(connection, 'Order', orderSchema);
  const autoOrders = modelOn(connection, 'AutoOrder', autoOrderSchema);
  const products = modelOn(connection, 'Product', productSchema);
  const settings = modelOn(connection, 'Setting', settingSchema);
  const rates = new MemberRateRepository(connection, replicaCacheMs);
  const store: Store = {
    connection,
    repository: new OrderRepository(orders, autoOrders, () => store.lastOrderId()),
    rates,
    product(serviceId) {
      if (!Number.isSafeInteger(serviceId) || serviceId <= 0) return Promise.resolve(null);
      return cached(`product:${serviceId}`, async () => {
        const doc = await products.findById(serviceId).lean<ProductDoc>();
        if (!doc) return null;
        const { _id, ...rest } = doc;
        return { serviceId: _id, ...rest };
      });
    },
    setting(key) {
      return cached(`setting:${key}`, async () => (await settings.findById(key).lean<SettingDoc>())?.value);
    },
    async saveProduct(product, session) {
      await products.replaceOne({ _id: product._id }, product, { upsert: true, session });
    },
    async removeProduct(serviceId, session) {
      await products.deleteOne({ _id: serviceId }, { session });
    },
    async saveSetting(key, value, session) {
      await settings.replaceOne({ _id: key }, { _id: key, value }, { upsert: true, session });
    },
    async lastOrderId() {
      return (await counters.findById(orderIdSequence).lean())?.seq ?? 0;
    },
    forgetReplica() {
      cache.clear();
    },
    nextOrderId() {
      return new Promise<number>((resolve, reject) => {
        queue.push({ resolve, reject });
        serve();
      });
    },
  };
  // Collections and indexes exist before the first transaction: DDL is not transactional.
  for (const model of [orders, autoOrders, products, settings, counters, rates.model, outboxModel(connection)] as Array<Model<unknown>>) {
    await model.createCollection().catch(() => undefined);
    await model.init();
  }
  return store;
}
