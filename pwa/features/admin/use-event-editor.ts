import { useRef, useState } from "react";
import { MAX_IMAGE_BYTES } from "../../../common/images.ts";
import type { Message } from "../../components/ui/form-message.tsx";
import { useReply } from "../../lib/use-reply.ts";
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

type Editing = {
  status: "ready";
  /** The event as the server has it. */
  event: AdminEventDetail;
  /** The fields being typed, from the event as read. */
  draft: EventDraft;
  /** A new picture chosen, sent with the fields. */
  image: File | null;
  /** Paid bookings still unrefunded: a cancelled event with some left offers "Finish refunds". */
  unrefunded: number;
};

const loadFailed: Message = { kind: "error", text: "Couldn't load that event." };

/**
 * The Edit tab's state for the picked event (the panel keeps which one), read through useReply: the
 * event as the server has it, the draft being typed, and saving it (the fields, then a new picture if
 * one was chosen). A reply for an event picked before is dropped, so the form and its buttons never
 * act on an event other than the one shown as picked.
 */
export function useEventEditor(eventId: number | null, onChanged: () => void) {
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const picked = useRef(eventId);
  picked.current = eventId;

  const read = useReply<Editing | { status: "error" }, number | null>(eventId, {
    async load(id): Promise<Editing> {
      try {
        const reply = await getEventDetail(id);
        if (!reply.ok) throw new Error(reply.data.error ?? `HTTP ${reply.status}`);
        const unrefunded = reply.data.status === "cancelled" ? ((await numbersOf(id))?.paid.total ?? 0) : 0;
        return { status: "ready", event: reply.data, draft: draftOf(reply.data), image: null, unrefunded };
      } catch (error) {
        console.warn(error);
        if (picked.current === id) setMessage(loadFailed);
        throw error;
      }
    },
    failed: () => ({ status: "error" }),
  });
  const { state, setState } = read;
  const editing = state.status === "ready" ? state : null;
  const event = editing?.event ?? null;
  const draft = editing?.draft ?? null;
  const image = editing?.image ?? null;

  // Another event picked: the last one's message goes with it.
  const [messageFor, setMessageFor] = useState(eventId);
  if (messageFor !== eventId) {
    setMessageFor(eventId);
    setMessage(null);
  }

  const edit = (change: Partial<Pick<Editing, "draft" | "image">>) =>
    setState((s) => (s.status === "ready" ? { ...s, ...change } : s));
  const set = <K extends keyof EventDraft>(key: K, value: EventDraft[K]) =>
    setState((s) => (s.status === "ready" ? { ...s, draft: { ...s.draft, [key]: value } } : s));
  const setImage = (file: File | null) => edit({ image: file });

  /**
   * After a change made here or by a lifecycle action: the event again, read in place (the form stays
   * up, and its message), and the list around it.
   */
  const reload = async (_id: number) => {
    await read.refresh();
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
    loading: state.status === "loading",
    saving,
    save,
    message,
    setMessage,
    image,
    setImage,
    unrefunded: editing?.unrefunded ?? 0,
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
