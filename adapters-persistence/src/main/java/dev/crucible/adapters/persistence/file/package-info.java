/** Uploaded files: metadata in {@code files}, bytes under {@code <data-dir>/files/}. */
package dev.crucible.adapters.persistence.file;
