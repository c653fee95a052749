import { Component, type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { BrowserRouter, Route, Routes, useLocation } from "react-router-dom";
import { HomePage } from "../routes/home.tsx";
import { Layout } from "./layout.tsx";
import { PageLoading } from "./page-loading.tsx";
import { paths } from "./paths.ts";
import { NOT_FOUND, RouteError } from "./route-error.tsx";

// The home page ships in the first bundle; every other page is its own chunk, fetched when
// visited (and precached by the service worker), so a phone's first visit downloads little. The
// declarative router (not the data router) keeps that first bundle small: no page here uses loaders
// or actions.
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const OtpVerificationPage = page(() => import("../routes/otp-verification.tsx"), "OtpVerificationPage");
const ConfirmationPage = page(() => import("../routes/confirmation.tsx"), "ConfirmationPage");
const SuccessPage = page(() => import("../routes/success.tsx"), "SuccessPage");
const ConfirmBookingPage = page(() => import("../routes/confirm-booking.tsx"), "ConfirmBookingPage");
const ParticipantFeedbackPage = page(() => import("../routes/participant-feedback.tsx"), "ParticipantFeedbackPage");
const EventFeedbackPage = page(() => import("../routes/event-feedback.tsx"), "EventFeedbackPage");
const WaitlistOfferPage = page(() => import("../routes/waitlist-offer.tsx"), "WaitlistOfferPage");
const TransferPage = page(() => import("../routes/transfer.tsx"), "TransferPage");
const ChoosePage = page(() => import("../routes/choose.tsx"), "ChoosePage");
const TicketsPage = page(() => import("../routes/tickets.tsx"), "TicketsPage");
const MePage = page(() => import("../routes/me.tsx"), "MePage");
const AdminPage = page(() => import("../routes/admin.tsx"), "AdminPage");
const AdminDoorPage = page(() => import("../routes/admin-door.tsx"), "AdminDoorPage");
const WelcomePage = page(() => import("../routes/welcome.tsx"), "WelcomePage");
const HostPage = page(() => import("../routes/host.tsx"), "HostPage");
const PrivacyPage = page(() => import("../routes/privacy.tsx"), "PrivacyPage");
const UnsubscribePage = page(() => import("../routes/unsubscribe.tsx"), "UnsubscribePage");
const ConfirmEmailConsentPage = page(() => import("../routes/confirm-email-consent.tsx"), "ConfirmEmailConsentPage");

export function AppRouter() {
  return (
    <BrowserRouter>
      <Pages />
    </BrowserRouter>
  );
}

export function Pages() {
  const { pathname } = useLocation();
  return (
    <ErrorFallback pathname={pathname}>
      <Routes>
        <Route element={<Layout />}>
          <Route path={paths.home} element={<HomePage />} />
          <Route path={paths.otpVerification} element={<OtpVerificationPage />} />
          <Route path={paths.confirmation} element={<ConfirmationPage />} />
          <Route path={paths.success} element={<SuccessPage />} />
          <Route path={paths.confirmBooking} element={<ConfirmBookingPage />} />
          <Route path={paths.participantFeedback} element={<ParticipantFeedbackPage />} />
          <Route path={paths.eventFeedback} element={<EventFeedbackPage />} />
          <Route path={paths.waitlistOffer} element={<WaitlistOfferPage />} />
          <Route path={paths.transfer} element={<TransferPage />} />
          <Route path={paths.choose} element={<ChoosePage />} />
          <Route path={paths.tickets} element={<TicketsPage />} />
          <Route path={paths.me} element={<MePage />} />
          <Route path={paths.admin} element={<AdminPage />} />
          <Route path={paths.adminDoor} element={<AdminDoorPage />} />
          {/* The set-up link's page: AdminPage shows it (routes/admin.tsx), so it adds no loader to this file, which
              the home page loads within its 85 KB. */}
          <Route path="/admin/setup" element={<AdminPage />} />
          <Route path={paths.host} element={<HostPage />} />
          <Route path={paths.privacy} element={<PrivacyPage />} />
          <Route path={paths.unsubscribe} element={<UnsubscribePage />} />
          <Route path={paths.confirmEmailConsent} element={<ConfirmEmailConsentPage />} />
          <Route path="*" element={<RouteError error={NOT_FOUND} />} />
        </Route>
        {/* The landing page has its own navigation bar, so it sits outside the app's header and footer. */}
        <Route
          path={paths.welcome}
          element={
            <Suspense fallback={<PageLoading />}>
              <WelcomePage />
            </Suspense>
          }
        />
      </Routes>
    </ErrorFallback>
  );
}

type FallbackState = { error: unknown; pathname: string };

/**
 * A page that throws while rendering (or whose chunk cannot load) shows the router's fallback, until
 * the address changes.
 */
export class ErrorFallback extends Component<{ pathname: string; children: ReactNode }, FallbackState> {
  override state: FallbackState = { error: null, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: FallbackState) {
    return props.pathname === state.pathname ? null : { error: null, pathname: props.pathname };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error === null ? this.props.children : <RouteError error={this.state.error} />;
  }
}
