/** The blob store on the local filesystem (the embedded default), and the import of the data directory's older layout. */
package dev.crucible.adapters.persistence.blob;
