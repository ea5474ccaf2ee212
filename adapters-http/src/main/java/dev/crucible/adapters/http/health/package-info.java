/** Health and system-check routes. */
package dev.crucible.adapters.http.health;
