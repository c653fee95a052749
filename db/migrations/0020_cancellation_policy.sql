ALTER TABLE `events` ADD `cancel_full_refund_hours` integer DEFAULT 48 NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `cancel_later_percent` integer DEFAULT 0 NOT NULL;