-- Edited by hand: SQLite adds a NOT NULL column only with a default. Rows made before events had a
-- zone get '' here, and openDatabase() gives them EVENT_TIME_ZONE; every new row names its zone.
ALTER TABLE `events` ADD `time_zone` text NOT NULL DEFAULT '';
