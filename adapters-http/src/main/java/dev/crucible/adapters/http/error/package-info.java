/** The one error envelope and the one place refusals become HTTP statuses. */
package dev.crucible.adapters.http.error;
