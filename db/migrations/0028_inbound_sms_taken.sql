CREATE TABLE `inbound_sms_taken` (
	`sid` text PRIMARY KEY NOT NULL,
	`taken_at` integer NOT NULL
);
