/** What the stores of entity-owned rows share: a caller's rows listed a cursor page at a time. */
package dev.crucible.application.paging;
