import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

// A passkey authenticator in software, for the API suites (issue 49): it answers WebAuthn's create()
// and get() as a browser with a platform authenticator would, with P-256 keys (ES256), "none"
// attestation and discoverable credentials. The browser suites use Chromium's own virtual
// authenticator instead (e2e/virtual-authenticator.ts).

type Key = { id: string; privateKey: KeyObject; counter: number; userHandle: string };

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** The flags byte: user present (0x01), user verified (0x04), attested credential data (0x40). */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly keys: Key[] = [];

  /** `origin` is where the "browser" runs (the server's PUBLIC_BASE_URL). */
  constructor(readonly origin: string) {}

  private get rpIdHash() {
    return sha256(new URL(this.origin).hostname);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** create(): a new key pair for the options' user, answered as the browser would send it. */
  register(options: PublicKeyCredentialCreationOptionsJSON, opts: { origin?: string } = {}): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const credentialId = randomBytes(16);
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      this.rpIdHash,
      Buffer.from([UP | UV | AT]),
      Buffer.alloc(4), // sign count 0
      Buffer.alloc(16), // AAGUID: none
      length,
      credentialId,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", authData],
      ]),
    );
    const id = b64url(credentialId);
    this.keys.push({ id, privateKey, counter: 0, userHandle: options.user.id });
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, opts.origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** get(): signs the options' challenge with `key` (the last one made, by default). */
  signIn(
    options: PublicKeyCredentialRequestOptionsJSON,
    opts: { key?: Key; origin?: string } = {},
  ): AuthenticationResponseJSON {
    const key = opts.key ?? this.keys[this.keys.length - 1];
    if (!key) throw new Error("the soft authenticator holds no key");
    key.counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(key.counter);
    const authData = Buffer.concat([this.rpIdHash, Buffer.from([UP | UV]), count]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, opts.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), key.privateKey);
    return {
      id: key.id,
      rawId: key.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: key.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** A key this authenticator made but never registered anywhere: another device's passkey. */
  strangerKey(): Key {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    return { id: b64url(randomBytes(16)), privateKey, counter: 0, userHandle: b64url(Buffer.from("owner")) };
  }
}
