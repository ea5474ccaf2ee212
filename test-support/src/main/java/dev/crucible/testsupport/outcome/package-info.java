/** Assertions that open an {@code Outcome}, failing the test when it is the other kind. */
package dev.crucible.testsupport.outcome;
