/** Weave-compatible object use cases (create a version, read a version) and the object store port. */
package dev.crucible.application.object;
