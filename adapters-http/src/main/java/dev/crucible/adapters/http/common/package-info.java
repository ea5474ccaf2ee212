/** Wire pieces every route shares: cursor pages and checked path and query parameters. */
package dev.crucible.adapters.http.common;
