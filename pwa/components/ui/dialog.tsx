import { type DialogHTMLAttributes, type RefObject, useEffect, useRef } from "react";

type Props = Omit<DialogHTMLAttributes<HTMLDialogElement>, "open" | "onClose" | "onCancel"> & {
  /** Escape (the browser's own "cancel") and anything else that closes the dialog from inside it. */
  onClose(): void;
  /** What takes the focus when it opens (the safe choice); the browser's first focusable otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** The <dialog> itself, for a screen that does more with it (the room's clock asks for full screen). */
  dialogRef?: RefObject<HTMLDialogElement | null>;
};

/**
 * The one modal dialog every screen uses: the native <dialog> opened with showModal(), so the page
 * behind is inert and the focus stays inside; the focus moves in when it opens and goes back to
 * whatever had it (the button that opened it) when it closes; Escape closes it through `onClose`.
 * It opens once when mounted and closes when unmounted: a parent that re-renders every second (a
 * clock) or passes a new `onClose` each time never makes it close and open again.
 */
export function Dialog({ onClose, initialFocus, dialogRef, children, ...attributes }: Props) {
  const own = useRef<HTMLDialogElement>(null);
  const ref = dialogRef ?? own;
  const close = useRef(onClose);
  close.current = onClose;
  // biome-ignore lint/correctness/useExhaustiveDependencies: refs, read when the dialog opens
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onCancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    dialog.addEventListener("cancel", onCancel);
    if (!dialog.open) dialog.showModal?.();
    initialFocus?.current?.focus();
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} {...attributes}>
      {children}
    </dialog>
  );
}
