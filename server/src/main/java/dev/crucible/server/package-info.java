/** The single deployable: entry point, command line, wiring and the embedded database. */
package dev.crucible.server;
