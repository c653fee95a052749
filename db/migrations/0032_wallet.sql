CREATE TABLE `wallet_passes` (
	`booking_id` integer PRIMARY KEY NOT NULL,
	`serial_number` text NOT NULL,
	`update_tag` integer DEFAULT 1 NOT NULL,
	`updated_at` integer NOT NULL,
	`apple_issued_at` integer,
	`google_saved_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_passes_serial` ON `wallet_passes` (`serial_number`);--> statement-breakpoint
CREATE INDEX `wallet_passes_tag` ON `wallet_passes` (`update_tag`);--> statement-breakpoint
CREATE TABLE `wallet_registrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`device_library_id` text NOT NULL,
	`serial_number` text NOT NULL,
	`push_token` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wallet_registrations_device_pass` ON `wallet_registrations` (`device_library_id`,`serial_number`);--> statement-breakpoint
CREATE INDEX `wallet_registrations_serial` ON `wallet_registrations` (`serial_number`);