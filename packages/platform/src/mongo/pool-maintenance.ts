// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./mongodb-connection-pool.d.ts" />
// A static import, so the production bundle (infra/docker) carries the driver module mongoose uses.
import { ConnectionPool } from 'mongodb/lib/cmap/connection_pool.js';

/**
 * The MongoDB driver's connection pool re-checks itself every 100 ms for as long as it is open
 * (`minPoolSizeCheckFrequencyMS`, not settable through the client's options): it prunes perished
 * connections and tops the pool up to `minPoolSize`. With no minimum pool size and no idle limit
 * (`maxIdleTimeMS`), as every service here connects, neither is ever due — a checkout prunes
 * perished connections itself — yet the timer woke every idle service 10 times a second (issue 42).
 * For such pools the re-check runs once when the pool becomes ready and is not set again; a pool
 * with a minimum size or an idle limit keeps the driver's schedule.
 */
type Pool = typeof ConnectionPool.prototype;

const driverEnsureMinPoolSize = ConnectionPool.prototype.ensureMinPoolSize;
ConnectionPool.prototype.ensureMinPoolSize = function ensureMinPoolSize(this: Pool) {
  driverEnsureMinPoolSize.call(this);
  if (this.options.minPoolSize === 0 && this.options.maxIdleTimeMS === 0) {
    clearTimeout(this.minPoolSizeTimer);
    this.minPoolSizeTimer = undefined;
  }
};
