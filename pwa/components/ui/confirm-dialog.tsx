import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { Dialog } from "./dialog.tsx";
import "./ui.css";

export type ConfirmRequest = {
  title: string;
  /** Something the organiser may not expect, shown first and marked: "This event is planned for…". */
  warning?: string | null;
  /** What will happen, one sentence a line: "Texts 18 participants." */
  lines: string[];
  /** The confirming button's text: the action's own name ("Start Event", "Cancel event"). */
  confirmLabel: string;
};

type Pending = ConfirmRequest & { resolve(ok: boolean): void };

/**
 * A second look before an irreversible action. `confirm()` opens the dialog and resolves true only
 * when the organiser presses the action's button; Escape, "Go back" or unmounting resolve false.
 * Render `dialog` somewhere in the component that asks.
 */
export function useConfirm(): { confirm(request: ConfirmRequest): Promise<boolean>; dialog: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);
  // The open request outside React's state too, so an unmount can still answer it.
  const open = useRef<Pending | null>(null);
  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        open.current?.resolve(false);
        open.current = { ...request, resolve };
        setPending(open.current);
      }),
    [],
  );
  const close = useCallback((ok: boolean) => {
    open.current?.resolve(ok);
    open.current = null;
    setPending(null);
  }, []);
  useEffect(() => () => open.current?.resolve(false), []);
  return { confirm, dialog: pending ? <ConfirmDialog request={pending} onClose={close} /> : null };
}

/** A second look before an irreversible action: the focus starts on "Go back", the safe choice. */
function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose(ok: boolean): void }) {
  const back = useRef<HTMLButtonElement>(null);
  const id = useId();

  return (
    <Dialog
      className="admin-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={() => onClose(false)}
      initialFocus={back}
    >
      <h2 id={`${id}-title`}>{request.title}</h2>
      <div id={`${id}-body`}>
        {request.warning ? <p className="admin-dialog-warning">{request.warning}</p> : null}
        {request.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <div className="admin-actions admin-dialog-actions">
        <button ref={back} type="button" className="button" onClick={() => onClose(false)}>
          Go back
        </button>
        <button type="button" className="button danger" onClick={() => onClose(true)}>
          {request.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
