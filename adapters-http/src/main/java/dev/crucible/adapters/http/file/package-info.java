/** OpenAI's Files API under {@code /v1/files}: multipart upload, list, retrieve, download and delete. */
package dev.crucible.adapters.http.file;
