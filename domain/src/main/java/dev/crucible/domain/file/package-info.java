/** Uploaded files (OpenAI's Files API): their ids, purposes and metadata, owned by one entity each. */
package dev.crucible.domain.file;
