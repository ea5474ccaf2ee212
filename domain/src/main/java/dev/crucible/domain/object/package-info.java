/** Weave-compatible stored objects: names, versions, canonical JSON and content digests. */
package dev.crucible.domain.object;
