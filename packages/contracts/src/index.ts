export * from './envelope.ts';
export * from './topics.ts';
export * from './status.ts';
export * from './statuses.ts';
