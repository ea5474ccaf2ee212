/** The engine plugin contract: providers found by ServiceLoader, their capabilities and health. */
package dev.crucible.engine.spi;
