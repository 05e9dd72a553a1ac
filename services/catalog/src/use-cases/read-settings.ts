import type { SettingsViewBody } from '@smm/contracts/http';
import { flagSettingKeys, settingEnabled } from '@smm/contracts';
import type { SettingKey } from '@smm/contracts';
import { settingRank } from '../domain/setting-rules.ts';
import type { Setting } from '../store/content.models.ts';
import { sequences } from '../store/store.ts';
import type { CatalogDeps } from './context.ts';

export function settingsEtag(version: number): string {
  return `"settings-${version}"`;
}

/** The settings version: it grows by one with every committed change of any setting. */
export function settingsVersion(deps: CatalogDeps): Promise<number> {
  return deps.store.currentSeq(sequences.settingsVersion);
}

/**
 * All stored settings with the version they are at least as new as. The version is read before the
 * values, so a reader that caches by version may refetch once too often but never keeps stale values.
 */
export async function readSettings(deps: CatalogDeps) {
  const version = await settingsVersion(deps);
  const rows = await deps.store.settings.find().lean<Setting[]>();
  rows.sort((a, b) => settingRank(a._id) - settingRank(b._id));
  const flags: Record<string, boolean> = {};
  for (const row of rows) if (flagSettingKeys.has(row._id as SettingKey)) flags[row._id] = settingEnabled(row.value);
  return { version, etag: settingsEtag(version), items: rows.map((r) => ({ key: r._id, value: r.value })), flags } satisfies SettingsViewBody;
}
