/** Uploaded files (OpenAI's Files API): upload, list, read, download and delete, each within one entity. */
package dev.crucible.application.file;
