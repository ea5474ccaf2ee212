package dev.crucible.application.health;

import java.util.Map;

/**
 * Whether this process should be sent traffic now: every part that most requests need (the database) answers. Unlike
 * {@link SystemCheckUseCase}, which checks every part, a failed readiness check is one that waiting can cure, so a
 * load balancer or Kubernetes readiness probe routes around the process meanwhile instead of restarting it.
 */
public interface ReadinessUseCase {

    /** The checks that gate readiness by name, in a stable order; ready when all succeed. Blocks a few seconds at most. */
    Map<String, Check> check();
}
