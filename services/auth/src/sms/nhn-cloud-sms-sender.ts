import type { SmsSender } from './sms-sender.ts';

export type NhnCloudSmsOptions = {
  /** `https://api-sms.cloud.toast.com` in production; a local server in tests. */
  baseUrl: string;
  appKey: string;
  secretKey: string;
  /** The calling number registered (and verified) in the NHN Cloud console, digits only. */
  senderNumber: string;
  timeoutMs: number;
};

/** What NHN Cloud answers: a header saying whether the request as a whole went through, and one result per recipient. */
type NhnAnswer = {
  header?: { isSuccessful?: boolean; resultCode?: number; resultMessage?: string };
  body?: { data?: { requestId?: string; sendResultList?: Array<{ recipientNo?: string; resultCode?: number; resultMessage?: string }> } };
};

export class SmsProviderError extends Error {
  override name = 'SmsProviderError';
}

/**
 * Sends text messages through NHN Cloud SMS (API v3.0, `POST /sms/v3.0/appKeys/{appKey}/sender/sms`
 * with the `X-Secret-Key` header). A message counts as sent only when both the request header and
 * the recipient's own result say so; anything else throws, and the caller releases the cooldown
 * and answers 502 so the member can try again.
 */
export class NhnCloudSmsSender implements SmsSender {
  constructor(private readonly options: NhnCloudSmsOptions) {}

  async send(phoneNumber: string, text: string): Promise<void> {
    const { baseUrl, appKey, secretKey, senderNumber, timeoutMs } = this.options;
    const url = `${baseUrl.replace(/\/$/, '')}/sms/v3.0/appKeys/${encodeURIComponent(appKey)}/sender/sms`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json;charset=UTF-8', 'x-secret-key': secretKey },
        body: JSON.stringify({ body: text, sendNo: senderNumber, recipientList: [{ recipientNo: phoneNumber }] }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new SmsProviderError(`NHN Cloud SMS unreachable: ${(error as Error).message}`);
    }
    let answer: NhnAnswer;
    try {
      answer = (await response.json()) as NhnAnswer;
    } catch {
      throw new SmsProviderError(`NHN Cloud SMS answered ${response.status} without JSON`);
    }
    const header = answer.header;
    if (!response.ok || header?.isSuccessful !== true) {
      throw new SmsProviderError(`NHN Cloud SMS refused the request: ${response.status} ${header?.resultCode ?? '?'} ${header?.resultMessage ?? ''}`.trim());
    }
    const result = answer.body?.data?.sendResultList?.find((r) => r.recipientNo === phoneNumber);
    if (!result || result.resultCode !== 0) {
      throw new SmsProviderError(`NHN Cloud SMS did not accept the recipient: ${result?.resultCode ?? 'no result'} ${result?.resultMessage ?? ''}`.trim());
    }
  }
}
