/** The command line: {@code serve} and {@code keys create}. */
package dev.crucible.server.cli;
