ALTER TABLE `events` ADD `results_at` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `results_released_at` integer;--> statement-breakpoint
-- Nights that ended before results had a time already showed their reports: they count as released,
-- so the scheduler does not text their matches again.
UPDATE `events` SET `results_released_at` = `ended_at` WHERE `status` = 'ended';
