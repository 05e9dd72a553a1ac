import { type ServiceType, serviceTypeAllowsAuto } from '@smm/contracts';
import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';

/**
 * What a product's type asks of its other fields (checked on the merged values of an update): auto
 * orders only for default products (a run repeats the same order; the panel standard drip-feeds
 * Default services only), and a package sells one fixed quantity, so its min and max are that quantity.
 */
export function checkServiceType(service: { type: ServiceType; min: number; max: number; enableAuto: boolean }): Problem | undefined {
  if (service.enableAuto && !serviceTypeAllowsAuto(service.type)) return problem('AUTO_NEEDS_DEFAULT_TYPE', messages.autoNeedsDefaultType);
  if (service.type === 'package' && service.min !== service.max) return problem('PACKAGE_QUANTITY', messages.packageQuantity);
  return undefined;
}
