/** Training-job routes. */
package dev.crucible.adapters.http.job;
