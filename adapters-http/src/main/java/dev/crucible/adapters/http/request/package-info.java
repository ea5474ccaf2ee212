/** Per-request concerns shared by every route: the request id. */
package dev.crucible.adapters.http.request;
