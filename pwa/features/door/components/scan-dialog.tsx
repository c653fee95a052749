import { useEffect, useRef, useState } from "react";
import { createFrameDecoder } from "../qr-decoder.ts";

const SCAN_EVERY_MS = 150;

function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "The camera is blocked. Allow it for this site in the browser's settings, or find the attendee by name.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") return "This phone has no camera to use.";
  return "Couldn't start the camera. Find the attendee by name instead.";
}

/**
 * The camera, full screen, until a QR code is read (then `onResult`) or staff press Cancel. A native
 * <dialog> opened as a modal keeps the keyboard inside it and closes on Escape.
 */
export function ScanDialog({ onResult, onClose }: { onResult(text: string): void; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [message, setMessage] = useState("Starting the camera...");
  const [failed, setFailed] = useState(false);
  // The latest callback, so the camera is not restarted when the parent re-renders.
  const resultRef = useRef(onResult);
  resultRef.current = onResult;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  useEffect(() => {
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
        setMessage("Point the camera at the ticket's QR code.");
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
            resultRef.current(text);
            return;
          }
          timer = setTimeout(() => void look(), SCAN_EVERY_MS);
        };
        void look();
      } catch (error) {
        if (stopped) return;
        console.warn(error);
        setFailed(true);
        setMessage(cameraProblem(error));
      }
    })();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

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
      <h2 id="door-scan-title">Scan ticket</h2>
      <video ref={video} className="door-scan-video" muted playsInline aria-label="Camera view" />
      <p className={failed ? "message error" : "door-scan-hint"} role={failed ? "alert" : "status"}>
        {message}
      </p>
      <button type="button" className="button door-scan-cancel" onClick={onClose}>
        Cancel
      </button>
    </dialog>
  );
}
