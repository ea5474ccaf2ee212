/** The wire form ids share: a prefix and a UUID's 32 lower-case hexadecimal digits. */
package dev.crucible.domain.ids;
