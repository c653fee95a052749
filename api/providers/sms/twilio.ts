import type { RequestClient } from "twilio";
import { onFirstUse } from "../../lib/on-first-use.ts";
import type { SmsProvider } from "./types.ts";

type TwilioSdk = typeof import("twilio");

/**
 * The SDK, loaded at its first use and kept (api/lib/on-first-use.ts): about 0.2 s of CPU that a server
 * on the console provider (development, every test server) never needs to spend at its start.
 */
const sdk = onFirstUse(() => import("twilio").then((module) => module.default as unknown as TwilioSdk));

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
function redirectingClient(twilio: TwilioSdk, base: URL): RequestClient {
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
  let connected: Promise<{ twilio: TwilioSdk; client: ReturnType<TwilioSdk> }> | undefined;
  const connect = () => {
    connected ??= sdk().then((twilio) => ({
      twilio,
      client: twilio(config.accountSid, config.authToken, {
        httpClient: config.apiBase ? redirectingClient(twilio, new URL(config.apiBase)) : undefined,
        timeout: 10_000,
      }),
    }));
    return connected;
  };
  const verify = async () => (await connect()).client.verify.v2.services(config.verifyServiceSid);
  return {
    name: "twilio",
    async startVerification(phone) {
      await (await verify()).verifications.create({ to: phone, channel: "sms" });
    },
    async checkVerification(phone, code) {
      const { twilio } = await connect();
      try {
        const check = await (await verify()).verificationChecks.create({ to: phone, code });
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
      const message = await (await connect()).client.messages.create({ to, from: config.from, body });
      return { id: message.sid };
    },
  };
}

/**
 * Whether a webhook request came from Twilio (an inbound text): its `X-Twilio-Signature` checked by the
 * SDK's own validator against the URL Twilio called and every form field it posted.
 */
export async function isTwilioRequest(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Record<string, string>,
): Promise<boolean> {
  if (signature === undefined || signature === "") return false;
  return (await sdk()).validateRequest(authToken, signature, url, params);
}
