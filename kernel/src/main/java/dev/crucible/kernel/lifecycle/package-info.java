/** The ending of a background thread that a component starts and stops with itself. */
package dev.crucible.kernel.lifecycle;
