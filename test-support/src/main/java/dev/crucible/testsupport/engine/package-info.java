/** The contract suites every engine plugin's tests run: the model runner's, and its LoRA adapters'. */
package dev.crucible.testsupport.engine;
