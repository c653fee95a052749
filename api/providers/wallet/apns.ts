import { type ClientHttp2Session, connect, constants } from "node:http2";
import { WalletPushError } from "./types.ts";

/** How APNs is reached: its base URL and the Pass Type ID certificate that opens the connection. */
export type ApnsOptions = {
  /** APNS_BASE_URL: `https://api.push.apple.com`, or a local stand-in in tests. */
  baseUrl: string;
  /** The pass type identifier: the push's topic, the one the certificate is issued for. */
  passTypeId: string;
  /** PEM texts: the Pass Type ID certificate and its key (TLS client authentication). */
  cert: string;
  key: string;
  passphrase?: string;
  /**
   * Extra CA certificates to trust (PEM). Only tests pass one, for their local stand-in's throwaway
   * CA; in production the system's roots verify Apple's server.
   */
  ca?: string;
  /** How long one push may take before it is given up and retried later. */
  timeoutMs?: number;
};

// APNs' reasons that mean the token will never work again: the device removed the pass, or the token
// is not one (Apple's "Handling notification responses from APNs").
const DEAD_TOKEN = new Set(["BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic", "ExpiredToken"]);

/**
 * Pushes to Apple devices through APNs over one HTTP/2 connection, opened with the Pass Type ID
 * certificate (Wallet's pushes need no provider token: the certificate is the proof). A Wallet push
 * carries an empty JSON object: the device asks the PassKit web service what changed.
 */
export function createApnsClient(options: ApnsOptions) {
  let session: ClientHttp2Session | undefined;
  const open = () => {
    if (session && !session.closed && !session.destroyed) return session;
    const opened = connect(options.baseUrl, {
      cert: options.cert,
      key: options.key,
      ...(options.passphrase ? { passphrase: options.passphrase } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
    });
    // A connection error fails the push under way (its stream errors too); the next push reconnects.
    opened.on("error", () => {});
    opened.on("close", () => {
      if (session === opened) session = undefined;
    });
    // Idle between bursts of changes: the connection does not hold the process open.
    opened.unref();
    session = opened;
    return opened;
  };

  function push(pushToken: string): Promise<{ id: string }> {
    return new Promise((resolve, reject) => {
      let stream: ReturnType<ClientHttp2Session["request"]>;
      try {
        stream = open().request({
          [constants.HTTP2_HEADER_METHOD]: "POST",
          [constants.HTTP2_HEADER_PATH]: `/3/device/${encodeURIComponent(pushToken)}`,
          "apns-topic": options.passTypeId,
          // Nothing shows on the device: Wallet fetches the pass and shows its own change message.
          // A background push must go at priority 5 (Apple's "Sending notification requests to APNs").
          "apns-push-type": "background",
          "apns-priority": "5",
          "content-type": "application/json",
        });
      } catch (error) {
        reject(new WalletPushError(`APNs not reached: ${String(error)}`, false));
        return;
      }
      stream.setTimeout(options.timeoutMs ?? 15_000, () => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(new WalletPushError("APNs did not answer in time", false));
      });
      let status = 0;
      let apnsId = "";
      const chunks: Buffer[] = [];
      stream.on("response", (headers) => {
        status = Number(headers[constants.HTTP2_HEADER_STATUS]);
        apnsId = String(headers["apns-id"] ?? "");
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => reject(new WalletPushError(`APNs not reached: ${String(error)}`, false)));
      stream.on("end", () => {
        if (status === 200) return resolve({ id: apnsId || "apns" });
        let reason = "";
        try {
          reason = String((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { reason?: unknown }).reason ?? "");
        } catch {}
        const permanent = status === 410 || (status === 400 && DEAD_TOKEN.has(reason));
        reject(new WalletPushError(`APNs answered ${status}${reason ? ` ${reason}` : ""}`, permanent));
      });
      stream.end("{}");
    });
  }

  return {
    push,
    close() {
      session?.close();
      session = undefined;
    },
  };
}
