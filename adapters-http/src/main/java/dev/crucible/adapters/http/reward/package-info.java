/** The reward-model routes ({@code /v1/reward-models}): fit from inline examples, list, read, delete, score. */
package dev.crucible.adapters.http.reward;
