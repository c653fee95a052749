/** An unknown address, shown as a router's "404 Not Found". */
export const NOT_FOUND = { status: 404, statusText: "Not Found" } as const;

/** The router's fallback: the heading, the status text or message, the stack. */
export function RouteError({ error }: { error: unknown }) {
  const message =
    error === NOT_FOUND
      ? `${NOT_FOUND.status} ${NOT_FOUND.statusText}`
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
