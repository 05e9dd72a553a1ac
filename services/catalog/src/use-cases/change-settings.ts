import type { SettingsChangeBody } from '@smm/contracts/http';
import type { SettingKey } from '@smm/contracts';
import { messages } from '../domain/messages.ts';
import { normalizeSetting } from '../domain/setting-rules.ts';
import { settingChanged } from '../events/catalog-events.ts';
import { sequences } from '../store/store.ts';
import { type Actor, type CatalogDeps, commit, invalid } from './context.ts';
import { problem } from '../domain/problem.ts';

/**
 * Sets several settings at once, all or nothing. Every value is checked before anything is
 * written; a key whose value does not change emits nothing and does not move the version.
 */
export async function changeSettings(deps: CatalogDeps, actor: Actor, values: Record<string, unknown>) {
  const entries = Object.entries(values);
  if (entries.length === 0) throw invalid(problem('NOTHING_TO_UPDATE', messages.settingsEmpty));
  const normalized: Array<{ key: SettingKey; value: string }> = [];
  for (const [key, value] of entries) {
    const result = normalizeSetting(key, value);
    if (!result.ok) throw invalid(result.problem);
    normalized.push({ key: result.key, value: result.value });
  }
  return commit(deps, async (session, emit, audit) => {
    const changed: string[] = [];
    for (const { key, value } of normalized) {
      const current = await deps.store.settings.findById(key).session(session).lean();
      if (current && current.value === value) continue;
      await deps.store.settings.updateOne({ _id: key }, { $set: { value } }, { upsert: true, session });
      emit(settingChanged(key, value, actor));
      await audit(actor, 'catalog.setting.change', { type: 'setting', id: key }, { before: { value: current?.value ?? null }, after: { value } });
      changed.push(key);
    }
    const version = changed.length > 0 ? await deps.store.nextSeq(sequences.settingsVersion, session) : await deps.store.currentSeq(sequences.settingsVersion);
    return { version, changed } satisfies SettingsChangeBody;
  });
}
