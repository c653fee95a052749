import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  type ScryptOptions,
  scrypt,
  timingSafeEqual,
} from "node:crypto";

export function hmac(secret: string, purpose: string, value: string): string {
  return createHmac("sha256", secret).update(`${purpose}\n${value}`).digest("base64url");
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    // Still do the work when lengths differ, so the timing doesn't reveal how close a guess was.
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** `value.expiresAtMs.signature`, for cookies that must not be forged or extended. */
export function signValue(secret: string, purpose: string, value: string, expiresAt: number): string {
  const body = `${Buffer.from(value).toString("base64url")}.${expiresAt}`;
  return `${body}.${hmac(secret, purpose, body)}`;
}

export function verifySignedValue(
  secret: string,
  purpose: string,
  token: string | undefined,
  now: number,
): string | null {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [value, exp, sig] = parts as [string, string, string];
  if (!safeEqual(sig, hmac(secret, purpose, `${value}.${exp}`))) return null;
  if (!/^\d+$/.test(exp) || Number(exp) < now) return null;
  return Buffer.from(value, "base64url").toString();
}

// ---------------------------------------------------------------------------------------------------
// The team's secrets (docs/decisions/050-the-team.md): passwords hashed with scrypt, TOTP secrets
// encrypted at rest, one-time tokens and recovery codes kept as hashes.

/** A random token for a link or a code, base64url: `bytes` of entropy. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

/** sha256 of a high-entropy token (a set-up link's): no salt or stretching is needed for 256 random bits. */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("base64url");

// N 2^15, r 8 (32 MiB, about 100 ms on the small server): OWASP's scrypt floor is 2^17 at r 8 p 1;
// this app's passwords are at least 12 characters and sign-ins are rare, so a lower N keeps a
// 2-core box answering while the per-account lock bounds online guessing.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const SCRYPT_KEY_BYTES = 32;

const scryptAsync = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

const scryptOptions = (N: number, r: number, p: number): ScryptOptions => ({ N, r, p, maxmem: 128 * N * r * 2 });

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT_KEY_BYTES, scryptOptions(SCRYPT.N, SCRYPT.r, SCRYPT.p));
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Whether `password` matches a hash made by hashPassword; false for anything malformed. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    // Same work as a real check, so an account without a password is not told apart by timing.
    await scryptAsync(password, randomBytes(16), SCRYPT_KEY_BYTES, scryptOptions(SCRYPT.N, SCRYPT.r, SCRYPT.p));
    return false;
  }
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64url");
  const key = await scryptAsync(
    password,
    Buffer.from(salt, "base64url"),
    expected.length,
    scryptOptions(Number(n), Number(r), Number(p)),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The key for secrets kept encrypted (TOTP secrets): HKDF-SHA256 over SESSION_SECRET, one purpose. */
const secretKey = (sessionSecret: string) =>
  Buffer.from(hkdfSync("sha256", sessionSecret, "sdt-secrets", "totp-secret-v1", 32));

/** AES-256-GCM: `v1.iv.tag.ciphertext`, base64url parts. */
export function encryptSecret(sessionSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(sessionSecret), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body]
    .map((x) => (typeof x === "string" ? x : x.toString("base64url")))
    .join(".");
}

/** The plain secret, or null when it cannot be read (another SESSION_SECRET, or tampered). */
export function decryptSecret(sessionSecret: string, sealed: string | null): string | null {
  const parts = (sealed ?? "").split(".");
  if (parts.length !== 4 || parts[0] !== "v1") return null;
  try {
    const [iv, tag, body] = parts.slice(1).map((x) => Buffer.from(x, "base64url")) as [Buffer, Buffer, Buffer];
    const decipher = createDecipheriv("aes-256-gcm", secretKey(sessionSecret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
