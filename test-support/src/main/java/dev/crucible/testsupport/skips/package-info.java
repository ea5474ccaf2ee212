/** Tests that did not run, named with their reason, so that a skip is never mistaken for a pass. */
package dev.crucible.testsupport.skips;
