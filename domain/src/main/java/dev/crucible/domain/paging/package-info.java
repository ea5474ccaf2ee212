/** Cursor pages every listing shares: the page asked for, the page answered and its sort order. */
package dev.crucible.domain.paging;
