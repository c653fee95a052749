ALTER TABLE `activity_log` ADD `actor_kind` text;--> statement-breakpoint
ALTER TABLE `activity_log` ADD `other_user_id` integer;