/** A Hugging Face model folder as a whole: its configuration files read and checked, its weights opened on demand. */
package dev.crucible.hf.folder;
