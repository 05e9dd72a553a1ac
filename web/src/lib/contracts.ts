/**
 * The web-safe parts of @smm/contracts. The package exports only its index, which also loads the
 * event envelope (node:crypto), so the browser imports the plain modules directly from here.
 * When the package gains subpath exports (e.g. "@smm/contracts/money"), switch these lines.
 */
export { deciToWon, formatWon, parseWon, priceDeci } from '../../../packages/contracts/src/money.ts';
export { settingEnabled, settingKeys } from '../../../packages/contracts/src/settings.ts';
export type { SettingKey } from '../../../packages/contracts/src/settings.ts';
