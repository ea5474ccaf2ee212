/**
 * The one typed reader of JSON-shaped values (parsed request bodies, job configs, dataset lines): every problem is
 * an invalid-request refusal naming the value's path, so a malformed value is refused where it is read.
 */
package dev.crucible.kernel.reading;
