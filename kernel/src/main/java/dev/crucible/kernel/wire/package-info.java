/** Names on the wire of the constants that requests, settings and listings spell: written once, found back by name. */
package dev.crucible.kernel.wire;
