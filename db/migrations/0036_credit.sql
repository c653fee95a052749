CREATE TABLE `credit_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guest_key` text NOT NULL,
	`at` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`booking_id` integer,
	`event_id` integer,
	`unique_key` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_entries_unique_key` ON `credit_entries` (`unique_key`);--> statement-breakpoint
CREATE INDEX `credit_entries_guest` ON `credit_entries` (`guest_key`,`at`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `credit_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `checkout_sessions` ADD `credit_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `credit_until` integer;