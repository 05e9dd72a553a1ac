import os from 'node:os';
import type { Client, ServerState } from '../state.ts';
import { REDIS_VERSION } from '../state.ts';
import { blockedCount } from './blocking.ts';
import { defs } from './types.ts';
import type { CommandSpec } from './types.ts';

const DEFAULT = ['server', 'clients', 'memory', 'persistence', 'stats', 'replication', 'cpu', 'keyspace'];

function section(name: string, s: ServerState): string[] | undefined {
  const now = Date.now();
  switch (name) {
    case 'server':
      return [
        `redis_version:${REDIS_VERSION}`,
        'redis_git_sha1:00000000',
        'redis_git_dirty:0',
        'redis_mode:standalone',
        'embedded:smm-embedded-redis',
        `os:${os.type()} ${os.release()} ${os.arch()}`,
        'arch_bits:64',
        'multiplexing_api:node',
        `process_id:${process.pid}`,
        `tcp_port:${s.port}`,
        `uptime_in_seconds:${Math.floor((now - s.startedAt) / 1000)}`,
        `uptime_in_days:${Math.floor((now - s.startedAt) / 86400000)}`,
        'executable:node',
      ];
    case 'clients':
      return [
        `connected_clients:${s.clients.size}`,
        `blocked_clients:${blockedCount(s)}`,
        `pubsub_clients:${[...s.clients.values()].filter((c) => c.channels.size + c.patterns.size > 0).length}`,
      ];
    case 'memory': {
      const m = process.memoryUsage();
      return [
        `used_memory:${m.heapUsed}`,
        `used_memory_human:${(m.heapUsed / 1048576).toFixed(2)}M`,
        `used_memory_rss:${m.rss}`,
        'maxmemory:0',
        'maxmemory_policy:noeviction',
      ];
    }
    case 'persistence':
      return [
        'loading:0',
        'async_loading:0',
        `rdb_changes_since_last_save:${s.dirty}`,
        `rdb_last_save_time:${s.lastSaveAt}`,
        `aof_enabled:${s.aof !== undefined ? 1 : 0}`,
        `aof_last_write_status:${s.aof?.error !== undefined ? 'err' : 'ok'}`,
        `snapshot_enabled:${s.dataDir !== undefined ? 1 : 0}`,
      ];
    case 'stats': {
      let expired = 0;
      for (const d of s.dbs) expired += d.expiredCount;
      return [
        `total_connections_received:${s.totalConnections}`,
        `total_commands_processed:${s.totalCommands}`,
        `expired_keys:${expired}`,
        `pubsub_channels:${s.channels.size}`,
        `pubsub_patterns:${s.patterns.size}`,
      ];
    }
    case 'replication':
      return ['role:master', 'connected_slaves:0'];
    case 'cpu': {
      const u = process.cpuUsage();
      return [`used_cpu_sys:${(u.system / 1e6).toFixed(6)}`, `used_cpu_user:${(u.user / 1e6).toFixed(6)}`];
    }
    case 'keyspace': {
      const lines: string[] = [];
      for (const d of s.dbs) {
        if (d.size > 0) lines.push(`db${d.index}:keys=${d.size},expires=${d.expires.size},avg_ttl=0`);
      }
      return lines;
    }
    default:
      return undefined;
  }
}

const TITLES: Record<string, string> = {
  server: 'Server',
  clients: 'Clients',
  memory: 'Memory',
  persistence: 'Persistence',
  stats: 'Stats',
  replication: 'Replication',
  cpu: 'CPU',
  keyspace: 'Keyspace',
};

export function infoText(s: ServerState, wanted: readonly string[]): string {
  let names = wanted.map((w) => w.toLowerCase());
  if (names.length === 0 || names.includes('default') || names.includes('all') || names.includes('everything')) {
    names = DEFAULT;
  }
  const parts: string[] = [];
  for (const n of DEFAULT) {
    if (!names.includes(n)) continue;
    const lines = section(n, s);
    if (lines !== undefined) parts.push(`# ${TITLES[n] ?? n}\r\n` + lines.map((l) => l + '\r\n').join(''));
  }
  return parts.join('\r\n');
}

function info(c: Client, a: string[], s: ServerState): void {
  c.reply.verbatim(infoText(s, a.slice(1)));
}

export const infoCommands: CommandSpec[] = defs('server', [
  { name: 'info', arity: -1, flags: ['loading', 'stale'], fn: info },
]);
