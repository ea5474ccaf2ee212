/**
 * What listing routes share on the wire: the page asked for (cursor, limit and order from the query, ids from the
 * path, checked) and the page answered.
 */
package dev.crucible.adapters.http.paging;
