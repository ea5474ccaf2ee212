package dev.crucible.application.health;

import java.util.Map;

/**
 * Runs every system check: {@code api}, {@code database}, {@code storage}, {@code cpu_queue}, {@code gpu_queue},
 * {@code engines}, {@code models} (every served model's generation runs).
 */
public interface SystemCheckUseCase {

    /** The checks by name, in a stable order; the system is healthy when all succeed. */
    Map<String, Check> check();
}
