/**
 * Training primitives: the low-level, sequenced operations the RL ecosystem speaks (Tinker's
 * {@code forward_backward}, {@code optim_step}, {@code sample}, {@code save_weights}), as values that do not depend on
 * how they travelled (JSON or protobuf). The HTTP adapter decodes requests into these records and encodes the results
 * from them; the use cases validate them against the model they run on.
 */
package dev.crucible.application.primitives;
