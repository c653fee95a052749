ALTER TABLE `bookings` ADD `held_since` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `started_at` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `ended_at` integer;