/** Model and checkpoint routes, and the served-models listing. */
package dev.crucible.adapters.http.model;
