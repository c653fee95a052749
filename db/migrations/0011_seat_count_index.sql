DROP INDEX `bookings_event_status`;--> statement-breakpoint
CREATE INDEX `bookings_seats` ON `bookings` (`event_id`,`status`,`hold_expires_at`,`seat_released`,`phone`,`user_id`);