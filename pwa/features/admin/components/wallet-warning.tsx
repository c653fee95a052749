import { useReply } from "../../../lib/use-reply.ts";
import { getWalletStatus, type WalletStatus } from "../admin-api.ts";

type Read = { status: "ready"; wallet: WalletStatus | null };

const day = (iso: string) =>
  new Date(iso).toLocaleDateString("en-AU", { day: "numeric", month: "long", year: "numeric" });

/**
 * The desk's warning before the Apple Wallet pass certificate runs out (30 days ahead, and after):
 * issued passes keep working until then, new ones need the renewed certificate
 * (docs/decisions/054-wallet-buttons.md). Nothing otherwise, and nothing to a role that may not read
 * it (the door), or when the call fails: the desk works the same without it.
 */
export function WalletWarning() {
  const { state } = useReply<Read, string>("wallet-status", {
    async load() {
      const reply = await getWalletStatus();
      return { status: "ready", wallet: reply.ok ? reply.data : null };
    },
    failed: () => ({ status: "ready", wallet: null }),
  });
  if (state.status !== "ready") return null;
  const apple = state.wallet?.apple;
  if (!apple?.expiresSoon || !apple.certificateExpiresAt) return null;
  const expired = Date.parse(apple.certificateExpiresAt) <= Date.now();
  return (
    <p className="notice wallet-warning" role="status">
      {expired
        ? `The Apple Wallet certificate expired on ${day(apple.certificateExpiresAt)}. Renew it to issue Apple Wallet passes again.`
        : `The Apple Wallet certificate expires on ${day(apple.certificateExpiresAt)}. Passes already issued keep working until then; renew it to keep issuing new ones.`}
    </p>
  );
}
