import { DoorGate } from "../features/door/components/door-gate.tsx";
import { DoorView } from "../features/door/components/door-view.tsx";

export function AdminDoorPage() {
  return (
    <main className="page door-page">
      <h1>Door</h1>
      <DoorGate>
        <DoorView />
      </DoorGate>
    </main>
  );
}
