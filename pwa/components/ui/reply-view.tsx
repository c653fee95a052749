import type { ReactNode } from "react";
import { ErrorNotice } from "../../lib/error-notice.tsx";
import type { ReplyState } from "../../lib/use-reply.ts";

type Settled = { status: string; message?: ReactNode };

type Props<S extends Settled> = {
  state: ReplyState<S>;
  /** While it loads: a status line or a skeleton, each screen its own. */
  loading: ReactNode;
  /** The error's words when its state carries none. */
  error?: ReactNode;
  /** **Try again** beside the error; none where trying again cannot help. */
  onRetry?: () => unknown;
  /** Before there is anything to read (no event picked). */
  idle?: ReactNode;
  /** Shown instead of `children` when `isEmpty` says the reply holds nothing. */
  empty?: ReactNode;
  isEmpty?: (ready: Extract<S, { status: "ready" }>) => boolean;
  children: (ready: Extract<S, { status: "ready" }>) => ReactNode;
};

/** A reply's states, shown the same way on every screen: loading, an error with **Try again**, empty, the data. */
export function ReplyView<S extends Settled>(props: Props<S>) {
  const { state } = props;
  if (state.status === "idle") return props.idle ?? null;
  if (state.status === "loading") return props.loading;
  if (state.status === "error") return <ErrorNotice message={props.error ?? state.message} onRetry={props.onRetry} />;
  if (state.status !== "ready") return null;
  // TypeScript narrows no generic union by its tag; the check above is the narrowing.
  const ready = state as Extract<S, { status: "ready" }>;
  return props.isEmpty?.(ready) ? props.empty : props.children(ready);
}
