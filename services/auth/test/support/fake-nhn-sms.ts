import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type NhnSmsRequest = { appKey: string; secretKey: string | undefined; body: { body?: string; sendNo?: string; recipientList?: Array<{ recipientNo?: string }> } };

/**
 * A local server speaking NHN Cloud SMS API v3.0's send call as documented: `POST
 * /sms/v3.0/appKeys/{appKey}/sender/sms` with `X-Secret-Key`, answering `{ header: { isSuccessful,
 * resultCode, resultMessage }, body: { data: { requestId, statusCode, sendResultList } } }`. It
 * checks the app key and secret like the real service and records what it received.
 */
export class FakeNhnSms {
  readonly appKey = 'test-app-key';
  readonly secretKey = 'test-secret-key';
  readonly received: NhnSmsRequest[] = [];
  /** 'ok', or a refusal of the request ('refuse') or of the recipient ('badRecipient'). */
  mode: 'ok' | 'refuse' | 'badRecipient' = 'ok';
  private readonly server = createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const match = /^\/sms\/v3\.0\/appKeys\/([^/]+)\/sender\/sms$/.exec(req.url ?? '');
    const answer = (status: number, header: { isSuccessful: boolean; resultCode: number; resultMessage: string }, data: unknown = null) => {
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
      res.end(JSON.stringify({ header, body: data === null ? null : { data } }));
    };
    if (req.method !== 'POST' || !match) return answer(404, { isSuccessful: false, resultCode: -404, resultMessage: 'Not Found' });
    const appKey = decodeURIComponent(match[1]!);
    const secretKey = req.headers['x-secret-key'] as string | undefined;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as NhnSmsRequest['body'];
    this.received.push({ appKey, secretKey, body });
    if (appKey !== this.appKey || secretKey !== this.secretKey) return answer(200, { isSuccessful: false, resultCode: -1000, resultMessage: 'Invalid appKey or secretKey' });
    if (this.mode === 'refuse') return answer(200, { isSuccessful: false, resultCode: -9997, resultMessage: 'Internal server error' });
    const recipientNo = body.recipientList?.[0]?.recipientNo ?? '';
    const result = this.mode === 'badRecipient' ? { resultCode: -1005, resultMessage: 'Invalid recipient number' } : { resultCode: 0, resultMessage: 'SUCCESS' };
    answer(200, { isSuccessful: true, resultCode: 0, resultMessage: 'SUCCESS' }, {
      requestId: `req-${this.received.length}`,
      statusCode: '2',
      senderGroupingKey: null,
      sendResultList: [{ recipientNo, ...result, recipientSeq: 1, recipientGroupingKey: null }],
    });
  }
}
