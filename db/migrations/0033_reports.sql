ALTER TABLE `bookings` ADD `came` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `dates` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `guest_key` text;--> statement-breakpoint
CREATE INDEX `bookings_guest_key` ON `bookings` (`guest_key`,`paid_at`);--> statement-breakpoint
CREATE INDEX `bookings_paid_at` ON `bookings` (`paid_at`);