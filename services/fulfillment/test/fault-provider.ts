import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small scriptable API v2 provider for fault tests: a real HTTP server speaking the panel
 * standard (form or JSON body, `key`, `action`), whose answers to `add` and `status` follow a
 * script — timeouts, 5xx, malformed JSON, "not enough funds", refusals, duplicate answers, and
 * statuses that jump or go backwards. Every `add` it received is recorded, so a test can prove an
 * order was never sent twice.
 */
export type AddFault = 'ok' | 'timeout' | 'http500' | 'malformed' | 'funds' | 'refuse-link' | 'refuse-quantity' | 'refuse-posts' | 'disabled' | 'no-id' | 'slow-ok' | 'drop' | 'negative-id' | 'zero-id' | 'text-id' | 'fraction-id';
/** `posts`: a subscription (`add` with the standard's subscription fields), answered in its `status` words and fields. */
export type ProviderOrder = { id: number; service: string; link: string; quantity: number; status: string; startCount: number; remains: number; posts?: number };
export type RemoteServiceRow = { service: number | string; name: string; type?: string; category?: string; rate: string | number; min: number | string; max: number | string; dripfeed?: boolean; refill?: boolean; cancel?: boolean };

export class FaultProvider {
  readonly key: string;
  readonly received: Array<{ action: string; fields: Record<string, string>; at: number; reference: string | undefined }> = [];
  /**
   * Honour `Idempotency-Key` on `add` as this product's /api/v2 does: a key seen before is answered
   * with the order it created (the script is not consulted), however the first call ended.
   */
  honourKeys = false;
  private readonly byKey = new Map<string, number>();
  readonly orders = new Map<number, ProviderOrder>();
  /** Refill id → its status, as the provider's operator sets it. */
  readonly refills = new Map<number, string>();
  services: RemoteServiceRow[] = [];
  balance = '100.00';
  currency = 'USD';
  /** Consumed one per `add`; when empty, `fallback` answers. */
  addScript: AddFault[] = [];
  fallback: AddFault = 'ok';
  /** Applied per `add` before answering (ms), to hold calls in flight. */
  addDelayMs = 0;
  /** `status` answers this way when set (one fault for the whole request); `html`: a 200 with an HTML page. */
  statusFault: 'http500' | 'malformed' | 'html' | null = null;
  /** Per provider order id: the entry `status` answers for it instead of the order's view (garbage, unknown statuses). */
  readonly statusEntries = new Map<number, unknown>();
  /** `refill` answers this body when set (forged or odd answers); `refill_status` likewise. */
  refillAnswer: unknown = undefined;
  /** The HTTP status `refillAnswer` comes with (this product answers a not-ready order's refill with 503). */
  refillAnswerStatus = 200;
  refillStatusAnswer: unknown = undefined;
  /** `cancel` answers this body when set. */
  cancelAnswer: unknown = undefined;
  /** `balance`, `services` answer with an error when set. */
  generalError: string | null = null;
  private server: Server | undefined;
  private nextId = 9000;
  port = 0;

  constructor(key = 'fault-key-0001') {
    this.key = key;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/api/v2`;
  }

  /** The Idempotency-Key of every `add` received, in order. */
  addReferences(): Array<string | undefined> {
    return this.received.filter((r) => r.action === 'add').map((r) => r.reference);
  }

  /** Every `add` request received, with its link. */
  adds(): Array<Record<string, string>> {
    return this.received.filter((r) => r.action === 'add').map((r) => r.fields);
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Moves a provider order as its operator would. */
  move(id: number, status: string, fields: { startCount?: number; remains?: number } = {}): void {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no provider order ${id}`);
    Object.assign(order, { status }, fields.startCount === undefined ? {} : { startCount: fields.startCount }, fields.remains === undefined ? {} : { remains: fields.remains });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const fields: Record<string, string> = (req.headers['content-type'] ?? '').includes('json')
      ? (JSON.parse(text || '{}') as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(text));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const action = fields.action ?? '';
    const reference = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    this.received.push({ action, fields, at: Date.now(), reference });
    if (fields.key !== this.key) return send(200, { error: 'Invalid API key' });
    if (this.generalError !== null && (action === 'balance' || action === 'services')) return send(200, { error: this.generalError });
    if (action === 'balance') return send(200, { balance: this.balance, currency: this.currency });
    if (action === 'services') return send(200, this.services);
    if (action === 'add') return this.add(fields, send, res, reference);
    if (action === 'status') return this.status(fields, send, res);
    if (action === 'refill' && this.refillAnswer !== undefined) return send(this.refillAnswerStatus, this.refillAnswer);
    if (action === 'refill_status' && this.refillStatusAnswer !== undefined) return send(200, this.refillStatusAnswer);
    if (action === 'cancel' && this.cancelAnswer !== undefined) return send(200, this.cancelAnswer);
    if (action === 'refill') {
      const order = this.orders.get(Number(fields.order));
      if (!order || order.status !== 'Completed') return send(200, { error: 'Refill is not available for this order' });
      const id = ++this.nextId;
      this.refills.set(id, 'Pending');
      return send(200, { refill: String(id) });
    }
    if (action === 'refill_status') {
      const status = this.refills.get(Number(fields.refill));
      return send(200, status === undefined ? { error: 'Incorrect refill ID' } : { status });
    }
    if (action === 'cancel') {
      return send(
        200,
        (fields.orders ?? '').split(',').map((id) => {
          const order = this.orders.get(Number(id));
          if (!order || (order.status !== 'Pending' && order.status !== 'Active')) return { order: Number(id), cancel: { error: 'Cannot cancel this order' } };
          order.status = 'Canceled';
          return { order: Number(id), cancel: 1 };
        }),
      );
    }
    send(200, { error: 'Incorrect request' });
  }

  private async add(fields: Record<string, string>, send: (status: number, body: unknown) => void, res: ServerResponse, reference: string | undefined): Promise<void> {
    const known = this.honourKeys && reference !== undefined ? this.byKey.get(reference) : undefined;
    if (known !== undefined) return send(200, { order: known });
    const fault = this.addScript.shift() ?? this.fallback;
    if (this.addDelayMs > 0) await new Promise((r) => setTimeout(r, this.addDelayMs));
    const create = () => {
      const id = ++this.nextId;
      const quantity = Number(fields.quantity);
      const posts = fields.posts === undefined ? undefined : Number(fields.posts);
      this.orders.set(id, { id, service: fields.service ?? '', link: fields.link ?? fields.username ?? '', quantity, status: posts === undefined ? 'Pending' : 'Active', startCount: 0, remains: posts ?? quantity, ...(posts === undefined ? {} : { posts }) });
      if (this.honourKeys && reference !== undefined) this.byKey.set(reference, id);
      return id;
    };
    switch (fault) {
      case 'ok':
        return send(200, { order: create() });
      case 'slow-ok':
        await new Promise((r) => setTimeout(r, 60_000));
        return send(200, { order: create() });
      case 'timeout':
        // The provider takes the order and never answers in time.
        create();
        await new Promise((r) => setTimeout(r, 60_000));
        return send(200, {});
      case 'drop':
        create();
        res.socket?.destroy();
        return;
      case 'http500':
        return send(500, '<html>Internal Server Error</html>');
      case 'malformed':
        create();
        return send(200, '{"order": 12');
      case 'no-id':
        create();
        return send(200, { status: 'ok' });
      case 'funds':
        return send(200, { error: 'Not enough funds on balance' });
      case 'refuse-link':
        return send(200, { error: 'Incorrect link' });
      case 'refuse-quantity':
        return send(200, { error: 'Quantity less than minimal 100' });
      case 'refuse-posts':
        return send(200, { error: 'Incorrect posts: 1 to 1000 whole posts' });
      case 'disabled':
        return send(200, { error: 'Service disabled' });
      // Answers that name an order id that is not one (the provider may or may not hold an order).
      case 'negative-id':
        create();
        return send(200, { order: -5 });
      case 'zero-id':
        return send(200, { order: 0 });
      case 'text-id':
        create();
        return send(200, { order: 'abc' });
      case 'fraction-id':
        return send(200, { order: 1.5 });
    }
  }

  private status(fields: Record<string, string>, send: (status: number, body: unknown) => void, res: ServerResponse): void {
    if (this.statusFault === 'http500') return send(503, 'unavailable');
    if (this.statusFault === 'malformed') return send(200, '{"1": ');
    if (this.statusFault === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<!doctype html><html><body>Maintenance</body></html>');
    }
    const view = (o: ProviderOrder) =>
      o.posts === undefined
        ? { charge: '0.1', start_count: String(o.startCount), status: o.status, remains: String(o.remains), currency: this.currency }
        : { charge: '0.1', start_count: '0', status: o.status, remains: String(o.remains), currency: this.currency, posts: '0', orders: [] };
    if (fields.orders !== undefined) {
      const answer: Record<string, unknown> = {};
      for (const id of fields.orders.split(',')) {
        const order = this.orders.get(Number(id));
        answer[id] = this.statusEntries.has(Number(id)) ? this.statusEntries.get(Number(id)) : order ? view(order) : { error: 'Incorrect order ID' };
      }
      return send(200, answer);
    }
    const order = this.orders.get(Number(fields.order));
    send(200, order ? view(order) : { error: 'Incorrect order ID' });
  }
}

/** A local port nothing listens on (taken from the OS, then released): connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
