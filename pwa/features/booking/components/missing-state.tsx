import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";

/** Shown when a booking page is opened without the navigation state it needs (a reload, a shared link). */
export function MissingState({ message }: { message: string }) {
  return (
    <div className="notice" role="alert">
      <p>{message}</p>
      <p>
        <Link to={paths.home}>Back to upcoming events</Link>
      </p>
    </div>
  );
}
