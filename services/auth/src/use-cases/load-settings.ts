import { type AuthSettings, toAuthSettings } from '../domain/settings.ts';
import type { AuthServices } from './context.ts';

export async function loadSettings(services: Pick<AuthServices, 'settings'>): Promise<AuthSettings> {
  return toAuthSettings(await services.settings.all());
}
