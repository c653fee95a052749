import { createBrowserRouter, data } from "react-router-dom";
import { AdminPage } from "../routes/admin.tsx";
import { ConfirmBookingPage } from "../routes/confirm-booking.tsx";
import { ConfirmationPage } from "../routes/confirmation.tsx";
import { EventFeedbackPage } from "../routes/event-feedback.tsx";
import { HomePage } from "../routes/home.tsx";
import { OtpVerificationPage } from "../routes/otp-verification.tsx";
import { ParticipantFeedbackPage } from "../routes/participant-feedback.tsx";
import { SuccessPage } from "../routes/success.tsx";
import { TicketsPage } from "../routes/tickets.tsx";
import { WelcomePage } from "../routes/welcome.tsx";
import { Layout } from "./layout.tsx";
import { paths } from "./paths.ts";
import { RouteError } from "./route-error.tsx";

export const routes = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.home, element: <HomePage /> },
      { path: paths.otpVerification, element: <OtpVerificationPage /> },
      { path: paths.confirmation, element: <ConfirmationPage /> },
      { path: paths.success, element: <SuccessPage /> },
      { path: paths.confirmBooking, element: <ConfirmBookingPage /> },
      { path: paths.participantFeedback, element: <ParticipantFeedbackPage /> },
      { path: paths.eventFeedback, element: <EventFeedbackPage /> },
      { path: paths.tickets, element: <TicketsPage /> },
      { path: paths.admin, element: <AdminPage /> },
      { path: "*", loader: notFound },
    ],
  },
  // The landing page has its own navigation bar, so it sits outside the app's header and footer.
  { path: paths.welcome, element: <WelcomePage />, errorElement: <RouteError /> },
];

function notFound(): never {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export const router = createBrowserRouter(routes);
