/** Token usage: which project a completion counts against, what it used, and how usage is read back in buckets. */
package dev.crucible.domain.usage;
