import { type EventEnvelope, type EventOrigin, ServiceRemoved, ServiceUpserted, SettingChanged } from '@smm/contracts';
import { effectiveVisible } from '../domain/visibility.ts';
import type { Category, Platform, Service } from '../store/catalog.models.ts';

/**
 * What other services replicate about a product. `visible` is the member-facing visibility (the
 * product's flag and its platform's), so a hidden platform's products cannot be ordered.
 */
export function serviceUpserted(
  service: Service,
  category: Pick<Category, 'platformId'>,
  platform: Pick<Platform, 'visible'>,
  origin: EventOrigin,
): EventEnvelope {
  return ServiceUpserted.create(
    `service-${service._id}`,
    {
      serviceId: service._id,
      text: service.text,
      platformId: category.platformId,
      categoryId: service.categoryId,
      min: service.min,
      max: service.max,
      unitPriceDeci: service.unitPriceDeci,
      enableAuto: service.enableAuto,
      isReadOnly: service.isReadOnly,
      visible: effectiveVisible(service.visible, platform.visible),
      type: service.type ?? 'default',
    },
    origin,
  );
}

export function serviceRemoved(serviceId: number, origin: EventOrigin): EventEnvelope {
  return ServiceRemoved.create(`service-${serviceId}`, { serviceId }, origin);
}

export function settingChanged(key: string, value: string, origin: EventOrigin): EventEnvelope {
  return SettingChanged.create(`setting-${key}`, { key, value }, origin);
}
