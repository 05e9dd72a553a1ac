import type { EventOf, ServiceRemoved, ServiceUpserted, SettingChanged } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import type { Store } from '../store/store.ts';

export const catalogConsumer = 'order-catalog';

type CatalogEvent = EventOf<typeof ServiceUpserted> | EventOf<typeof ServiceRemoved> | EventOf<typeof SettingChanged>;

/**
 * Keeps the local replica of what orders are validated and priced against. Catalog events are keyed
 * per product and per setting, so the last event of each key is its current state.
 */
export async function onCatalogEvent(deps: { store: Store }, event: CatalogEvent, log: Logger): Promise<void> {
  const outcome = await handleOnce(deps.store.connection, catalogConsumer, event, async (session) => {
    switch (event.type) {
      case 'ServiceUpserted': {
        const { serviceId, ...rest } = event.data;
        await deps.store.saveProduct({ _id: serviceId, ...rest }, session);
        break;
      }
      case 'ServiceRemoved':
        await deps.store.removeProduct(event.data.serviceId, session);
        break;
      case 'SettingChanged':
        await deps.store.saveSetting(event.data.key, event.data.value, session);
        break;
    }
  });
  deps.store.forgetReplica();
  log.debug({ type: event.type, outcome }, 'catalog replica updated');
}
