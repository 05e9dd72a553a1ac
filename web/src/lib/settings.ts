import useSWR from 'swr';
import { settingEnabled, settingKeys } from './contracts.ts';
import type { SettingKey } from './contracts.ts';
import { hour } from './swr.ts';
import type { Setting } from './types.ts';

export type Settings = {
  get(key: SettingKey): string;
  enabled(key: SettingKey): boolean;
  loaded: boolean;
};

function toSettings(list: Setting[] | undefined): Settings {
  const map = new Map((list ?? []).map((s) => [s.key, s.value] as const));
  return {
    get: (key) => map.get(key)?.trim() ?? '',
    enabled: (key) => settingEnabled(map.get(key)),
    loaded: list !== undefined,
  };
}

/** Site settings (spec §7): cached 1 hour, not refetched on mount while cached. */
export function useSettings(): Settings {
  const { data } = useSWR<Setting[]>('/service/settings', {
    dedupingInterval: hour,
    revalidateIfStale: false,
    refreshInterval: hour,
  });
  return toSettings(data);
}

export { settingKeys as keys };
