import { SettingChanged, Topics, catalogEvents } from '@smm/contracts';
import { type EventProducer, type Kafka, type RunningConsumer, runEventConsumer } from '@smm/platform';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { SettingsRepository } from '../store/setting.model.ts';
import { CONSUMER_GROUP, onSettingChanged } from './on-setting-changed.ts';

/** Catalog events auth has no use for (products and the like) are skipped, not dead-lettered. */
const ignored = catalogEvents.map((d) => d.type).filter((type) => type !== SettingChanged.type);

export function startAuthConsumer(deps: {
  kafka: Kafka;
  producer: EventProducer;
  connection: Connection;
  settings: SettingsRepository;
  logger: Logger;
  groupId?: string;
}): Promise<RunningConsumer> {
  return runEventConsumer({
    kafka: deps.kafka,
    groupId: deps.groupId ?? CONSUMER_GROUP,
    topics: [Topics.catalog],
    definitions: [SettingChanged] as const,
    ignore: ignored,
    producer: deps.producer,
    logger: deps.logger.child({ component: 'consumer' }),
    sessionTimeout: 10_000,
    handle: (event) => onSettingChanged(deps, event),
  });
}
