/** Values shared by every feature: refusals as values, outcomes and cursor pages. */
package dev.crucible.domain.common;
