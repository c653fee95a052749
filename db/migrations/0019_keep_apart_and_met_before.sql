CREATE TABLE `keep_apart` (
	`event_id` integer NOT NULL,
	`user_a` integer NOT NULL,
	`user_b` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`event_id`, `user_a`, `user_b`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_a`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_b`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `event_rounds` ADD `met_before` text DEFAULT '[]' NOT NULL;