import { type FormEvent, type RefObject, useEffect, useRef, useState } from "react";
import { CallFailed } from "../../../lib/api.ts";
import {
  createFrameDecoder,
  looksLikeUniqueCode,
  parseTicket,
  parseTypedTicket,
  type TicketRef,
} from "../qr-decoder.ts";

const SCAN_EVERY_MS = 150;

function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "The camera is blocked. Allow it for this site in the browser's settings, or type the ticket's code below.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") {
    return "This phone has no camera to use. Type the ticket's code below instead.";
  }
  return "Couldn't start the camera. Type the ticket's code below instead.";
}

const NO_CAMERA_HERE = "The camera can't be used in this browser. Type the ticket's code below instead.";

/** While `enabled`, plays the camera into `video` and reports the first QR code's text it reads. */
function useCameraScan(
  video: RefObject<HTMLVideoElement | null>,
  enabled: boolean,
  onText: (text: string) => void,
  onFailed: (message: string) => void,
) {
  // The latest callbacks, so the camera is not restarted when the parent re-renders.
  const textRef = useRef(onText);
  textRef.current = onText;
  const failedRef = useRef(onFailed);
  failedRef.current = onFailed;
  const [started, setStarted] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    (async () => {
      try {
        const decoder = await createFrameDecoder();
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: "environment" } },
          audio: false,
        });
        const v = video.current;
        if (stopped || !v) return;
        v.srcObject = stream;
        await v.play();
        setStarted(true);
        const look = async () => {
          if (stopped) return;
          let text: string | null = null;
          try {
            if (v.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) text = await decoder.decode(v);
          } catch {
            // One unreadable frame is normal; the next one is tried.
          }
          if (stopped) return;
          if (text) {
            stopped = true;
            textRef.current(text);
            return;
          }
          timer = setTimeout(() => void look(), SCAN_EVERY_MS);
        };
        void look();
      } catch (error) {
        if (stopped) return;
        console.warn(error);
        failedRef.current(cameraProblem(error));
      }
    })();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [enabled, video]);
  return started;
}

/**
 * The camera, full screen, until a QR code is read or staff press Cancel. Where no camera can be used
 * (none, blocked, or no camera access in this browser), the same dialog asks for the ticket's code or
 * link instead, and that opens the attendee's row just as a scan does. A native <dialog> opened as a
 * modal keeps the keyboard inside it and closes on Escape.
 */
export function ScanDialog({
  camera,
  findCode,
  onResult,
  onClose,
}: {
  /** Whether this browser can use a camera at all (`cameraUsable`). */
  camera: boolean;
  /** The booking at this event whose ticket has this unique code, or null; throws `CallFailed` offline. */
  findCode(code: string): Promise<TicketRef | null>;
  /** The ticket read or typed; null for a QR code that is not one of our tickets. */
  onResult(ticket: TicketRef | null): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [typing, setTyping] = useState(!camera);
  const [problem, setProblem] = useState<string | null>(camera ? null : NO_CAMERA_HERE);
  const [typed, setTyped] = useState("");
  const [typedError, setTypedError] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const started = useCameraScan(
    video,
    camera && !typing,
    (text) => onResult(parseTicket(text)),
    (message) => {
      setProblem(message);
      setTyping(true);
    },
  );

  // Typing replaces the camera view: the field takes the focus.
  useEffect(() => {
    if (typing) input.current?.focus();
  }, [typing]);

  const refuse = (message: string) => {
    setTypedError(message);
    input.current?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (looking) return;
    const ticket = parseTypedTicket(typed);
    if (ticket) {
      onResult(ticket);
      return;
    }
    if (!looksLikeUniqueCode(typed)) {
      refuse("That isn't a ticket code or link. Codes are 10 letters and digits, like ABCD EFGH 23.");
      return;
    }
    setLooking(true);
    setTypedError(null);
    try {
      const found = await findCode(typed);
      if (found) onResult(found);
      else refuse("No ticket for this event has that code. Check it with the attendee, or find them by name.");
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      refuse("Looking up a code needs a connection. Find the attendee by name, or type the ticket's link.");
    } finally {
      setLooking(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="door-scan-dialog"
      aria-labelledby="door-scan-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="door-scan-title">{typing ? "Type the code" : "Scan ticket"}</h2>
      {typing ? (
        <>
          {problem ? (
            <p className="door-scan-problem" role="alert">
              {problem}
            </p>
          ) : null}
          <form className="door-type-form" onSubmit={(e) => void submit(e)} noValidate>
            <TicketCodeField
              inputRef={input}
              value={typed}
              error={typedError}
              onChange={(value) => {
                setTyped(value);
                setTypedError(null);
              }}
            />
            <button type="submit" className="button primary door-type-open" disabled={looking}>
              {looking ? "Looking up the code..." : "Open ticket"}
            </button>
          </form>
        </>
      ) : (
        <CameraView video={video} started={started} onType={() => setTyping(true)} />
      )}
      <button type="button" className="button door-scan-cancel" onClick={onClose}>
        Cancel
      </button>
    </dialog>
  );
}

/** The camera's picture, whether it has started, and the way to type the code instead. */
function CameraView(props: { video: RefObject<HTMLVideoElement | null>; started: boolean; onType(): void }) {
  return (
    <>
      <video ref={props.video} className="door-scan-video" muted playsInline aria-label="Camera view" />
      <p className="door-scan-hint" role="status">
        {props.started ? "Point the camera at the ticket's QR code." : "Starting the camera..."}
      </p>
      <button type="button" className="button door-type-instead" onClick={props.onType}>
        Type the code
      </button>
    </>
  );
}

/** The ticket's code or link, typed where no camera can read it, with why it was refused. */
function TicketCodeField(props: {
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  error: string | null;
  onChange(value: string): void;
}) {
  return (
    <div className="field">
      <label htmlFor="door-ticket-code">Ticket code or link</label>
      <input
        ref={props.inputRef}
        id="door-ticket-code"
        type="text"
        inputMode="url"
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        aria-describedby={props.error ? "door-ticket-code-error" : "door-ticket-code-hint"}
        aria-invalid={props.error ? true : undefined}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? (
        <p id="door-ticket-code-error" className="message error" role="alert">
          {props.error}
        </p>
      ) : (
        <p id="door-ticket-code-hint" className="door-scan-help">
          The unique code on the ticket, or the link its QR code opens.
        </p>
      )}
    </div>
  );
}
