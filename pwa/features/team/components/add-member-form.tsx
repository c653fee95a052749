import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { addMember } from "../team-api.ts";
import { EMAIL_MAX, EMAIL_TAKEN, type MemberDraft, type MemberErrors, memberErrors, NAME_MAX } from "../team-forms.ts";
import { ROLE_HINTS, ROLE_LABELS, TEAM_ROLES, type TeamRole } from "../team-roles.ts";

const EMPTY: MemberDraft = { name: "", email: "", role: "" };

/**
 * **Add member**: a name, an email and a role. Each field's error shows beside it and the first wrong
 * field takes the focus; an email already on the team is said on the email field. On success the
 * server emails the set-up link (72 hours, single use) and the list reads again.
 */
export function AddMemberForm({ onAdded }: { onAdded(): void }) {
  const [draft, setDraft] = useState<MemberDraft>(EMPTY);
  const [errors, setErrors] = useState<MemberErrors>({});
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);
  const fields = {
    name: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    role: useRef<HTMLSelectElement>(null),
  };
  const set = (key: keyof MemberDraft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const showErrors = (found: MemberErrors) => {
    setErrors(found);
    const first = (["name", "email", "role"] as const).find((k) => found[k]);
    if (first) fields[first].current?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setMessage(null);
    const found = memberErrors(draft);
    if (Object.keys(found).length > 0 || draft.role === "") return showErrors(found);
    setBusy(true);
    const member = { name: draft.name.trim(), email: draft.email.trim(), role: draft.role };
    try {
      const reply = await addMember(member);
      if (reply.ok) {
        setDraft(EMPTY);
        setErrors({});
        setMessage({
          kind: "ok",
          text: `${member.name} is invited as ${ROLE_LABELS[member.role]}.`,
          detail: `Their set-up link is on its way to ${member.email}. It works once, for 72 hours.`,
        });
        onAdded();
      } else if (reply.data.code === "email_taken") {
        showErrors({ email: EMAIL_TAKEN });
      } else {
        setMessage({ kind: "error", text: reply.data.error || "Couldn't add them. Check the fields and try again." });
      }
    } catch {
      setMessage({ kind: "error", text: "Couldn't reach the server. Try again." });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="team-add" aria-labelledby="team-add-title" noValidate onSubmit={(e) => void submit(e)}>
      <h3 id="team-add-title">Add member</h3>
      <div className="team-add-fields">
        <Field id="team-name" label="Name" error={errors.name}>
          <input
            ref={fields.name}
            id="team-name"
            autoComplete="off"
            maxLength={NAME_MAX + 20}
            value={draft.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "team-name-error" : undefined}
            onChange={(e) => set("name")(e.target.value)}
          />
        </Field>
        <Field id="team-email" label="Email" error={errors.email}>
          <input
            ref={fields.email}
            id="team-email"
            type="email"
            autoComplete="off"
            maxLength={EMAIL_MAX + 20}
            value={draft.email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? "team-email-error" : undefined}
            onChange={(e) => set("email")(e.target.value)}
          />
        </Field>
        <Field id="team-role" label="Role" error={errors.role}>
          <select
            ref={fields.role}
            id="team-role"
            value={draft.role}
            aria-invalid={errors.role ? true : undefined}
            aria-describedby={errors.role ? "team-role-error team-role-hint" : "team-role-hint"}
            onChange={(e) => set("role")(e.target.value)}
          >
            <option value="">Choose a role</option>
            {TEAM_ROLES.map((role: TeamRole) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
          <p id="team-role-hint" className="field-hint">
            {draft.role === "" ? "Manager, Finance or Door." : ROLE_HINTS[draft.role]}
          </p>
        </Field>
      </div>
      <button type="submit" className="button primary" disabled={busy}>
        Add member
      </button>
      <FormMessage message={message} />
    </form>
  );
}

/** A labelled field with its error below it, in words (the field points at it with aria-describedby). */
function Field(props: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.error ? (
        <p id={`${props.id}-error`} className="message error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
