import type { Connection, Model } from 'mongoose';
import { modelOn, outboxModel } from '@smm/platform';
import type { Product } from '../domain/product.ts';
import {
  type AutoOrder,
  type Counter,
  type Order,
  type ProductDoc,
  type SettingDoc,
  autoOrderSchema,
  counterSchema,
  orderSchema,
  productSchema,
  settingSchema,
} from './models.ts';

export type Store = {
  connection: Connection;
  orders: Model<Order>;
  autoOrders: Model<AutoOrder>;
  products: Model<ProductDoc>;
  settings: Model<SettingDoc>;
  counters: Model<Counter>;
  product(serviceId: number): Promise<Product | null>;
  setting(key: string): Promise<string | undefined>;
  /**
   * The next id of the one sequence orders and auto orders share. An atomic `$inc` outside any
   * transaction: it never conflicts with the order's own transaction, and an id lost to a failed
   * transaction is only a gap.
   */
  nextOrderId(): Promise<number>;
};

export const orderIdSequence = 'order-id';

export async function createStore(connection: Connection, idBlock = 1): Promise<Store> {
  const counters = modelOn(connection, 'Counter', counterSchema);
  // Ids handed out from a reserved block: one counter write per `idBlock` orders.
  let next = 0;
  let last = -1;
  let reserving: Promise<void> | undefined;
  const reserve = async () => {
    const counter = await counters.findOneAndUpdate({ _id: orderIdSequence }, { $inc: { seq: idBlock } }, { upsert: true, returnDocument: 'after' }).lean();
    if (!counter) throw new Error('order id sequence did not advance');
    next = counter.seq - idBlock + 1;
    last = counter.seq;
  };

  const store: Store = {
    connection,
    orders: modelOn(connection, 'Order', orderSchema),
    autoOrders: modelOn(connection, 'AutoOrder', autoOrderSchema),
    products: modelOn(connection, 'Product', productSchema),
    settings: modelOn(connection, 'Setting', settingSchema),
    counters,
    async product(serviceId) {
      if (!Number.isSafeInteger(serviceId) || serviceId <= 0) return null;
      const doc = await store.products.findById(serviceId).lean<ProductDoc>();
      if (!doc) return null;
      const { _id, ...rest } = doc;
      return { serviceId: _id, ...rest };
    },
    async setting(key) {
      const doc = await store.settings.findById(key).lean<SettingDoc>();
      return doc?.value;
    },
    async nextOrderId() {
      while (next > last) {
        reserving ??= reserve().finally(() => (reserving = undefined));
        await reserving;
      }
      return next++;
    },
  };
  // Collections and indexes exist before the first transaction: DDL is not transactional.
  for (const model of [store.orders, store.autoOrders, store.products, store.settings, counters, outboxModel(connection)] as Array<Model<unknown>>) {
    await model.createCollection().catch(() => undefined);
    await model.init();
  }
  return store;
}
