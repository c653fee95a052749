import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

export type ReceivedMail = {
  /** The SMTP envelope: what MAIL FROM and RCPT TO said, whatever the headers say. */
  envelope: { from: string; to: string[] };
  /** The message as it arrived, read back with mailparser. */
  parsed: ParsedMail;
  /** The raw message, headers and all. */
  raw: string;
};

type Refusal = { code: number; message: string };

/**
 * A real SMTP server (smtp-server) on a free loopback port, for nodemailer's real SMTP transport to
 * talk to in tests: no internet. It records each message it accepts (parsed with mailparser), can
 * refuse a recipient permanently (550) or for now (451), and can drop connections as a dead host would.
 */
export async function startFakeSmtp(options: { user?: string; pass?: string } = {}) {
  const received: ReceivedMail[] = [];
  /** Recipients refused at RCPT TO, by address (lower case): 550 or 451. */
  const refuse = new Map<string, Refusal>();
  /** How many of the next messages to refuse at RCPT TO with 451 (a provider having a bad minute). */
  let deferNext = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: !options.user,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.pass)
        return callback(null, { user: auth.username });
      return callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const refusal = refuse.get(address.address.toLowerCase());
      if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      if (deferNext > 0) {
        deferNext--;
        return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        received.push({
          envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) },
          parsed: await simpleParser(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  const auth = options.user ? `${encodeURIComponent(options.user)}:${encodeURIComponent(options.pass ?? "")}@` : "";
  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    port,
    received,
    /** Refuses `address` at RCPT TO with `code` (550: no such mailbox; 451: try later) until cleared. */
    refuse(address: string, code: number, message = code >= 500 ? "5.1.1 Mailbox unavailable" : "4.7.1 Try later") {
      refuse.set(address.toLowerCase(), { code, message });
    },
    clearRefusals() {
      refuse.clear();
      deferNext = 0;
    },
    /** The next `count` messages are refused with 451 at RCPT TO. */
    deferNext(count: number) {
      deferNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeSmtp = Awaited<ReturnType<typeof startFakeSmtp>>;
