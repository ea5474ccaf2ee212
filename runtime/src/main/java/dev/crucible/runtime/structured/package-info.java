/** Structured outputs: regexes and JSON schemas compiled to byte-level DFAs, and the token masks they give. */
package dev.crucible.runtime.structured;
