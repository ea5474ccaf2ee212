/** Automatic prefix caching: prompts cut into hashed blocks, whose keys and values a later prompt of the same scope copies instead of forwarding. */
package dev.crucible.runtime.generation.prefix;
