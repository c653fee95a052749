CREATE TABLE `activity_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`event_id` integer,
	`user_id` integer,
	`detail` text,
	`count` integer DEFAULT 1 NOT NULL,
	`window_key` text
);
--> statement-breakpoint
CREATE INDEX `activity_log_event_at` ON `activity_log` (`event_id`,`at`);--> statement-breakpoint
CREATE UNIQUE INDEX `activity_log_window` ON `activity_log` (`window_key`);--> statement-breakpoint
CREATE TABLE `host_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`label` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `host_links_event` ON `host_links` (`event_id`);--> statement-breakpoint
CREATE TABLE `host_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`link_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `host_links`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `host_sessions_link` ON `host_sessions` (`link_id`);