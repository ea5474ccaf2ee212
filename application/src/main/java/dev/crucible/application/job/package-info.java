/** Training-job use cases, the job runner and the ports they need. */
package dev.crucible.application.job;
