ALTER TABLE `event_rounds` ADD `announcement` text;--> statement-breakpoint
ALTER TABLE `event_rounds` ADD `announcement_round` integer;