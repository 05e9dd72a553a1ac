export * from './config.ts';
export * from './logger.ts';
export * from './lifecycle.ts';
export * from './redis.ts';
export * from './http/errors.ts';
export * from './http/validate.ts';
export * from './http/create-server.ts';
