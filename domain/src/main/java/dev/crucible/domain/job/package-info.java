/** Training jobs: their lifecycle, inputs, trainer settings and the events they write. */
package dev.crucible.domain.job;
