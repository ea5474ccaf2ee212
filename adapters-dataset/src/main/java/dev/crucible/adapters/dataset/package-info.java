/**
 * Reading SFT datasets from outside the process, behind the application's ports: downloads over {@code http(s)}
 * (a web client, so not in the persistence adapter) and JSON Lines parsing.
 */
package dev.crucible.adapters.dataset;
