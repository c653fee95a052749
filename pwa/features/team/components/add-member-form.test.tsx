// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AddMemberForm } from "./add-member-form.tsx";

// **Add member** (issue 49): each wrong field said beside it with the first focused, nothing sent
// until they are right; an address already on the team said on the email field. POST /api/team is
// faked at the network edge.

let sent: unknown[] = [];
let answer: { status: number; body: object } = { status: 201, body: { id: 1 } };

beforeEach(() => {
  sent = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const add = () => fireEvent.click(screen.getByRole("button", { name: "Add member" }));

describe("Add member", () => {
  it("says what each empty field needs, focuses the first, and sends nothing", () => {
    render(<AddMemberForm onAdded={() => {}} />);
    add();
    expect(screen.getByText("Enter the person's name.")).toBeTruthy();
    expect(screen.getByText("Enter the email their set-up link goes to.")).toBeTruthy();
    expect(screen.getByText("Choose what they may do: Manager, Finance or Door.")).toBeTruthy();
    expect(document.activeElement?.id).toBe("team-name");
    expect(screen.getByLabelText("Name").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Name").getAttribute("aria-describedby")).toBe("team-name-error");
    expect(sent).toEqual([]);
  });

  it("sends the trimmed fields, says who is invited, and clears the form", async () => {
    const onAdded = vi.fn();
    render(<AddMemberForm onAdded={onAdded} />);
    type("Name", " Priya Nair ");
    type("Email", "priya@example.com ");
    fireEvent.change(screen.getByLabelText("Role"), { target: { value: "finance" } });
    add();
    await screen.findByText("Priya Nair is invited as Finance.");
    expect(sent).toEqual([{ name: "Priya Nair", email: "priya@example.com", role: "finance" }]);
    expect(onAdded).toHaveBeenCalledOnce();
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("");
  });

  it("says an email already on the team on the email field", async () => {
    answer = { status: 409, body: { success: false, error: "taken", code: "email_taken" } };
    render(<AddMemberForm onAdded={() => {}} />);
    type("Name", "Priya Again");
    type("Email", "priya@example.com");
    fireEvent.change(screen.getByLabelText("Role"), { target: { value: "door" } });
    add();
    await screen.findByText("Someone on the team already has this email.");
    await waitFor(() => expect(document.activeElement?.id).toBe("team-email"));
  });
});
