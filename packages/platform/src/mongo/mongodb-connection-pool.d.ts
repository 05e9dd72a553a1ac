// The MongoDB driver ships no types for its internals; the part of the pool pool-maintenance.ts changes.
declare module 'mongodb/lib/cmap/connection_pool.js' {
  interface ConnectionPool {
    options: { minPoolSize: number; maxIdleTimeMS: number };
    minPoolSizeTimer?: ReturnType<typeof setTimeout>;
    ensureMinPoolSize(): void;
  }
  export const ConnectionPool: { prototype: ConnectionPool };
}
