/**
 * A package loaded at its first use and kept. The server's start loads only what every request may
 * need: the payment SDK, WebAuthn, SMTP and QR codes cost a server about 0.7 s of CPU to load, which
 * a start on the local providers (development, every test server) and a night with no passkey
 * never spends. A failed load is kept too, as Node keeps a module that threw.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
