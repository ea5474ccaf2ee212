/** The onnx engine: Llama, Qwen2 and Qwen3 decoder graphs built in Java and run by ONNX Runtime on the CPU. */
package dev.crucible.engine.onnx;
