/**
 * Reading SFT datasets from outside the process: downloads over {@code http(s)} and JSON Lines parsing. They sit
 * with the dataset storage of this adapter so that the application sees only its ports.
 */
package dev.crucible.adapters.persistence.dataset;
