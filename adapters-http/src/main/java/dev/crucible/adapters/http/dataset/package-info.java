/** {@code /v1/datasets} and checkpoint lineage: routes, the request reader and the wire views. */
package dev.crucible.adapters.http.dataset;
