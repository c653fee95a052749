CREATE TABLE `event_rounds` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`round_minutes` integer NOT NULL,
	`break_minutes` integer NOT NULL,
	`max_rounds` integer,
	`seated` text NOT NULL,
	`plan` text NOT NULL,
	`planned_for` text NOT NULL,
	`planned_at` integer NOT NULL,
	`current` integer,
	`phase` text,
	`phase_ends_at` integer,
	`paused_remaining_ms` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `left_at` integer;