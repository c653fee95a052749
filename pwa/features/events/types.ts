// The shapes of SPEC.md section 3, as the API sends them (api/services/events.ts).
export type EventStatus = "upcoming" | "started" | "ended";

export type EventSummary = {
  id: number;
  event_name: string;
  event_image: string;
  EventDateTime: string;
  event_address: string;
  booking_amount: number;
  SeatAvailabilityPer: number;
  event_status: EventStatus;
  event_duration: number;
  from_age: number;
  to_age: number;
};

export type EventDetail = EventSummary & { event_date: string; event_time: string; total_seats: number };
