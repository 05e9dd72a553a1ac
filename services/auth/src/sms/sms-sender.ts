/** Sends a text message. Production would plug a vendor in here; none is wired yet. */
export interface SmsSender {
  send(phoneNumber: string, text: string, meta: { code: string }): Promise<void>;
}
