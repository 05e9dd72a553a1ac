// Import boundaries of docs/ARCHITECTURE.md, checked by `npm run lint` (lint:boundaries) over the
// whole repository at once, because most of them cross package folders.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'service-to-service',
      comment:
        'A service talks to another only through events or HTTP, never by importing its code. Integration tests may start a real neighbour in process (fulfillment tests run real catalog and order services).',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: '^services/[^/]+/test/' },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
    },
    {
      name: 'web-to-server',
      comment: 'The browser app knows the BFF only by its HTTP API (and shares @smm/contracts). Its node-side browser-test setup (test/e2e and its vitest config) may use the testkit and the test runner.',
      severity: 'error',
      from: { path: '^web/', pathNot: '^web/(test/e2e/|vitest\\.e2e\\.config\\.ts$)' },
      to: { path: '^(bff|services|infra)/|^packages/(platform|testkit)/' },
    },
    {
      name: 'bff-to-service-code',
      comment: 'The BFF calls services over HTTP; it does not import them.',
      severity: 'error',
      from: { path: '^bff/src/' },
      to: { path: '^services/' },
    },
    {
      name: 'app-root-outside-composition',
      comment:
        "A service's or the BFF's composition root (src/root.ts, its start function) is started only by its own src/main.ts or by the devstack's shared apps process (infra/devstack/src/apps-main.ts), where each app still talks to the others only over Kafka and HTTP.",
      severity: 'error',
      from: { pathNot: '^(services/[^/]+|bff)/src/main\\.ts$|^infra/devstack/src/apps-main\\.ts$' },
      to: { path: '^(services/[^/]+|bff)/src/root\\.ts$' },
    },
    {
      name: 'devstack-to-app-internals',
      comment: 'The devstack starts services and the BFF through their composition roots and nothing else of theirs.',
      severity: 'error',
      from: { path: '^infra/devstack/' },
      to: { path: '^(services/[^/]+|bff)/', pathNot: '^(services/[^/]+|bff)/src/root\\.ts$' },
    },
    {
      name: 'platform-to-embedded',
      comment: 'Production code never depends on the embedded servers; only tests, the testkit and the devstack start them.',
      severity: 'error',
      from: { path: '^(packages/(platform|contracts)|services/[^/]+|bff)/src/' },
      to: { path: '^infra/embedded-' },
    },
    {
      name: 'domain-to-framework',
      comment: 'Domain code imports no framework (docs/STYLE.md, rule 1).',
      severity: 'error',
      from: { path: '/src/domain/' },
      to: { path: 'node_modules/(express|mongoose|mongodb|kafkajs|ioredis|react|react-dom)/' },
    },
    {
      name: 'web-feature-to-feature',
      comment: 'A web feature uses shared ui/lib code, not another feature\'s internals.',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/([^/]+)/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'undeclared-dependency',
      comment: 'Every package lists in its own package.json the npm packages it imports.',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'dev-dependency-in-production-code',
      comment: 'Code that runs in production (src/) may not need a devDependency.',
      severity: 'error',
      from: { path: '^(packages|services|infra)/[^/]+/src/|^bff/src/', pathNot: '^packages/testkit/|\\.test\\.tsx?$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Our build output and data only: node_modules/<pkg>/dist must stay visible, or imports of it vanish.
    exclude: { path: '^(packages|services|infra)/[^/]+/(dist|coverage)/|^(bff|web)/(dist|coverage)/|\\.data/|/\\.build/' },
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
