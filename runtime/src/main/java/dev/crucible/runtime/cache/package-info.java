/** Bounded caches the runtime and its callers share. */
package dev.crucible.runtime.cache;
