import { Link, type To } from "react-router-dom";
import "./ui.css";

export type Message = {
  kind: "ok" | "error";
  text: string;
  detail?: string;
  /** Where to go next: after saving an event, its edit form. */
  link?: { to: To; text: string };
} | null;

/** Success is announced politely (status); failure interrupts (alert). */
export function FormMessage({ message }: { message: Message }) {
  if (!message) return null;
  return (
    <div className={`admin-message ${message.kind}`} role={message.kind === "ok" ? "status" : "alert"}>
      <p className="message">{message.text}</p>
      {message.detail ? <p className="admin-message-detail">{message.detail}</p> : null}
      {message.link ? (
        <p className="admin-message-detail">
          <Link to={message.link.to}>{message.link.text}</Link>
        </p>
      ) : null}
    </div>
  );
}
