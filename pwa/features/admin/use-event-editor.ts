import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_IMAGE_BYTES } from "../../../common/images.ts";
import type { Message } from "../../components/ui/form-message.tsx";
import {
  type AdminEventDetail,
  type EventNumbers,
  getEventDetail,
  getEventNumbers,
  updateEvent,
  updateEventImage,
} from "./admin-api.ts";
import { draftOf, draftProblem, type EventDraft, updateOf } from "./event-draft.ts";

/** The event's numbers for a confirmation's sentence; null when they cannot be had (the dialog says less). */
export async function numbersOf(eventId: number): Promise<EventNumbers | null> {
  try {
    const reply = await getEventNumbers(eventId);
    return reply.ok ? reply.data : null;
  } catch (error) {
    console.warn(error);
    return null;
  }
}

/**
 * The Edit tab's state for the picked event (the panel keeps which one): the event as the server has it, the draft being typed, and saving it
 * (the fields, then a new picture if one was chosen). A reply for an event picked before is dropped,
 * so the form and its buttons never act on an event other than the one shown as picked.
 */
export function useEventEditor(eventId: number | null, onChanged: () => void) {
  const [event, setEvent] = useState<AdminEventDetail | null>(null);
  const [draft, setDraft] = useState<EventDraft | null>(null);
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [image, setImage] = useState<File | null>(null);
  // Paid bookings still unrefunded: a cancelled event with some left offers "Finish refunds".
  const [unrefunded, setUnrefunded] = useState(0);
  const current = useRef<number | null>(null);

  const load = useCallback(async (id: number, keepMessage = false) => {
    setLoading(true);
    if (!keepMessage) setMessage(null);
    try {
      const reply = await getEventDetail(id);
      if (current.current !== id) return;
      if (!reply.ok) throw new Error(reply.data.error ?? `HTTP ${reply.status}`);
      setEvent(reply.data);
      setDraft(draftOf(reply.data));
      setImage(null);
      setUnrefunded(reply.data.status === "cancelled" ? ((await numbersOf(id))?.paid.total ?? 0) : 0);
    } catch (error) {
      if (current.current !== id) return;
      console.warn(error);
      setEvent(null);
      setDraft(null);
      setMessage({ kind: "error", text: "Couldn't load that event." });
    } finally {
      if (current.current === id) setLoading(false);
    }
  }, []);

  useEffect(() => {
    current.current = eventId;
    setEvent(null);
    setDraft(null);
    if (eventId === null) return;
    void load(eventId);
  }, [eventId, load]);

  const set = <K extends keyof EventDraft>(key: K, value: EventDraft[K]) =>
    setDraft((d) => (d ? { ...d, [key]: value } : d));

  /** After a change made here or by a lifecycle action: the event again, and the list around it. */
  const reload = async (id: number) => {
    await load(id, true);
    onChanged();
  };

  const save = async () => {
    if (!event || !draft || saving) return;
    const problem = draftProblem(draft);
    if (problem) {
      setMessage({ kind: "error", text: problem });
      return;
    }
    setSaving(true);
    setMessage(null);
    try {
      const reply = await updateEvent(updateOf(event.id, draft));
      if (reply.ok) {
        const pictureError = image ? await replacePicture(event.id, image) : null;
        if (pictureError === null) setMessage({ kind: "ok", text: "Event updated successfully!" });
        else if (pictureError !== "locked") {
          setMessage({ kind: "error", text: "Failed to update the event.", detail: pictureError });
        }
        await reload(event.id);
      } else if (reply.status !== 401) {
        setMessage({ kind: "error", text: "Failed to update the event.", detail: reply.data.error });
      }
    } catch (error) {
      console.warn(error);
      setMessage({ kind: "error", text: "Failed to update the event.", detail: "The server could not be reached." });
    } finally {
      setSaving(false);
    }
  };

  return {
    eventId,
    event,
    draft,
    set,
    loading,
    saving,
    save,
    message,
    setMessage,
    image,
    setImage,
    unrefunded,
    reload,
  };
}

/** Sends the new picture; null when it was replaced, "locked" when the session lapsed, else why not. */
async function replacePicture(eventId: number, image: File): Promise<string | null> {
  if (image.size > MAX_IMAGE_BYTES) return "The picture was not changed: it is over 5 MB.";
  try {
    const reply = await updateEventImage(eventId, image);
    if (reply.ok) return null;
    if (reply.status === 401) return "locked";
    return `The picture was not changed: ${reply.data.error ?? `HTTP ${reply.status}`}.`;
  } catch (error) {
    console.warn(error);
    return "The picture was not changed: the server could not be reached.";
  }
}
