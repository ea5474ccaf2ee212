/**
 * Training jobs on a LoRA adapter: the job trainer that turns a job's input into token sequences and losses
 * ({@code dev.crucible.runtime.training}), runs optimiser steps on an engine's
 * {@link dev.crucible.engine.spi.LoraTrainer}, reports events and stores the adapter as the model's next checkpoint.
 */
package dev.crucible.application.training;
