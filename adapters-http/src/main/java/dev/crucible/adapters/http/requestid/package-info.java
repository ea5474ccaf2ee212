/** The request id every answer carries ({@code X-Request-Id}), so a client's report can be found in the logs. */
package dev.crucible.adapters.http.requestid;
