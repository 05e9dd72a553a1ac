import { Schema } from 'mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/** Auth's replica of catalog settings it needs, fed by SettingChanged events. */
type SettingDoc = { _id: string; value: string; updatedAt: Date; eventOccurredAt: Date };

const settingSchema = new Schema<SettingDoc>(
  {
    _id: { type: String, required: true },
    value: { type: String, default: '' },
    updatedAt: { type: Date, required: true },
    eventOccurredAt: { type: Date, required: true },
  },
  { collection: 'settings', versionKey: false },
);

function settingModel(connection: Connection): Model<SettingDoc> {
  return modelOn(connection, 'Setting', settingSchema);
}

export class SettingsRepository {
  private readonly settings: Model<SettingDoc>;
  constructor(connection: Connection) {
    this.settings = settingModel(connection);
  }

  async all(): Promise<Map<string, string>> {
    const docs = await this.settings.find({}).lean();
    return new Map(docs.map((d) => [d._id, d.value]));
  }

  /**
   * Stores a setting's value unless a newer change was already applied (events of one key arrive
   * in order, but a replay from the beginning must not roll a value back).
   */
  async apply(key: string, value: string, occurredAt: Date, session: ClientSession): Promise<void> {
    const current = await this.settings.findById(key).session(session).lean();
    if (current && current.eventOccurredAt.getTime() > occurredAt.getTime()) return;
    await this.settings.updateOne(
      { _id: key },
      { $set: { value, updatedAt: new Date(), eventOccurredAt: occurredAt } },
      { upsert: true, session },
    );
  }
}
