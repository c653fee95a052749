CREATE TABLE `transfer_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`to_phone` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`accepted_booking_id` integer,
	`decided_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transfer_offers_booking` ON `transfer_offers` (`booking_id`,`status`);--> statement-breakpoint
CREATE INDEX `transfer_offers_status` ON `transfer_offers` (`status`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `transferred_from` integer;