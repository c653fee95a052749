CREATE TABLE `announcements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`audience` text NOT NULL,
	`channels` text NOT NULL,
	`text` text NOT NULL,
	`recipients_sms` integer NOT NULL,
	`recipients_email` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `announcements_event` ON `announcements` (`event_id`);--> statement-breakpoint
CREATE TABLE `marketing_consents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_id` integer NOT NULL,
	`given` integer NOT NULL,
	`source` text NOT NULL,
	`wording` text NOT NULL,
	`phone` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `marketing_contacts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `marketing_consents_contact` ON `marketing_consents` (`contact_id`,`id`);--> statement-breakpoint
CREATE TABLE `marketing_contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `marketing_contacts_address` ON `marketing_contacts` (`channel`,`address`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `announcement_id` integer;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `headers` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `purpose` text DEFAULT 'transactional' NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `announcement_id` integer;--> statement-breakpoint
CREATE INDEX `outbox_messages_announcement` ON `outbox_messages` (`announcement_id`,`status`);--> statement-breakpoint
-- A consent record is history (the Spam Act's proof of consent): a new choice adds a row, none is rewritten.
CREATE TRIGGER `marketing_consents_append_only` BEFORE UPDATE ON `marketing_consents`
BEGIN
	SELECT RAISE(ABORT, 'marketing consent records are never changed; add a new one');
END;
