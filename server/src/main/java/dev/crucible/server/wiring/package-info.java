/** Wiring: configuration, engine choice, and the factory that builds the use cases. */
package dev.crucible.server.wiring;
