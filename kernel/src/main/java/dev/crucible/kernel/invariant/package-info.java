/** Checks that records of every feature share: their components' null checks. */
package dev.crucible.kernel.invariant;
