import twilio from "twilio";
import type { SmsProvider } from "./types.ts";

export type TwilioConfig = {
  accountSid: string;
  authToken: string;
  verifyServiceSid: string;
  from: string;
  /** Tests only: every SDK request goes to this origin instead of *.twilio.com. */
  apiBase?: string;
};

/**
 * The SDK builds absolute https://{product}.twilio.com URLs itself and has no host option, so the way
 * to reach a fake server is its documented `httpClient` hook: a RequestClient that keeps the path and
 * query and swaps the origin.
 */
function redirectingClient(base: URL) {
  const client = new twilio.RequestClient({ timeout: 10_000 });
  const request = client.request.bind(client);
  client.request = (opts) => {
    const target = new URL(opts.uri);
    return request({ ...opts, uri: new URL(target.pathname + target.search, base).href });
  };
  return client;
}

/** Twilio Verify sends and checks the codes; Messages carries every other text. */
export function createTwilioSms(config: TwilioConfig): SmsProvider {
  const client = twilio(config.accountSid, config.authToken, {
    httpClient: config.apiBase ? redirectingClient(new URL(config.apiBase)) : undefined,
    timeout: 10_000,
  });
  const verify = client.verify.v2.services(config.verifyServiceSid);
  return {
    name: "twilio",
    async startVerification(phone) {
      await verify.verifications.create({ to: phone, channel: "sms" });
    },
    async checkVerification(phone, code) {
      try {
        const check = await verify.verificationChecks.create({ to: phone, code });
        return check.status === "approved" ? "approved" : "wrong";
      } catch (error) {
        // Verify answers 404 once the verification is gone (expired, approved, or voided by too many
        // tries) and 429/60202 when the tries are used up: either way there is no live code.
        if (error instanceof twilio.RestException && (error.status === 404 || error.code === 60202)) {
          return "expired";
        }
        throw error;
      }
    },
    async send(to, body) {
      const message = await client.messages.create({ to, from: config.from, body });
      return { id: message.sid };
    },
  };
}

/**
 * Whether a webhook request came from Twilio (an inbound text): its `X-Twilio-Signature` checked by the
 * SDK's own validator against the URL Twilio called and every form field it posted.
 */
export function isTwilioRequest(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Record<string, string>,
): boolean {
  return signature !== undefined && signature !== "" && twilio.validateRequest(authToken, signature, url, params);
}
