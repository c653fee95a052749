CREATE TABLE `guest_choices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`kind` text NOT NULL,
	`to_event_id` integer,
	`held_booking_id` integer,
	`refund_cents` integer NOT NULL,
	`credit_cents` integer NOT NULL,
	`deadline` integer NOT NULL,
	`choice` text,
	`chosen_at` integer,
	`settled_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guest_choices_booking` ON `guest_choices` (`booking_id`);--> statement-breakpoint
CREATE INDEX `guest_choices_event` ON `guest_choices` (`event_id`);--> statement-breakpoint
ALTER TABLE `events` ADD `minimum_checked_at` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `short_of_numbers_at` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `moved_to_event_id` integer;