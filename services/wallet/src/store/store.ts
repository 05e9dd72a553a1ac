import type { Connection } from 'mongoose';
import { outboxModel } from '@smm/platform';
import { Adjustments } from './adjustment.model.ts';
import { Deposits } from './deposit.model.ts';
import { Ledger } from './ledger.model.ts';
import { PaymentRejections } from './payment-rejection.model.ts';
import { PointAccounts } from './point-account.model.ts';
import { ReferralStore } from './referral.model.ts';
import { AutoRuns, RefundRefusals } from './refund-proof.model.ts';
import { SettingsReplica } from './setting.model.ts';
import { TopUps } from './top-up.model.ts';

export type Store = {
  connection: Connection;
  accounts: PointAccounts;
  ledger: Ledger;
  rejections: PaymentRejections;
  topUps: TopUps;
  settings: SettingsReplica;
  deposits: Deposits;
  adjustments: Adjustments;
  referrals: ReferralStore;
  refundRefusals: RefundRefusals;
  autoRuns: AutoRuns;
};

/** The wallet's repositories, with every collection and index created before the first transaction (DDL is not transactional). */
export async function createStore(connection: Connection): Promise<Store> {
  const store: Store = {
    connection,
    accounts: new PointAccounts(connection),
    ledger: new Ledger(connection),
    rejections: new PaymentRejections(connection),
    topUps: new TopUps(connection),
    settings: new SettingsReplica(connection),
    deposits: new Deposits(connection),
    adjustments: new Adjustments(connection),
    referrals: new ReferralStore(connection),
    refundRefusals: new RefundRefusals(connection),
    autoRuns: new AutoRuns(connection),
  };
  const models = [
    store.accounts.model,
    store.ledger.model,
    store.rejections.model,
    store.topUps.model,
    store.topUps.guards,
    store.topUps.counters,
    store.settings.model,
    store.deposits.model,
    store.adjustments.model,
    store.referrals.relations,
    store.referrals.earnings,
    store.referrals.carries,
    store.refundRefusals.model,
    store.autoRuns.model,
    outboxModel(connection),
  ];
  for (const model of models) {
    await model.createCollection().catch(() => undefined);
    await model.init();
  }
  // handleOnce writes here inside transactions; create it up front like the others.
  await connection.createCollection('processed_events').catch(() => undefined);
  return store;
}
