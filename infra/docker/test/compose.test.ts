import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kafkaPrincipals } from '../../../packages/platform/src/kafka/principals.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(join(root, 'infra/docker/Dockerfile'), 'utf8');
const aclScript = readFileSync(join(root, 'infra/docker/kafka-acls.sh'), 'utf8');
/** Containers that run once and exit (setup), which the others wait for instead of a health check. */
const oneShot = ['kafka-acls'];

type Container = {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  ports?: unknown[];
  expose?: unknown[];
  container_name?: string;
  restart?: string;
  healthcheck?: { test: unknown };
  environment?: Record<string, string | number | boolean>;
  command?: string[];
  deploy?: { replicas?: string | number };
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
  volumes?: string[];
};
// Merge keys (`<<: *service`) are part of the file's YAML, as compose reads it.
const compose = parse(composeText, { merge: true }) as { services: Record<string, Container> };
const containers = compose.services;
const serviceFolders = readdirSync(join(root, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, 'services', entry.name, 'package.json')))
  .map((entry) => entry.name);

/** A whole value that is a required variable: `${NAME:?message}`. */
const requiredVariable = /^\$\{[A-Z][A-Z0-9_]*:\?[^}]*\}$/;

describe('docker-compose.yml', () => {
  it('has a container, built from the Dockerfile with its own SERVICE, for every service folder and the BFF', () => {
    expect(serviceFolders.length).toBeGreaterThanOrEqual(5);
    for (const name of [...serviceFolders, 'bff']) {
      const container = containers[name];
      expect(container, `no container for ${name}`).toBeDefined();
      expect(container!.build?.dockerfile).toBe('infra/docker/Dockerfile');
      expect(container!.build?.args?.SERVICE).toBe(name);
    }
  });

  it('publishes a port only for the BFF', () => {
    const publishing = Object.entries(containers)
      .filter(([, c]) => (c.ports ?? []).length > 0)
      .map(([name]) => name);
    expect(publishing).toEqual(['bff']);
  });

  it('gives every container a health check and a restart policy', () => {
    for (const name of oneShot) expect(containers[name]?.restart, name).toBe('no');
    for (const [name, container] of Object.entries(containers)) {
      if (oneShot.includes(name)) continue;
      expect(container.healthcheck?.test, `${name} has no health check`).toBeDefined();
      expect(container.restart, `${name} has no restart policy`).toBe('unless-stopped');
    }
  });

  it('takes every secret from the environment and refuses to start without it', () => {
    const secretName = /PASSWORD|SECRET|PRIVATE_KEY|PUBLIC_KEY|REPLICA_KEY|REDISCLI_AUTH/;
    let secrets = 0;
    for (const [name, container] of Object.entries(containers)) {
      for (const [key, value] of Object.entries(container.environment ?? {})) {
        const text = String(value);
        if (secretName.test(key)) {
          secrets += 1;
          // A JAAS line holds several passwords; each must be a required variable.
          if (key.endsWith('JAAS_CONFIG')) {
            const passwords = [...text.matchAll(/(?:password|user_\w+)="([^"]*)"/g)].map((m) => m[1]!);
            expect(passwords.length, `${name}.${key}`).toBeGreaterThan(0);
            for (const p of passwords) expect(p, `${name}.${key}`).toMatch(requiredVariable);
          } else {
            expect(text, `${name}.${key}`).toMatch(requiredVariable);
          }
        }
        // Credentials inside URLs, too.
        const inUrl = /^\w+:\/\/[^:/@]*:([^@]+)@/.exec(text);
        if (inUrl) {
          secrets += 1;
          expect(inUrl[1], `${name}.${key}`).toMatch(requiredVariable);
        }
      }
    }
    expect(secrets).toBeGreaterThan(15);
    const redisPassword = containers.redis!.command!.at(-1)!;
    expect(redisPassword).toMatch(requiredVariable);
  });

  it('runs MongoDB as a replica set with a key file and a root user, Kafka with SASL, Redis with a password', () => {
    const mongo = containers.mongo!;
    expect(JSON.stringify(mongo)).toContain('--replSet rs0');
    expect(JSON.stringify(mongo)).toContain('--keyFile');
    expect(mongo.environment?.MONGO_INITDB_ROOT_USERNAME).toBe('root');
    const kafka = containers.kafka!.environment!;
    expect(kafka.KAFKA_ADVERTISED_LISTENERS).toMatch(/^SASL_PLAINTEXT:\/\//);
    expect(kafka.KAFKA_SASL_ENABLED_MECHANISMS).toBe('PLAIN');
    expect(containers.redis!.command).toContain('--requirepass');
    for (const name of [...serviceFolders]) {
      const env = containers[name]!.environment!;
      expect(String(env.MONGO_URL), name).toMatch(new RegExp(`@mongo:27017/${name}\\?replicaSet=rs0&authSource=admin$`));
    }
  });

  it('gives every service and the BFF a Kafka principal of its own, with a password of its own in the JAAS config', () => {
    const jaas = String(containers.kafka!.environment!.KAFKA_LISTENER_NAME_SASL__PLAINTEXT_PLAIN_SASL_JAAS_CONFIG);
    const users = new Map([...jaas.matchAll(/user_(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const apps = [...serviceFolders, 'bff'];
    expect([...users.keys()].sort()).toEqual(['broker', ...apps].sort());
    expect(Object.keys(kafkaPrincipals).sort()).toEqual([...apps].sort());
    const passwords = new Set<string>();
    for (const name of apps) {
      const env = containers[name]!.environment!;
      expect(env.KAFKA_SASL_USERNAME, name).toBe(name);
      const variable = `KAFKA_${name.toUpperCase()}_PASSWORD`;
      expect(env.KAFKA_SASL_PASSWORD, name).toBe(`\${${variable}:?set ${variable}}`);
      expect(users.get(name), name).toBe(env.KAFKA_SASL_PASSWORD);
      passwords.add(String(env.KAFKA_SASL_PASSWORD));
    }
    expect(passwords.size).toBe(apps.length);
    expect(composeText).not.toMatch(/KAFKA_PASSWORD\b|user_smm/);
  });

  it('runs Kafka with the ACL authorizer (deny without an ACL, only the broker a super user) and an authenticated controller listener', () => {
    const kafka = containers.kafka!.environment!;
    expect(kafka.KAFKA_AUTHORIZER_CLASS_NAME).toBe('org.apache.kafka.metadata.authorizer.StandardAuthorizer');
    expect(kafka.KAFKA_SUPER_USERS).toBe('User:broker');
    expect(String(kafka.KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND)).toBe('false');
    expect(kafka.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP).not.toMatch(/:PLAINTEXT\b/);
    expect(kafka.KAFKA_SASL_MECHANISM_CONTROLLER_PROTOCOL).toBe('PLAIN');
  });

  it('creates the ACLs of packages/platform/src/kafka/principals.ts before any service or the BFF starts', () => {
    const acls = containers['kafka-acls']!;
    expect(acls.image).toBe(containers.kafka!.image);
    expect(acls.depends_on?.kafka?.condition).toBe('service_healthy');
    expect(acls.volumes).toEqual(['./infra/docker/kafka-acls.sh:/kafka-acls.sh:ro']);
    expect(acls.entrypoint).toEqual(['sh', '/kafka-acls.sh']);
    for (const name of [...serviceFolders, 'bff']) expect(containers[name]!.depends_on?.['kafka-acls']?.condition, name).toBe('service_completed_successfully');
    // The script's grants, line by line, are the table the embedded broker enforces in the devstack.
    const granted: Record<string, Record<string, string[]>> = {};
    for (const m of aclScript.matchAll(/^grant (\w+) (\w+) (.+)$/gm)) {
      const names = m[3]!.split(' ').map((n) => n.replace(/^'(.*)'$/, '$1'));
      (granted[m[1]!] ??= {})[m[2]!] = names;
    }
    const expected: Record<string, Record<string, string[]>> = {};
    for (const [name, grant] of Object.entries(kafkaPrincipals)) {
      expected[name] = Object.fromEntries(Object.entries(grant).filter(([, list]) => list.length > 0).map(([kind, list]) => [kind, [...list]]));
    }
    expect(granted).toEqual(expected);
  });

  it('lets order and wallet run as several replicas: no fixed name, no host port, replicas set', () => {
    for (const name of ['order', 'wallet']) {
      const container = containers[name]!;
      expect(container.container_name, name).toBeUndefined();
      expect(container.ports, name).toBeUndefined();
      expect(String(container.deploy?.replicas), name).toMatch(/^\$\{[A-Z_]+_REPLICAS:-[2-9]\}$/);
    }
  });

  it('is accepted by `docker compose config` (when the compose plugin is installed)', (context) => {
    const version = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (version.status !== 0) {
      context.skip('the docker compose plugin is not installed here');
      return;
    }
    const kafkaSecrets = [...serviceFolders, 'bff'].map((name) => `KAFKA_${name.toUpperCase()}_PASSWORD`);
    const secrets = [...kafkaSecrets, 'KAFKA_BROKER_PASSWORD', 'MONGO_ROOT_PASSWORD', 'MONGO_REPLICA_KEY', 'REDIS_PASSWORD', 'SERVICE_AUTH_SECRET', 'FULFILLMENT_KEY_SECRET', 'TWO_FACTOR_KEY_SECRET', 'JWT_PRIVATE_KEY', 'JWT_PUBLIC_KEY', 'ADMIN_PASSWORD'];
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
    const full = Object.fromEntries(secrets.map((name) => [name, `test-${name.toLowerCase()}`]));
    const ok = spawnSync('docker', ['compose', '-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, env: { ...env, ...full }, encoding: 'utf8' });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const { REDIS_PASSWORD: _dropped, ...missing } = full;
    const refused = spawnSync('docker', ['compose', '-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, env: { ...env, ...missing }, encoding: 'utf8' });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('REDIS_PASSWORD');
  });
});

describe('infra/docker/Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in one stage and runs from another that holds no sources', () => {
    expect(stages.length).toBe(2);
    const runtime = stages[1]!;
    expect(runtime).toMatch(/^\S+ AS runtime/);
    expect(runtime).not.toMatch(/^COPY \. /m);
    expect(runtime).toMatch(/^COPY --from=build /m);
    expect(stages[0]).toMatch(/^RUN npm ci /m);
    expect(runtime).toMatch(/--omit=dev/);
  });

  it('runs as a non-root user, with a health check on /healthz, for the SERVICE it was built with', () => {
    const runtime = stages[1]!;
    const user = /^USER (\S+)/m.exec(runtime);
    expect(user?.[1]).toBeDefined();
    expect(['root', '0']).not.toContain(user![1]);
    expect(runtime).toMatch(/^HEALTHCHECK .*healthcheck\.mjs/m);
    expect(readFileSync(join(root, 'infra/docker/healthcheck.mjs'), 'utf8')).toContain('/healthz');
    expect(dockerfile).toMatch(/^ARG SERVICE$/m);
    expect(readFileSync(join(root, 'infra/docker/entrypoint.sh'), 'utf8')).toMatch(/exec node .*dist\/main\.js/);
  });

  it('every service folder and the BFF has the build script the Dockerfile runs', () => {
    for (const dir of [...serviceFolders.map((s) => `services/${s}`), 'bff']) {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      expect(manifest.scripts.build, dir).toBe('smm-bundle');
    }
  });
});
