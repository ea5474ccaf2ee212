/** The wire forms ids share: a prefix and a UUID's 32 lower-case hexadecimal digits, or a canonical UUID. */
package dev.crucible.domain.ids;
