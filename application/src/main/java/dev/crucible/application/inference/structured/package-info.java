/** Structured outputs: regexes and JSON schemas compiled to byte-level DFAs, and the token masks they give a vocabulary. */
package dev.crucible.application.inference.structured;
