import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small upstream panel speaking API v2 (form body, `key`, `action`) on a free local port, for the
 * providers screen: balance, services, and `add` that either takes the order or answers without an
 * order id (the outcome fulfillment cannot know, so the order goes to the review queue).
 */
export class PanelProvider {
  balance = '120.50';
  currency = 'KRW';
  addAnswer: 'ok' | 'no-id' = 'ok';
  /** Refill and cancel (issue 41): `forged` answers a refill id of -1; `refuse` an error; `ok` as panels do. */
  refillAnswer: 'ok' | 'forged' | 'refuse' = 'ok';
  cancelAnswer: 'ok' | 'refuse' = 'ok';
  /** Per order id: the status entry `status` answers instead (e.g. an unknown status). */
  readonly statusEntries = new Map<number, unknown>();
  readonly refills = new Map<number, string>();
  readonly orders = new Map<number, { quantity: number; status: string }>();
  readonly services: Array<{ service: number; name: string; type: string; category: string; rate: string; min: number; max: number; refill: boolean; cancel: boolean }> = [
    { service: 501, name: '인스타 좋아요 (고속)', type: 'Default', category: 'Instagram', rate: '3.0', min: 10, max: 5000, refill: false, cancel: false },
    { service: 502, name: '인스타 팔로워 (실사용자)', type: 'Default', category: 'Instagram', rate: '12.5', min: 20, max: 2000, refill: true, cancel: false },
  ];
  /** A service that takes refill and cancel, for the request queue (issue 41): pushed onto `services` by the test that needs it. */
  static readonly refillCancelService = { service: 503, name: '인스타 팔로워 (리필·취소)', type: 'Default', category: 'Instagram', rate: '10.0', min: 10, max: 5000, refill: true, cancel: true };
  private server: Server | undefined;
  private nextId = 7000;
  port = 0;

  constructor(readonly key: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/api/v2`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const fields: Record<string, string> = (req.headers['content-type'] ?? '').includes('json') ? (JSON.parse(text || '{}') as Record<string, string>) : Object.fromEntries(new URLSearchParams(text));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(this.answer(fields)));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(fields: Record<string, string>): unknown {
    if (fields.key !== this.key) return { error: 'Invalid API key' };
    const view = (o: { quantity: number; status: string } | undefined) => (o ? { charge: '1', start_count: '0', status: o.status, remains: String(o.quantity), currency: this.currency } : { error: 'Incorrect order ID' });
    switch (fields.action) {
      case 'balance':
        return { balance: this.balance, currency: this.currency };
      case 'services':
        return this.services;
      case 'add': {
        const id = ++this.nextId;
        this.orders.set(id, { quantity: Number(fields.quantity), status: 'Pending' });
        return this.addAnswer === 'ok' ? { order: id } : { status: 'ok' };
      }
      case 'status':
        if (fields.orders !== undefined) return Object.fromEntries(fields.orders.split(',').map((id) => [id, this.statusEntries.get(Number(id)) ?? view(this.orders.get(Number(id)))]));
        return view(this.orders.get(Number(fields.order)));
      case 'refill': {
        if (this.refillAnswer === 'forged') return { refill: -1 };
        if (this.refillAnswer === 'refuse') return { error: 'Refill is disabled for this service' };
        const id = ++this.nextId;
        this.refills.set(id, 'Pending');
        return { refill: id };
      }
      case 'refill_status':
        return this.refills.has(Number(fields.refill)) ? { status: this.refills.get(Number(fields.refill)) } : { error: 'Incorrect refill ID' };
      case 'cancel':
        return (fields.orders ?? '').split(',').map((id) => {
          const order = this.orders.get(Number(id));
          if (this.cancelAnswer === 'refuse' || !order || order.status !== 'Pending') return { order: Number(id), cancel: { error: 'Cannot cancel this order' } };
          order.status = 'Canceled';
          return { order: Number(id), cancel: 1 };
        });
      default:
        return { error: 'Incorrect request' };
    }
  }
}
