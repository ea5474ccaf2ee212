/**
 * ONNX Runtime inference with graphs built in Java. It lands after the real-models issue; until then no
 * provider is registered.
 */
package dev.crucible.engine.onnx;
