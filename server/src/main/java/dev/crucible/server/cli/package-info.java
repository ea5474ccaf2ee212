/** The command line: {@code serve}, {@code keys create}, {@code models make-tiny}, and the client commands. */
package dev.crucible.server.cli;
