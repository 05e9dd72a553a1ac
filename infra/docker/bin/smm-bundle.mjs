#!/usr/bin/env node
// `npm run build` in a service or the BFF: bundles that package's src/main.ts into dist/.
/* global process */
import { register } from 'tsx/esm/api';

register();
const { bundlePackage } = await import('../src/bundle.ts');
await bundlePackage(process.cwd());
