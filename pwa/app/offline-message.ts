import { paths } from "./paths.ts";

const BOOKING_PAGES: string[] = [paths.otpVerification, paths.confirmation, paths.success, paths.waitlistOffer];

/**
 * What still works offline on the page at `pathname`, in a sentence: booking needs the server, while
 * feedback taps and door check-ins are kept on the phone and sent later, and saved tickets need nothing.
 */
export function offlineMessage(pathname: string): string {
  const path = pathname.replace(/\/+$/, "") || paths.home;
  if (path === paths.home) return "These are the events saved on this phone. Booking needs a connection.";
  if (BOOKING_PAGES.includes(path)) return "Booking needs a connection: this step carries on once you're back online.";
  if (path === paths.tickets || path === paths.me) return "Your saved tickets still work, QR code and all.";
  if (path === paths.participantFeedback) {
    return "Your likes are saved on this phone and will sync when you're back online.";
  }
  if (path === paths.adminDoor) return "Check-ins are saved on this phone and will sync when you're back online.";
  if (path === paths.eventFeedback) return "Your matches will show once you're back online.";
  if (path === paths.confirmBooking) return "Checking a code needs a connection.";
  if (path === paths.admin) return "Changes to events need a connection.";
  return "Some things need a connection and will work again once you're back online.";
}
