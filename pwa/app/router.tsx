import { createBrowserRouter, data } from "react-router-dom";
import { HomePage } from "../routes/home.tsx";
import { Layout } from "./layout.tsx";
import { paths } from "./paths.ts";
import { RouteError } from "./route-error.tsx";

// The home page ships in the first bundle; every other page is its own chunk, fetched when
// visited (and precached by the service worker), so a phone's first visit downloads little.
export const routes = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      { path: paths.home, element: <HomePage /> },
      {
        path: paths.otpVerification,
        lazy: async () => ({ Component: (await import("../routes/otp-verification.tsx")).OtpVerificationPage }),
      },
      {
        path: paths.confirmation,
        lazy: async () => ({ Component: (await import("../routes/confirmation.tsx")).ConfirmationPage }),
      },
      { path: paths.success, lazy: async () => ({ Component: (await import("../routes/success.tsx")).SuccessPage }) },
      {
        path: paths.confirmBooking,
        lazy: async () => ({ Component: (await import("../routes/confirm-booking.tsx")).ConfirmBookingPage }),
      },
      {
        path: paths.participantFeedback,
        lazy: async () => ({
          Component: (await import("../routes/participant-feedback.tsx")).ParticipantFeedbackPage,
        }),
      },
      {
        path: paths.eventFeedback,
        lazy: async () => ({ Component: (await import("../routes/event-feedback.tsx")).EventFeedbackPage }),
      },
      {
        path: paths.waitlistOffer,
        lazy: async () => ({ Component: (await import("../routes/waitlist-offer.tsx")).WaitlistOfferPage }),
      },
      { path: paths.tickets, lazy: async () => ({ Component: (await import("../routes/tickets.tsx")).TicketsPage }) },
      { path: paths.admin, lazy: async () => ({ Component: (await import("../routes/admin.tsx")).AdminPage }) },
      {
        path: paths.adminDoor,
        lazy: async () => ({ Component: (await import("../routes/admin-door.tsx")).AdminDoorPage }),
      },
      { path: "*", loader: notFound },
    ],
  },
  // The landing page has its own navigation bar, so it sits outside the app's header and footer.
  {
    path: paths.welcome,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    lazy: async () => ({ Component: (await import("../routes/welcome.tsx")).WelcomePage }),
  },
];

function notFound(): never {
  throw data(null, { status: 404, statusText: "Not Found" });
}

function PageLoading() {
  return (
    <main className="page" aria-busy="true">
      <p className="empty">Loading…</p>
    </main>
  );
}

export const router = createBrowserRouter(routes);
