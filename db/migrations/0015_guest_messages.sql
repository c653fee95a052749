CREATE TABLE `guest_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`client_key` text,
	`audience` text NOT NULL,
	`text` text NOT NULL,
	`actor` text NOT NULL,
	`recipients` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guest_messages_client_key` ON `guest_messages` (`event_id`,`client_key`);--> statement-breakpoint
CREATE INDEX `guest_messages_event_time` ON `guest_messages` (`event_id`,`created_at`);