package dev.crucible.runtime.generation.sampling;

/**
 * A token and its log-probability under the raw model distribution.
 *
 * @param logprob natural log of the token's probability, at most 0; minus infinity only for a minus-infinity logit
 */
public record Candidate(int tokenId, double logprob) {
}
