/**
 * The blob store: immutable objects named by their SHA-256, manifests written last that make multi-file things (files,
 * adapters with their optimiser state) visible whole, the garbage rule, and the bounded local cache of adapters.
 */
package dev.crucible.application.blob;
