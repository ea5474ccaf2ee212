/**
 * Reward models with Tribuo and ONNX Runtime: text features of the prompt and the answer, a logistic regression fitted
 * by Tribuo and exported with its ONNX exporter, and scoring of the exported bytes by ONNX Runtime.
 */
package dev.crucible.adapters.tribuo;
