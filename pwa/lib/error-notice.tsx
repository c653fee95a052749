import type { ReactNode } from "react";

/** A failed load, said plainly, with a way to try again when trying again can help. */
export function ErrorNotice({
  message,
  onRetry,
  children,
}: {
  message: ReactNode;
  onRetry?: () => unknown;
  children?: ReactNode;
}) {
  return (
    <div className="notice error" role="alert">
      <p>{message}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={() => void onRetry()}>
          Try again
        </button>
      ) : null}
      {children}
    </div>
  );
}
