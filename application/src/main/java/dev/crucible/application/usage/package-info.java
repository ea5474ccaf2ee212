/** Completion usage: recording what each completion used, and reading it back in time buckets. */
package dev.crucible.application.usage;
