import type { BrowserContext, CDPSession, Page } from "playwright-core";

// Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain), for the passkey suites
// (issue 49): a platform authenticator (Face ID or a fingerprint, say) that holds discoverable
// credentials, verifies its user and answers every prompt at once, without a person at the screen.

/** A credential the virtual authenticator holds, as the protocol lists it. */
export type VirtualCredential = {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  signCount: number;
};

/** A credential to put into it (ids, keys and handles base64, the private key PKCS#8 DER). */
export type NewVirtualCredential = VirtualCredential & { privateKey: string };

export type VirtualAuthenticator = {
  /** The credentials it holds now (the passkeys a prompt would offer). */
  credentials(): Promise<VirtualCredential[]>;
  /** Puts a credential in it: another device's passkey, say. */
  addCredential(credential: NewVirtualCredential): Promise<void>;
  /** Forgets every credential it holds. */
  clearCredentials(): Promise<void>;
  /** Unplugs it: the page's prompts then find no authenticator. */
  remove(): Promise<void>;
};

/**
 * Plugs a virtual authenticator into `page`'s browser context: CTAP2 over the internal transport
 * (a platform authenticator), with resident keys and user verification, the user verified, and
 * presence simulated so each prompt completes by itself.
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<VirtualAuthenticator> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => {
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      return credentials;
    },
    addCredential: async (credential) => {
      await cdp.send("WebAuthn.addCredential", { authenticatorId, credential });
    },
    clearCredentials: async () => {
      await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
    },
    remove: async () => {
      await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
      await cdp.detach();
    },
  };
}
