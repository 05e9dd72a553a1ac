export * from './envelope.ts';
export * from './topics.ts';
export * from './status.ts';
export * from './statuses.ts';
export * from './money.ts';
export * from './settings.ts';
export * from './events/auth.ts';
export * from './events/catalog.ts';
