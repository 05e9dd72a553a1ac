export { runDevstack, StartupError } from './stack.ts';
export { devstackConfigShape, type DevstackConfig } from './config.ts';
export { apps, embeddedServers, databaseUrl } from './components.ts';
