/** Request bodies as plain JSON values with typed reads that name the field at fault. */
package dev.crucible.adapters.http.json;
