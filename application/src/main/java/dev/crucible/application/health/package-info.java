/** Health and system checks. */
package dev.crucible.application.health;
