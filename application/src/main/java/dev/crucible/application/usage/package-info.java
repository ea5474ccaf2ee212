/** Usage: recording what each completion and training operation used, and reading it back in time buckets. */
package dev.crucible.application.usage;
