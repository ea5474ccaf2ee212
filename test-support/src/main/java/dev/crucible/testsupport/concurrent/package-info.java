/** Waiting in tests for what another thread does. */
package dev.crucible.testsupport.concurrent;
