CREATE TABLE `contact_shares` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`from_user_id` integer NOT NULL,
	`to_user_id` integer NOT NULL,
	`phone` text NOT NULL,
	`share` text NOT NULL,
	`instagram` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`from_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_shares_pair` ON `contact_shares` (`event_id`,`from_user_id`,`to_user_id`);--> statement-breakpoint
CREATE INDEX `contact_shares_phone` ON `contact_shares` (`phone`,`updated_at`);--> statement-breakpoint
ALTER TABLE `events` ADD `format` text DEFAULT 'women_men' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `offers_friend` integer DEFAULT false NOT NULL;