import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { DEFAULT_TIME_ZONE } from "../../../../common/time-zone.ts";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { eventDefaults, saveEvent } from "../admin-api.ts";
import { panelSearch } from "../admin-tabs.ts";
import { draftProblem, type EventDraft, emptyDraft, newEventOf } from "../event-draft.ts";
import { tomorrowAt } from "../format.ts";
import { EventFields } from "./event-fields.tsx";

/** The zone new events start with: EVENT_TIME_ZONE from the server, until the organiser picks another. */
function useDefaultZone(setZone: (zone: string) => void) {
  const picked = useRef(false);
  useEffect(() => {
    let live = true;
    eventDefaults()
      .then((reply) => {
        if (live && reply.ok && reply.data.eventTimeZone && !picked.current) setZone(reply.data.eventTimeZone);
      })
      .catch((error: unknown) => console.warn(error));
    return () => {
      live = false;
    };
  }, [setZone]);
  return () => {
    picked.current = true;
  };
}

export function AddEventForm({ onSaved }: { onSaved(): void }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [draft, setDraft] = useState<EventDraft>(() => emptyDraft(DEFAULT_TIME_ZONE));
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const setZone = useCallback((zone: string) => setDraft((d) => ({ ...d, zone })), []);
  const zonePicked = useDefaultZone(setZone);

  const set = <K extends keyof EventDraft>(key: K, value: EventDraft[K]) => {
    if (key === "zone") zonePicked();
    setDraft((d) => ({ ...d, [key]: value }));
  };

  const choose = (file: File | null) => {
    setImage(file);
    setPreview((old) => {
      if (old) URL.revokeObjectURL(old);
      return file ? URL.createObjectURL(file) : null;
    });
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || !image) return;
    const problem = draftProblem(draft);
    if (problem) {
      setMessage({ kind: "error", text: problem });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const reply = await saveEvent(newEventOf(draft, image));
      if (reply.ok) {
        setMessage({
          kind: "ok",
          text: "Event saved successfully!",
          link: { to: { search: panelSearch("Edit Event", reply.data.id) }, text: `Edit ${draft.name.trim()}` },
        });
        setDraft((d) => emptyDraft(d.zone));
        choose(null);
        if (imageInput.current) imageInput.current.value = "";
        onSaved();
      } else if (reply.status !== 401) {
        setMessage({ kind: "error", text: "Failed to save the event.", detail: reply.data.error });
      }
    } catch (error) {
      console.warn(error);
      setMessage({ kind: "error", text: "Failed to save the event.", detail: "The server could not be reached." });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="admin-form" onSubmit={(e) => void submit(e)}>
      <EventFields
        idPrefix="add"
        draft={draft}
        onChange={set}
        minDate={tomorrowAt(draft.zone)}
        picture={
          <div className="field span-2 admin-image-field">
            <label htmlFor="add-image">Event image</label>
            <input
              ref={imageInput}
              id="add-image"
              type="file"
              required
              accept="image/jpeg,image/png,image/webp"
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
            />
            {preview ? <img className="admin-preview" src={preview} alt="Preview of the chosen file" /> : null}
            <p className="admin-hint">JPEG, PNG or WebP, up to 5 MB.</p>
          </div>
        }
      />
      {/* The outcome sits beside the button, where the organiser is looking, not below the fold. */}
      <div className="span-2 admin-actions admin-save-row">
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          Save Event
        </button>
        <FormMessage message={message} />
      </div>
    </form>
  );
}
