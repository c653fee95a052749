CREATE TABLE `admin_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`password_fingerprint` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `events` ADD `personal_data_erased_at` integer;