CREATE TABLE `waitlist_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`phone` text NOT NULL,
	`gender` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_event_status` ON `waitlist_entries` (`event_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_entries_one_per_phone` ON `waitlist_entries` (`event_id`,`phone`) WHERE "waitlist_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE TABLE `waitlist_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entry_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`phone` text NOT NULL,
	`gender` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`expires_at` integer NOT NULL,
	`booking_id` integer,
	`claimed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `waitlist_entries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `waitlist_offers_event_status` ON `waitlist_offers` (`event_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_offers_one_per_entry` ON `waitlist_offers` (`entry_id`);--> statement-breakpoint
ALTER TABLE `events` ADD `seats_male` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `seats_female` integer;