import { isRouteErrorResponse, useRouteError } from "react-router-dom";

/** The router's fallback (SPEC.md section 2): the heading, the status text or message, the stack. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  const stack = error instanceof Error ? error.stack : undefined;
  return (
    <main className="page route-error">
      <h2>Unexpected Application Error!</h2>
      <h3 className="route-error-message">{message}</h3>
      {stack ? <pre className="route-error-stack">{stack}</pre> : null}
      <p>
        <a href="/">Back to upcoming events</a>
      </p>
    </main>
  );
}
