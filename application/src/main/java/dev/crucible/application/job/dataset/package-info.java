/** Reading an SFT dataset (JSON Lines of chats) into examples, within limits, and the JSON parser port it uses. */
package dev.crucible.application.job.dataset;
