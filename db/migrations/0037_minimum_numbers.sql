ALTER TABLE `events` ADD `minimum_female` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `minimum_male` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `minimum_total` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `minimum_by` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `no_match_promise` integer DEFAULT false NOT NULL;