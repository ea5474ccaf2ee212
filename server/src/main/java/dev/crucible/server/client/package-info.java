/**
 * The client half of the {@code crucible} command: models, checkpoints, files, training jobs (with a live progress
 * view) and chat against any Crucible server over its public HTTP API, so scripts and people need no curl.
 */
package dev.crucible.server.client;
