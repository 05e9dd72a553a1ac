import { runAppMain } from '@smm/platform';
import { startFulfillmentApp } from './root.ts';

// Alone in its process (compose, `npm start -w`, DEVSTACK_PROCESSES=each): configured from process.env, stopped on signals.
await runAppMain('fulfillment', startFulfillmentApp);
