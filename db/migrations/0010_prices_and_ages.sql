CREATE TABLE `promo_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`code` text NOT NULL,
	`percent_off` integer,
	`amount_off_cents` integer,
	`max_uses` integer,
	`valid_until` integer,
	`gender` text,
	`disabled_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_event_code` ON `promo_codes` (`event_id`,`code`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `list_price_cents` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `early_bird_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `discount_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `promo_code_id` integer REFERENCES promo_codes(id);--> statement-breakpoint
CREATE INDEX `bookings_promo_code` ON `bookings` (`promo_code_id`,`status`);--> statement-breakpoint
ALTER TABLE `events` ADD `from_age_male` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `to_age_male` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `from_age_female` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `to_age_female` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `price_male_cents` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `price_female_cents` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `early_bird_discount_cents` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `early_bird_until` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `date_of_birth` text;