import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/** The wallet's replica of the site settings (catalog owns them; SettingChanged keeps this current). */
type SettingDoc = { _id: string; value: string; changedAt: Date };

const settingSchema = new Schema<SettingDoc>(
  { _id: { type: String, required: true }, value: { type: String, default: '' }, changedAt: { type: Date, required: true } },
  { collection: 'settings', versionKey: false },
);

export class SettingsReplica {
  readonly model: Model<SettingDoc>;

  constructor(connection: Connection) {
    this.model = modelOn(connection, 'Setting', settingSchema);
  }

  /** Catalog's events of one key arrive in order, and handleOnce keeps a replay from applying one twice. */
  async apply(key: string, value: string, changedAt: Date, session: ClientSession): Promise<void> {
    await this.model.updateOne({ _id: key }, { $set: { value, changedAt } }, { upsert: true, session });
  }

  async get(key: string): Promise<string | undefined> {
    const doc = await this.model.findById(key).lean();
    return doc?.value;
  }
}
