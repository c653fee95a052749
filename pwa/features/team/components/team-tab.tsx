import { useState } from "react";
import { useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { useReply } from "../../../lib/use-reply.ts";
import { listTeam, removeMember, resendSetup, signOutEverywhere, type TeamMember } from "../team-api.ts";
import { AddMemberForm } from "./add-member-form.tsx";
import { MemberList } from "./member-list.tsx";
import { SignOutEverywhereButton } from "./own-sign-out.tsx";
import { OwnerSecurity } from "./owner-security.tsx";
import "../team.css";

type Team = { status: "ready"; members: TeamMember[] } | { status: "error"; message: string };

const UNREACHABLE = "Couldn't reach the server. Try again.";

/**
 * The **Team** tab (issue 49; the owner's alone): the people who sign in beside the owner's password,
 * with **Add member**, and on each row **Resend**, **Remove** (after a second look) and **Sign out
 * everywhere**; then the owner's own sessions and sign-in settings (owner-security.tsx).
 */
export function TeamTab() {
  const team = useReply("team", {
    load: async (): Promise<Team> => {
      const reply = await listTeam();
      return reply.ok
        ? { status: "ready", members: reply.data }
        : { status: "error", message: "Couldn't load the team." };
    },
    failed: (): Team => ({ status: "error", message: "Couldn't load the team: the server could not be reached." }),
  });
  const [message, setMessage] = useState<Message>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const { confirm, dialog } = useConfirm();

  /** Runs a row's action, says how it went, and reads the list again. */
  const act = async (member: TeamMember, call: () => Promise<{ ok: boolean }>, done: string, failed: string) => {
    setBusyId(member.id);
    setMessage(null);
    try {
      const reply = await call();
      setMessage(reply.ok ? { kind: "ok", text: done } : { kind: "error", text: failed });
    } catch {
      setMessage({ kind: "error", text: UNREACHABLE });
    } finally {
      setBusyId(null);
    }
    await team.refresh();
  };

  const onRemove = async (member: TeamMember) => {
    const go = await confirm({
      title: `Remove ${member.name}?`,
      lines: [
        `${member.name} is signed out at once, on every device, and can no longer sign in: their passkeys, password and recovery codes stop working.`,
        "Activity keeps their name on what they did.",
      ],
      confirmLabel: "Remove",
    });
    if (go)
      await act(member, () => removeMember(member.id), `${member.name} is removed.`, `Couldn't remove ${member.name}.`);
  };

  return (
    <div className="team-tab">
      <section aria-labelledby="team-title">
        <h2 id="team-title">Team</h2>
        <p className="admin-hint">
          Each person signs in with their own email and a passkey or an authenticator app. Managers do everything but
          this tab; Finance sees refunds, invoices and participants; Door opens the door and the rounds on the night.
        </p>
        <FormMessage message={message} />
        <ReplyView
          state={team.state}
          loading={
            <p role="status" className="admin-loading">
              Loading the team...
            </p>
          }
          onRetry={team.reload}
          isEmpty={(ready) => ready.members.length === 0}
          empty={<p className="empty">No team members yet. Add the first one below.</p>}
        >
          {(ready) => (
            <MemberList
              members={ready.members}
              busyId={busyId}
              onResend={(m) =>
                void act(
                  m,
                  () => resendSetup(m.id),
                  `A new set-up link is on its way to ${m.email}. The one before no longer works.`,
                  `Couldn't send ${m.name} a new link.`,
                )
              }
              onSignOut={(m) =>
                void act(
                  m,
                  () => signOutEverywhere(m.id),
                  `${m.name} is signed out on every device.`,
                  `Couldn't sign ${m.name} out.`,
                )
              }
              onRemove={(m) => void onRemove(m)}
            />
          )}
        </ReplyView>
        <AddMemberForm onAdded={() => void team.refresh()} />
      </section>
      <OwnerSessions />
      <OwnerSecurity />
      {dialog}
    </div>
  );
}

/** The owner's own sessions: **Sign out everywhere** ends every one, this browser's too. */
function OwnerSessions() {
  return (
    <section className="team-section" aria-labelledby="team-own-sessions">
      <h2 id="team-own-sessions">Your sessions</h2>
      <p className="admin-hint">If the password was used on a device you no longer have, sign out everywhere.</p>
      <SignOutEverywhereButton who="owner" />
    </section>
  );
}
