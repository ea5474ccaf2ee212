/**
 * Refusals as values: a refusal the caller caused, with its typed reason and the field at fault, the outcome that
 * carries either a value or a refusal, and the one exception that carries a refusal out of a read to the edge.
 */
package dev.crucible.kernel.refusal;
